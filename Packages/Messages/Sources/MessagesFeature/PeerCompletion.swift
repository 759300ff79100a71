import CommandLineKit
import FeatureKit
import Foundation
import LocalStore

/// Conversation peers for the shells' Tab key, from the archive only (no device, no body).
///
/// At most ``CompletionEngine/candidateLimit`` peers, the newest first: the peers of the
/// latest ``recentMessages`` messages in the order they were last heard from, then, when
/// those are fewer, older peers in the order of their key. Both reads are bounded whatever the archive's size
/// (a fixed window of the time index, then one index seek per peer), so an archive of
/// millions of messages and 100,000 peers answers as fast as a small one. What is offered is
/// data: CommandLineKit leaves out a peer whose name holds a control and offers one beginning
/// with `-` only after `--`.
enum PeerCompletion {
  /// How many of the latest messages are read for the newest peers.
  static let recentMessages = 2_000
  /// How many peers are offered.
  static var limit: Int { CompletionEngine.candidateLimit }

  static let completer = ValueCompleter(.peer) { directory, prefix in
    peers(in: directory, prefix: prefix)
  }

  /// Peers whose number or name starts with `prefix` (as written in the archive, or in its
  /// normal form: `138…` finds `+86 138…`), the most recently heard from first.
  static func peers(in directory: URL, prefix: String) -> [CompletionCandidate] {
    let low = keyPrefix(prefix)
    let high = low + "\u{10FFFF}"
    // The window of the latest messages, walked newest first and left as soon as `limit`
    // peers are found: 100,000 peers of one message each read 1,000 rows. The window is
    // taken first and filtered after, so a prefix no recent peer has still reads only
    // `recentMessages` rows. Read off the statement (no `Row` per message).
    var rows: [(raw: String, key: String)] = []
    var keys: Set<String> = []
    let window = "SELECT peer_raw, peer_key FROM messages ORDER BY device_at DESC, id DESC LIMIT ?"
    RegistryNames.eachTextRow(
      in: directory,
      low.isEmpty
        ? window
        : "SELECT peer_raw, peer_key FROM (\(window)) WHERE peer_key >= ? AND peer_key < ?",
      low.isEmpty ? [recentMessages] : [recentMessages, low, high], columns: 2
    ) { row in
      if keys.insert(row[1]).inserted { rows.append((raw: row[0], key: row[1])) }
      return rows.count < limit
    }
    if rows.count < limit {
      // Older peers by key: a walk of the peer index, one seek per distinct key (a peer with
      // a million messages costs no more than one with one), each with its latest name.
      RegistryNames.eachTextRow(
        in: directory,
        """
        WITH RECURSIVE keys(key) AS (
          SELECT (SELECT min(peer_key) FROM messages WHERE peer_key >= ?1 AND peer_key < ?2)
          UNION ALL
          SELECT (SELECT min(peer_key) FROM messages WHERE peer_key > keys.key AND peer_key < ?2)
          FROM keys WHERE keys.key IS NOT NULL
          LIMIT ?3)
        SELECT (
          SELECT peer_raw FROM messages WHERE peer_key = keys.key
          ORDER BY device_at DESC, id DESC LIMIT 1), key
        FROM keys WHERE key IS NOT NULL
        """, [low, high, limit + rows.count + 1], columns: 2
      ) { row in
        if keys.insert(row[1]).inserted { rows.append((raw: row[0], key: row[1])) }
        return rows.count < limit
      }
    }
    var seen: Set<String> = []
    return rows.compactMap { row in
      let value = row.raw.hasPrefix(prefix) || !row.key.hasPrefix(prefix) ? row.raw : row.key
      return seen.insert(value).inserted ? CompletionCandidate(value) : nil
    }
  }

  /// The start of the keys a typed prefix finds (``PeerNumber/keyPrefix(_:)``): after
  /// `+86`/`0086`, the digits of the mobile number it begins, as the key keeps them; any other
  /// sender as typed, since keys are exact (issue 36).
  static func keyPrefix(_ prefix: String) -> String {
    PeerNumber.keyPrefix(prefix)
  }
}
