import Essentials
import Foundation
import LocalStore
import SimAdminClient

/// Sends what waits in the outbox, only when asked (flush, send, refresh).
///
/// Entries are grouped by instance and instances are worked on concurrently, at most
/// `width(instances)` at once (the commands cap it by the open-file limit). Within one
/// instance entries go oldest first; when the device cannot be reached the instance's other
/// entries wait for the next flush (with the same reason), while other instances go on.
/// A device's refusal (`{"status":"error"}`) fails the entry; an entry past its expiry fails
/// as expired without being sent. An entry left `sending` by an interrupted run is tried again.
public struct OutboxProcessor: Sendable {
  /// The outbox.
  public let outbox: OutboxRepository
  /// The device sessions.
  public let connector: SimAdminConnector
  /// Resolves instances by id.
  public let instances: InstanceRepository

  /// A processor.
  public init(outbox: OutboxRepository, connector: SimAdminConnector) {
    self.outbox = outbox
    self.connector = connector
    self.instances = InstanceRepository(store: outbox.store)
  }

  /// Tries every queued entry (or only `ids`); returns the entries touched, as they are now.
  ///
  /// - Parameter width: how many instances may be worked on at once, given how many have
  ///   entries due (default: at most 8); each holds a device connection.
  public func flush(
    only ids: Set<Int64>? = nil, width: (Int) -> Int = { min($0, 8) }
  ) async throws -> [OutboxEntry] {
    let due = try outbox.list(states: [.queued, .sending], limit: 10_000).reversed().filter {
      ids?.contains($0.id) ?? true
    }
    let byInstance = Dictionary(grouping: due, by: \.instanceID).sorted { $0.key < $1.key }
    let outbox = self.outbox
    let allowed = byInstance.isEmpty ? 0 : max(1, width(byInstance.count))
    await withTaskGroup(of: Void.self) { group in
      var pending = byInstance.makeIterator()
      func launch() -> Bool {
        guard let (instanceID, entries) = pending.next() else { return false }
        let instance = try? instances.get(id: instanceID)
        group.addTask { await process(entries, instance: instance, outbox: outbox) }
        return true
      }
      for _ in 0..<allowed where !launch() { break }
      while await group.next() != nil { _ = launch() }
    }
    return try due.compactMap { try outbox.entry(id: $0.id) }
  }

  private func process(_ entries: [OutboxEntry], instance: Instance?, outbox: OutboxRepository)
    async
  {
    let now = outbox.store.clock.now()
    guard let instance else {
      for entry in entries {
        try? outbox.update(
          id: entry.id, state: .failed,
          reason: OutboxReason(key: "outbox.reason.instanceDeleted"), attempt: "refused")
      }
      return
    }
    let session = connector.session(
      for: instance.id, name: instance.name, origin: instance.origin.url)
    var unreachable: OutboxReason?
    for entry in entries {
      if let expiresAt = entry.expiresAt, expiresAt <= now {
        try? outbox.update(
          id: entry.id, state: .failed, reason: OutboxReason(key: "outbox.reason.expired"),
          attempt: "expired")
        continue
      }
      if let unreachable {
        try? outbox.update(id: entry.id, state: .queued, reason: unreachable, attempt: nil)
        continue
      }
      do {
        try outbox.update(id: entry.id, state: .sending, reason: nil, attempt: nil)
        let result = try await session.smsSend(phoneNumber: entry.peer, content: entry.body)
        try outbox.update(
          id: entry.id, state: .sent, reason: nil, attempt: "sent", upstreamPath: result.path)
      } catch let failure as SimAdminFailure {
        let reason = OutboxReason(failure.error)
        if case .upstream = failure.error {
          try? outbox.update(id: entry.id, state: .failed, reason: reason, attempt: "refused")
        } else {
          unreachable = reason
          try? outbox.update(id: entry.id, state: .queued, reason: reason, attempt: "waiting")
        }
      } catch {
        let reason = OutboxReason(
          key: "outbox.reason.local", arguments: ["detail": String(describing: error)])
        try? outbox.update(id: entry.id, state: .queued, reason: reason, attempt: "waiting")
      }
    }
  }
}
