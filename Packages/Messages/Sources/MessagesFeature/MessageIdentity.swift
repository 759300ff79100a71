import Foundation
import SimAdminClient

/// The identity of an archived message, which decides whether a device's message is already
/// in the archive.
///
/// The device's upstream id is **not** the identity: ids restart after a device's database is
/// reset, so a reused id may name a different message. A message is identified by its source
/// instance id, direction, peer number as the device stores it, the device's raw timestamp and
/// a SHA-256 of its body, plus for incoming messages the device's `mmfp:` marker (`pdu`) when
/// present. The key is the SHA-256 of those parts joined with a separator.
public enum MessageIdentity {
  /// The parts of one instance's message that make its identity, compared as they are.
  struct Parts: Hashable {
    var direction: String
    var peer: String
    var timestamp: String
    var body: String
    var marker: String

    init(direction: String, peer: String, timestamp: String, body: String, marker: String) {
      self.direction = direction
      self.peer = peer
      self.timestamp = timestamp
      self.body = body
      self.marker = marker
    }

    init(_ message: SmsMessage) {
      self.init(
        direction: message.direction, peer: message.phoneNumber, timestamp: message.timestamp,
        body: message.content, marker: message.isIncoming ? message.pdu ?? "" : "")
    }

    /// Whether `other` is the same message with its timestamp written another way: the same
    /// direction, peer, body and marker, and a timestamp naming the same second
    /// (``DeviceTime/canonical(_:)``), as v1.0.6's rewrite of v1.0.0–1.0.5's RFC 3339 UTC
    /// times leaves it. Texts that name no time never match this way.
    func sameMessage(as other: Parts) -> Bool {
      guard direction == other.direction, peer == other.peer, body == other.body,
        marker == other.marker, let mine = DeviceTime.canonical(timestamp)
      else { return false }
      return mine == DeviceTime.canonical(other.timestamp)
    }

    /// Whether `other` has the same parts in the same UTF-8 bytes (which implies `==`; parts
    /// equal only under canonical equivalence answer false).
    func sameBytes(as other: Parts?) -> Bool {
      guard let other else { return false }
      return Self.sameBytes(timestamp, other.timestamp) && Self.sameBytes(body, other.body)
        && Self.sameBytes(peer, other.peer) && Self.sameBytes(direction, other.direction)
        && Self.sameBytes(marker, other.marker)
    }

    /// Whether `a` and `b` hold the same UTF-8 bytes: one `memcmp` of their contiguous UTF-8
    /// (a later sync compares every known row of its first pages this way; the walk through
    /// `String.UTF8View` it replaces cost a tenth of the matching).
    static func sameBytes(_ a: String, _ b: String) -> Bool {
      guard a.utf8.count == b.utf8.count else { return false }
      var a = a
      var b = b
      return a.withUTF8 { x in
        b.withUTF8 { y in
          guard let left = x.baseAddress, let right = y.baseAddress else {
            return x.count == y.count
          }
          return memcmp(left, right, x.count) == 0
        }
      }
    }
  }

  /// The dedupe key of `message` as synced from instance `instanceID`.
  public static func key(instanceID: String, message: SmsMessage) -> String {
    key(
      instanceID: instanceID, direction: message.direction, peer: message.phoneNumber,
      timestamp: message.timestamp, body: message.content,
      marker: message.isIncoming ? message.pdu : nil)
  }

  /// The dedupe key from its parts.
  public static func key(
    instanceID: String, direction: String, peer: String, timestamp: String, body: String,
    marker: String?
  ) -> String {
    let bodyHash = SHA256.hex(Array(body.utf8))
    let parts = [instanceID, direction, peer, timestamp, bodyHash, marker ?? ""]
    return SHA256.hex(Array(parts.joined(separator: "\u{1F}").utf8))
  }
}
