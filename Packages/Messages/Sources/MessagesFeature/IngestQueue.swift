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
///
/// With `followingIndex`, the writer indexes while it would otherwise wait for pages: when no
/// page is waiting and at least `followChunk` stored messages wait for the search index, it
/// indexes that many (one ``MessageArchive/catchUpIndex(chunk:progress:)`` transaction, which
/// moves the watermark with them) before it looks for pages again. The index catch-up then
/// overlaps the reading of pages instead of all coming after it; search stays exact at every
/// moment (the rows above the watermark are scanned) and a crash resumes from the watermark.
final class IngestQueue: Sendable {
  /// How many messages one indexing step takes while pages are being read, by default.
  static let defaultFollowChunk = 10_000

  private struct Waiting {
    var page: IngestPage
    var continuation: CheckedContinuation<Result<IngestResult, any Error>, Never>
  }

  private struct State {
    var waiting: [Waiting] = []
    var writing = false
  }

  private let archive: MessageArchive
  private let followingIndex: Bool
  private let followChunk: Int
  private let state = Locked(State())

  init(
    archive: MessageArchive, followingIndex: Bool = false,
    followChunk: Int = IngestQueue.defaultFollowChunk
  ) {
    self.archive = archive
    self.followingIndex = followingIndex
    self.followChunk = max(1, followChunk)
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

  /// Writes batches until nothing waits (indexing meanwhile when following the index), then
  /// hands the role back.
  private func drain() {
    while true {
      var batch = state.withLock { state -> [Waiting] in
        let batch = state.waiting
        state.waiting.removeAll()
        return batch
      }
      if batch.isEmpty, followingIndex, indexStep() {
        continue
      }
      if batch.isEmpty {
        // Hand the role back only when still nothing waits (a page may have come meanwhile).
        batch = state.withLock { state -> [Waiting] in
          let batch = state.waiting
          state.waiting.removeAll()
          if batch.isEmpty { state.writing = false }
          return batch
        }
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

  /// Indexes the messages with ids up to `through` that wait for the search index (what
  /// earlier later syncs left there, see ``MessageSyncer/indexBacklog``), taking the writer's
  /// role if no page is being written, then writes the pages that came meanwhile. A later sync calls it once its
  /// requests are out, so the indexing fills the wait for the devices' answers. Does nothing
  /// when pages are already being written (their writer comes first; what is left waits for
  /// the catch-up after the sync or the next sync). A failure is left to that catch-up too.
  func indexWaiting(through: Int64) {
    let leads = state.withLock { state -> Bool in
      guard !state.writing else { return false }
      state.writing = true
      return true
    }
    guard leads else { return }
    _ = try? archive.catchUpIndex(through: through)
    drain()
  }

  /// Indexes one chunk of the stored messages when at least a chunk waits; returns whether it
  /// did. A failure is left to the catch-up after the sync, which meets it again.
  private func indexStep() -> Bool {
    var steps = 0
    let indexed = try? archive.catchUpIndex(chunk: followChunk) { waiting in
      steps += 1
      return steps == 1 && waiting >= followChunk
    }
    return (indexed ?? 0) > 0
  }
}
