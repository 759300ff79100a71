import Essentials
import Foundation
import LocalStore
import MessagesFeature

/// `msa-bench search`: the archive query `msa messages list --search Q` runs (first page of
/// 50), timed in-process over the existing archive, several times per query. A query
/// `peer:NUMBER` is the sender filter `msa messages list --peer NUMBER` instead.
///
/// The reference, the `LIKE` scan a user would type into the `sqlite3` shell, is timed here
/// too: the same statement text, through the same SQLite library on a connection of its own
/// opened with the defaults (as the shell's), by the same clock, as many times, each sample
/// right after one of ours (so a burst of load falls on both sides alike). `--reference no`
/// leaves it out, for runs that report only our side (`--large`'s growth, case 7).
enum BenchSearch {
  static func run(_ options: BenchOptions) throws {
    let store = try Store.open(
      directory: URL(fileURLWithPath: try options.string("home")), modules: [Messages.schema],
      clock: .system, readOnly: true)
    let archive = MessageArchive(store: store)
    let shell = try SQLiteDatabase(url: store.database.url, mode: .readOnly)
    let repetitions = try options.int("reps", 50)
    let timesReference: Bool
    switch try options.string("reference", "yes") {
    case "yes": timesReference = true
    case "no": timesReference = false
    case let other: throw BenchError("--reference must be yes or no, not \(other)")
    }
    var results: [[String: Any]] = []
    for query in options.positional {
      let filter =
        query.hasPrefix("peer:")
        ? MessageFilter(peerKey: PeerNumber.key(String(query.dropFirst(5))))
        : MessageFilter(search: query)
      let like = referenceStatement(query)
      var hits = 0
      var referenceHits = 0
      for _ in 0..<3 {
        hits = try archive.list(filter: filter, limit: 50).count
        if timesReference { referenceHits = try shell.query(like).count }
      }
      var samples: [Double] = []
      var reference: [Double] = []
      for _ in 0..<repetitions {
        let (_, elapsed) = try Stopwatch.milliseconds {
          try archive.list(filter: filter, limit: 50)
        }
        samples.append(elapsed)
        guard timesReference else { continue }
        let (_, scanned) = try Stopwatch.milliseconds { try shell.query(like) }
        reference.append(scanned)
      }
      results.append([
        "query": query, "hits": hits, "samples": samples, "reference": reference,
        "referenceHits": referenceHits,
      ])
    }
    try BenchOutput.json(results)
  }

  /// The reference's statement, as a user would type it into the `sqlite3` shell (the term
  /// inlined as a literal): the newest 50 messages whose body (the sender's number for
  /// `peer:`) contains the term, with what `msa messages list` shows of each — every column
  /// of the message and its device's name — so both sides return the same page and differ
  /// only in how they find its rows.
  static func referenceStatement(_ query: String) -> String {
    let (column, term) =
      query.hasPrefix("peer:") ? ("peer_raw", String(query.dropFirst(5))) : ("body", query)
    return """
      SELECT m.id, m.instance_id, COALESCE(i.name, s.instance_name, m.instance_name), \
      m.direction, m.peer_raw, m.peer_key, m.body, m.device_at, m.device_timestamp, m.status, \
      m.upstream_id, m.synced_at, m.repaired, m.code, m.sim_number \
      FROM messages m LEFT JOIN instances i ON i.id = m.instance_id \
      LEFT JOIN message_sync_state s ON s.instance_id = m.instance_id \
      WHERE m.\(column) LIKE '%\(term.replacingOccurrences(of: "'", with: "''"))%' \
      ORDER BY m.device_at DESC, m.id DESC LIMIT 50;
      """
  }
}
