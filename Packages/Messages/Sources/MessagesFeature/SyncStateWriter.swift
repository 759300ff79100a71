import Essentials
import Foundation
import LocalStore

/// Writes how concurrent instance syncs ended (``MessageArchive/recordCheck`` and
/// ``MessageArchive/syncFinished(instanceID:at:error:)``), several instances per transaction.
///
/// A group commit, as ``IngestQueue`` does for pages: the first caller to arrive while nothing
/// is being written writes its records and every record that arrived meanwhile in one
/// transaction, and goes on until none is waiting; the others wait for their result. A later
/// sync of a hundred devices ends them all within a few milliseconds: a handful of commits
/// instead of two autocommits per device. One caller's records are written together or not at
/// all; if a shared transaction fails, each caller's records are written again on their own,
/// so one instance's failure stays that instance's.
final class SyncStateWriter: Sendable {
  /// One write of one instance's records.
  typealias Write = @Sendable (MessageArchive) throws -> Void

  private struct Waiting {
    var writes: [Write]
    var continuation: CheckedContinuation<Result<Void, any Error>, Never>
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

  /// Writes `writes` in one transaction with whatever else is waiting; returns when they are
  /// committed, or throws what the transaction of this caller's own writes threw.
  func write(_ writes: [Write]) async throws {
    let result = await withCheckedContinuation { continuation in
      let leads = state.withLock { state -> Bool in
        state.waiting.append(Waiting(writes: writes, continuation: continuation))
        guard !state.writing else { return false }
        state.writing = true
        return true
      }
      if leads { drain() }
    }
    try result.get()
  }

  private func drain() {
    while true {
      let batch = state.withLock { state -> [Waiting] in
        let batch = state.waiting
        state.waiting.removeAll()
        if batch.isEmpty { state.writing = false }
        return batch
      }
      guard !batch.isEmpty else { return }
      let archive = archive
      var together = false
      if batch.count > 1 {
        together =
          (try? archive.database.transaction { (_: SQLiteDatabase) -> Void in
            for waiting in batch { for write in waiting.writes { try write(archive) } }
          }) != nil
      }
      for waiting in batch {
        let result: Result<Void, any Error> =
          together
          ? .success(())
          : Result {
            try archive.database.transaction { (_: SQLiteDatabase) -> Void in
              for write in waiting.writes { try write(archive) }
            }
          }
        waiting.continuation.resume(returning: result)
      }
    }
  }
}
