import CommandLineKit
import FeatureKit
import Foundation
import LocalStore

/// Conversation peers for the shells' Tab key, from the archive only (no device, no body).
enum PeerCompletion {
  /// How many recent messages an empty prefix looks at, and how many peers it offers.
  static let recentMessages = 5_000
  static let limit = 200

  static let completer = ValueCompleter(.peer) { directory, prefix in
    peers(in: directory, prefix: prefix)
  }

  /// Peers whose number or name starts with `prefix` (as written in the archive, or in its
  /// normal form: `138…` and `+86 138…` find `+86 138…`, ``PeerNumber/keyPrefix(_:)``); the most recently heard from first when `prefix`
  /// is empty.
  static func peers(in directory: URL, prefix: String) -> [CompletionCandidate] {
    let rows: [(raw: String, key: String)]
    if prefix.isEmpty {
      rows = RegistryNames.rows(
        in: directory,
        """
        SELECT peer_raw, peer_key, max(device_at) AS last FROM (
          SELECT peer_raw, peer_key, device_at FROM messages ORDER BY device_at DESC LIMIT ?)
        GROUP BY peer_key ORDER BY last DESC LIMIT ?
        """, [recentMessages, limit]
      ) { (try $0.string("peer_raw"), try $0.string("peer_key")) }
    } else {
      let key = PeerNumber.keyPrefix(prefix)
      rows = RegistryNames.rows(
        in: directory,
        """
        SELECT min(peer_raw) AS peer_raw, peer_key FROM messages
        WHERE peer_key >= ? AND peer_key < ? GROUP BY peer_key ORDER BY peer_key LIMIT ?
        """, [key, key + "\u{10FFFF}", limit]
      ) { (try $0.string("peer_raw"), try $0.string("peer_key")) }
    }
    var seen: Set<String> = []
    return rows.compactMap { row in
      let value = row.raw.hasPrefix(prefix) || !row.key.hasPrefix(prefix) ? row.raw : row.key
      return seen.insert(value).inserted ? CompletionCandidate(value) : nil
    }
  }
}
