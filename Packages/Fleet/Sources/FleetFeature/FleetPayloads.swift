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

/// What `fleet remove` did about the device's Hub binding. Without `--release-hub` it does
/// nothing to the device (`leftAsIs`); with it, a bound device is made standalone.
public enum ReleaseOutcome: String, Sendable, Codable, Hashable, CaseIterable {
  /// Not asked to release: the device was not written to (``RemovalReport/hub`` says what it
  /// is left as).
  case leftAsIs
  /// Asked to release, and the device was bound: `POST /api/hub` with `enabled: false` made it
  /// standalone (the Hub is not told).
  case released
  /// Asked to release, but the device is not bound (standalone, waiting for a Hub, or no Hub
  /// routes): nothing was written.
  case nothingToRelease
  /// Asked to release, and it could not be done (the binding unreadable, the device refused,
  /// a login it wants): the instance is kept unless `--force`.
  case failed
  /// Asked to release; the device answered `GET /api/hub` but not the release in time: it may
  /// have been released. Kept unless `--force`.
  case unanswered

  /// Whether the instance is deleted without `--force`.
  public var allowsRemoval: Bool {
    switch self {
    case .leftAsIs, .released, .nothingToRelease: true
    case .failed, .unanswered: false
    }
  }
}

/// One instance's line in `fleet remove`.
public struct RemovalReport: Sendable, Codable, Hashable {
  /// The instance id.
  public var id: String
  /// Its name.
  public var name: String
  /// What `GET /api/hub` said the device is (nil before it was read).
  public var hub: HubFound?
  /// The Hub's address, when the device was bound.
  public var hubURL: String?
  /// Why the binding could not be read (`timeout`, `wrongPassword`…), when unreadable.
  public var hubReason: String?
  /// What was done about the binding.
  public var release: ReleaseOutcome
  /// Why a release failed (`timeout`, `wrongPassword`, `http500`…).
  public var releaseReason: String?
  /// The device's or system's detail.
  public var detail: String?
  /// Whether the instance was deleted.
  public var deleted: Bool
  /// Deleted with `--force` although the asked-for release did not happen: the device may
  /// still be bound to its Hub.
  public var mayStillBeBound = false
  /// The client's error behind ``releaseReason``, for showing it in the reader's language
  /// (not part of the JSON: `releaseReason` and `detail` are).
  public var failure: SimAdminError? = nil
  /// The client's error behind ``hubReason`` (not part of the JSON).
  public var hubFailure: SimAdminError? = nil

  /// A report.
  public init(id: String, name: String, release: ReleaseOutcome, deleted: Bool) {
    self.id = id
    self.name = name
    self.release = release
    self.deleted = deleted
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case id, name, hub, hubURL, hubReason, release, releaseReason, detail, deleted,
      mayStillBeBound
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
