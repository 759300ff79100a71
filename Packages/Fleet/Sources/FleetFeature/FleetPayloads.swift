import Foundation
import SimAdminClient

/// `fleet list` / `fleet show` JSON: `{"instances": [FleetRow]}`.
public struct InstancesPayload: Sendable, Codable, Hashable {
  /// The rows.
  public var instances: [FleetRow]
}

/// `fleet add` / `fleet edit` JSON: the written instance and whether a password is stored.
public struct WrittenPayload: Sendable, Codable, Hashable {
  /// The instance after the write.
  public var instance: FleetRow
  /// `added` or `updated`.
  public var action: String
}

/// `fleet test` JSON: one result per instance, in the order asked.
public struct TestPayload: Sendable, Codable, Hashable {
  /// The results.
  public var results: [ProbeResult]
}

/// How releasing the Hub binding went before a delete.
public enum ReleaseOutcome: String, Sendable, Codable, Hashable, CaseIterable {
  /// The device was bound; `POST /api/hub/unbind` released it.
  case released
  /// `GET /api/hub` says the device is not bound (standalone, or waiting for a Hub): nothing
  /// was written to it.
  case nothingToRelease
  /// SimAdmin before 1.1.9: no Hub routes (plain-text 404), nothing to release.
  case notSupported
  /// The device could not be reached (or did not answer in time).
  case unreachable
  /// The device wants a login that could not be had.
  case loginRequired
  /// The device refused, or answered something that is not SimAdmin's.
  case refused

  /// Whether the instance is deleted without `--force`.
  public var allowsRemoval: Bool {
    switch self {
    case .released, .nothingToRelease, .notSupported: true
    case .unreachable, .loginRequired, .refused: false
    }
  }
}

/// One instance's line in `fleet remove`.
public struct RemovalReport: Sendable, Codable, Hashable {
  /// The instance id.
  public var id: String
  /// Its name.
  public var name: String
  /// How the Hub release went.
  public var release: ReleaseOutcome
  /// The release's reason code when not released (`timeout`, `notSupported`, `wrongPassword`…).
  public var releaseReason: String?
  /// The device's or system's detail.
  public var detail: String?
  /// Whether the instance was deleted.
  public var deleted: Bool
  /// Deleted with `--force` although the release did not happen: the device may still be
  /// bound to its Hub.
  public var mayStillBeBound = false
  /// The client's error behind ``releaseReason``, for showing it in the reader's language
  /// (not part of the JSON: `releaseReason` and `detail` are).
  public var failure: SimAdminError? = nil

  enum CodingKeys: String, CodingKey, CaseIterable {
    case id, name, release, releaseReason, detail, deleted, mayStillBeBound
  }

  /// Its fields in `--json`, for `--fields`.
  public static let jsonFields = CodingKeys.allCases.map(\.rawValue)
}

/// `fleet remove` JSON.
public struct RemovePayload: Sendable, Codable, Hashable {
  /// One report per instance.
  public var removals: [RemovalReport]
}

/// `fleet login` / `fleet logout` JSON.
public struct SessionPayload: Sendable, Codable, Hashable {
  /// The instance id.
  public var id: String
  /// Its name.
  public var name: String
  /// `loggedIn` or `loggedOut`.
  public var state: String
}

/// `groups …` JSON.
public struct GroupsPayload: Sendable, Codable, Hashable {
  /// The groups after the command.
  public var groups: [GroupEntry]
}

/// One group.
public struct GroupEntry: Sendable, Codable, Hashable {
  /// Its fields in `--json`, for `--fields`.
  public static let jsonFields = ["id", "name", "members"]
  /// The id.
  public var id: String
  /// The name.
  public var name: String
  /// Members.
  public var members: Int
}

/// `tags` JSON.
public struct TagsPayload: Sendable, Codable, Hashable {
  /// Tags with counts, sorted.
  public var tags: [TagEntry]
}

/// One tag.
public struct TagEntry: Sendable, Codable, Hashable {
  /// The normalized tag.
  public var tag: String
  /// Instances carrying it.
  public var count: Int
}
