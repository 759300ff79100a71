import Essentials
import Foundation
import LocalStore
import MessagesFeature

/// `msa-bench search`: the archive query `msa messages list --search Q` runs (first page of
/// 50), timed in-process over the existing archive, several times per query. A query
/// `peer:NUMBER` is the sender filter `msa messages list --peer NUMBER` instead.
enum BenchSearch {
  static func run(_ options: BenchOptions) throws {
    let store = try Store.open(
      directory: URL(fileURLWithPath: try options.string("home")), modules: [Messages.schema],
      clock: .system, readOnly: true)
    let archive = MessageArchive(store: store)
    let repetitions = try options.int("reps", 50)
    var results: [[String: Any]] = []
    for query in options.positional {
      let filter =
        query.hasPrefix("peer:")
        ? MessageFilter(peerKey: PeerNumber.key(String(query.dropFirst(5))))
        : MessageFilter(search: query)
      var hits = 0
      for _ in 0..<3 { hits = try archive.list(filter: filter, limit: 50).count }
      var samples: [Double] = []
      for _ in 0..<repetitions {
        let (_, elapsed) = try Stopwatch.milliseconds {
          try archive.list(filter: filter, limit: 50)
        }
        samples.append(elapsed)
      }
      results.append(["query": query, "hits": hits, "samples": samples])
    }
    try BenchOutput.json(results)
  }
}
