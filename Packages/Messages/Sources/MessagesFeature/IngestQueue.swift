import Essentials
import Foundation

/// Writes the pages that concurrent instance syncs hand in, several pages per transaction.
///
/// A group commit: the first caller to arrive while nothing is being written writes its page
/// and every page that arrived in the meantime, in one transaction, and goes on until none is
/// waiting; the others wait for their result. Each commit costs a write of every index page
/// it touched, so a first sync of many devices commits far fewer times than one page each.
/// If a shared transaction fails, each of its pages is written again on its own, so one
/// instance's bad page stays that instance's failure.
final class IngestQueue: Sendable {
  private struct Waiting {
    var page: IngestPage
    var continuation: CheckedContinuation<Result<IngestResult, any Error>, Never>
  }

  private struct State {
    var waiting: [Waiting] = []
    var writing = false
  }

  private let archive: MessageArchive
  private let state = Locked(State())

  init(archive: MessageArchive) {
    self.archive = archive
  }

  /// Archives `page` with whatever else is waiting; returns its own result.
  func ingest(_ page: IngestPage) async throws -> IngestResult {
    let result = await withCheckedContinuation { continuation in
      let leads = state.withLock { state -> Bool in
        state.waiting.append(Waiting(page: page, continuation: continuation))
        guard !state.writing else { return false }
        state.writing = true
        return true
      }
      if leads { drain() }
    }
    return try result.get()
  }

  /// Writes batches until nothing waits, then hands the role back.
  private func drain() {
    while true {
      let batch = state.withLock { state -> [Waiting] in
        let batch = state.waiting
        state.waiting.removeAll()
        if batch.isEmpty { state.writing = false }
        return batch
      }
      guard !batch.isEmpty else { return }
      let results: [Result<IngestResult, any Error>]
      if batch.count > 1, let together = try? archive.ingest(batch.map(\.page)) {
        results = together.map { .success($0) }
      } else {
        results = batch.map { waiting in Result { try archive.ingest([waiting.page])[0] } }
      }
      for (waiting, result) in zip(batch, results) {
        waiting.continuation.resume(returning: result)
      }
    }
  }
}
