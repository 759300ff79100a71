import Foundation

/// One message of the local archive.
public struct ArchivedMessage: Sendable, Hashable, Codable, Identifiable {
  /// The archive's own row id (stable; the list's row id).
  public var id: Int64
  /// The source instance's id (kept after the instance is deleted).
  public var instanceID: String
  /// The instance's current name, or its name at the last sync when it was deleted.
  public var instanceName: String
  /// `incoming` or `outgoing`.
  public var direction: String
  /// The peer number exactly as the device stores it.
  public var peer: String
  /// The normalized peer key (see ``PeerNumber``).
  public var peerKey: String
  /// The full body.
  public var body: String
  /// The true instant of the device's timestamp; when ``timeApproximate``, when msa first
  /// archived it.
  public var deviceAt: Date
  /// The device's raw Beijing-time text.
  public var deviceTimestamp: String
  /// `received`, `sent`, `pending` or `failed`, as the device said.
  public var status: String
  /// The device's row id when last synced: an attribute, not the identity.
  public var upstreamID: Int64?
  /// When it was first archived.
  public var syncedAt: Date
  /// Whether the device sent invalid UTF-8 in its text, stored with U+FFFD in its place.
  public var repaired: Bool = false
  /// Its verification code (``CodeDetector/code(in:)``), nil when it has none.
  public var code: String?
  /// The SIM's own number that received it (sent it, for an outgoing message) as the
  /// instance's status knew it when it was archived; nil when unknown then.
  public var simNumber: String?
  /// Whether the device's timestamp named no believable time (unparsable, or more than a day
  /// ahead of the archive's clock, see ``DeviceTime``): ``deviceAt`` is then when msa first
  /// archived it, shown as approximate.
  public var timeApproximate: Bool = false
  /// When the instance's previous successful sync started, as the message was first archived:
  /// it appeared on the device after then. Nil for a message archived by its instance's first
  /// sync (history) or by a version before it was kept.
  public var seenAfter: Date? = nil

  /// A message value.
  public init(
    id: Int64, instanceID: String, instanceName: String, direction: String, peer: String,
    peerKey: String, body: String, deviceAt: Date, deviceTimestamp: String, status: String,
    upstreamID: Int64?, syncedAt: Date, repaired: Bool = false, code: String? = nil,
    simNumber: String? = nil
  ) {
    self.code = code
    self.simNumber = simNumber
    self.id = id
    self.instanceID = instanceID
    self.instanceName = instanceName
    self.direction = direction
    self.peer = peer
    self.peerKey = peerKey
    self.body = body
    self.deviceAt = deviceAt
    self.deviceTimestamp = deviceTimestamp
    self.status = status
    self.upstreamID = upstreamID
    self.syncedAt = syncedAt
    self.repaired = repaired
  }

  /// Whether the device received it.
  public var isIncoming: Bool { direction == "incoming" }

  /// Whether it arrived at or after `start` as far as msa can tell: "recent" means recently
  /// archived (PRODUCT, Messages). It must have been first archived then; and either it
  /// appeared between two syncs of its device that both fall inside the window (``seenAfter``
  /// at or after `start`: whatever the device's clock says), or, when msa had not synced that
  /// device inside the window (or this is its first sync), the device's own time — believed
  /// only when it names one (never for an approximate time) — is at or after `start`. So a
  /// device clock 10 minutes slow never hides a code that arrived between two syncs, and a
  /// fast one never revives a code msa archived before the window.
  public func isRecent(since start: Date) -> Bool {
    guard syncedAt >= start else { return false }
    if let seenAfter, seenAfter >= start { return true }
    return !timeApproximate && deviceAt >= start
  }
}

/// One conversation: every message with one normalized peer, across instances.
public struct Conversation: Sendable, Hashable, Codable, Identifiable {
  /// The normalized peer key.
  public var peerKey: String
  /// The peer as the latest message stores it.
  public var peer: String
  /// How many messages.
  public var count: Int
  /// The latest message.
  public var latest: ArchivedMessage
  /// The names of the instances the messages came through, sorted.
  public var instanceNames: [String]

  /// The peer key.
  public var id: String { peerKey }

  /// A conversation value.
  public init(
    peerKey: String, peer: String, count: Int, latest: ArchivedMessage, instanceNames: [String]
  ) {
    self.peerKey = peerKey
    self.peer = peer
    self.count = count
    self.latest = latest
    self.instanceNames = instanceNames
  }
}

/// Which archived messages a list, export or delete covers.
public struct MessageFilter: Sendable, Equatable {
  /// `incoming` or `outgoing`.
  public var direction: String?
  /// One source instance.
  public var instanceID: String?
  /// A normalized peer key.
  public var peerKey: String?
  /// Device instant at or after.
  public var since: Date?
  /// Device instant before.
  public var until: Date?
  /// Body text: full-text (trigram) search from 3 characters, a substring match below.
  public var search: String?
  /// Only messages with a verification code.
  public var hasCode: Bool = false
  /// Several source instances (any of them); empty: no condition.
  public var instanceIDs: [String] = []
  /// Archived (first synced) at or after.
  public var syncedSince: Date?

  /// A filter; no conditions covers everything.
  public init(
    direction: String? = nil, instanceID: String? = nil, peerKey: String? = nil,
    since: Date? = nil, until: Date? = nil, search: String? = nil, hasCode: Bool = false
  ) {
    self.hasCode = hasCode
    self.direction = direction
    self.instanceID = instanceID
    self.peerKey = peerKey
    self.since = since
    self.until = until
    self.search = search
  }
}

/// A keyset position in the archive's order (device instant, then id, both descending).
///
/// Printed as an opaque token; a page after a cursor holds only older messages, so new
/// messages arriving never shift or repeat a page.
public struct MessageCursor: Sendable, Hashable {
  /// The device instant of the last message shown, epoch milliseconds.
  public var deviceAtMilliseconds: Int64
  /// The id of the last message shown.
  public var id: Int64

  /// A cursor after `message`.
  public init(after message: ArchivedMessage) {
    deviceAtMilliseconds = Int64((message.deviceAt.timeIntervalSince1970 * 1000).rounded())
    id = message.id
  }

  /// A cursor from its parts.
  public init(deviceAtMilliseconds: Int64, id: Int64) {
    self.deviceAtMilliseconds = deviceAtMilliseconds
    self.id = id
  }

  /// The opaque token (`--after`).
  public var token: String {
    Data("m1:\(deviceAtMilliseconds):\(id)".utf8).base64EncodedString()
      .replacingOccurrences(of: "=", with: "")
  }

  /// Reads a token; nil when it is not one this code printed.
  public init?(token: String) {
    var padded = token.trimmingCharacters(in: .whitespaces)
    while padded.count % 4 != 0 { padded += "=" }
    guard let data = Data(base64Encoded: padded), let text = String(data: data, encoding: .utf8)
    else { return nil }
    let parts = text.split(separator: ":")
    guard parts.count == 3, parts[0] == "m1", let at = Int64(parts[1]), let id = Int64(parts[2])
    else { return nil }
    deviceAtMilliseconds = at
    self.id = id
  }
}
