import Essentials
import Foundation
import LocalStore
import SimAdminClient

/// Sends what waits in the outbox, only when asked (flush, send, refresh), and never sends a
/// message twice.
///
/// Entries are grouped by instance and instances are worked on concurrently, at most
/// `width(instances)` at once (the commands cap it by the open-file limit). Within one
/// instance:
///
/// 1. **Settle first.** Entries whose outcome is unknown (and `sending` ones a run left
///    behind) are looked for among the device's sent messages: a row with the same number and
///    text, stored after the attempt (an id above the newest the device had just before it),
///    settles the entry as sent. None found leaves it unknown: SimAdmin's send waits for the
///    modem with no time limit, and a client that gave up cancels the device's handler, so the
///    SMS may have gone out without a row (SIMADMIN-API §6, docs/upstream.md). Nothing here
///    ever sends an unknown entry again; only the user's explicit "send again" does
///    (``OutboxRepository/retry(id:sendAgain:)``).
/// 2. **Then send, oldest first.** Before each send the newest id among the device's sent
///    messages is read (a failed read means nothing was sent: the entry waits), the entry is
///    claimed (`queued` → `sending`, so two runs never send it both), then sent with
///    ``sendTimeout``. The device's refusal (`{"status":"error"}`) fails the entry; a failure
///    that proves nothing reached it (refused connection, DNS, TLS, login) leaves it queued and
///    the instance's other entries wait too; anything else (no answer in time, the connection
///    lost, an answer cut or garbled) makes it **unknown**, and the instance's later entries
///    wait for the next flush. An entry past its expiry fails as expired without being sent.
public struct OutboxProcessor: Sendable {
  /// The outbox.
  public let outbox: OutboxRepository
  /// The device sessions.
  public let connector: SimAdminConnector
  /// Resolves instances by id.
  public let instances: InstanceRepository
  /// Seconds a send may wait for the device's answer (its modem) before its outcome becomes
  /// unknown. Longer than other requests': giving up earlier cancels the device's handler
  /// and makes the outcome unknown for nothing.
  public let sendTimeout: TimeInterval

  /// The default ``sendTimeout``.
  public static let defaultSendTimeout: TimeInterval = SendFailureMeaning.defaultWait
  /// A `sending` entry older than this many seconds past ``sendTimeout`` was left by a run
  /// that ended (killed, crashed): its outcome is unknown.
  static let interruptedAfter: TimeInterval = 60
  /// How many of the device's sent messages settling reads at most (pages of 50).
  static let settleReadLimit = 500

  /// A processor.
  public init(
    outbox: OutboxRepository, connector: SimAdminConnector,
    sendTimeout: TimeInterval = defaultSendTimeout
  ) {
    self.outbox = outbox
    self.connector = connector
    self.instances = InstanceRepository(store: outbox.store)
    self.sendTimeout = sendTimeout
  }

  /// What a run does: settle unknown outcomes only, or settle and then send.
  enum Mode: Sendable {
    case check
    case flush
  }

  /// Settles unknown entries, then tries every queued one (or only `ids`); returns the
  /// entries touched, as they are now.
  ///
  /// - Parameter width: how many instances may be worked on at once, given how many have
  ///   entries due (default: at most 8); each holds a device connection.
  public func flush(
    only ids: Set<Int64>? = nil, width: (Int) -> Int = { min($0, 8) }
  ) async throws -> [OutboxEntry] {
    try await run(.flush, only: ids, width: width)
  }

  /// Settles entries whose outcome is unknown (or only `ids`) by reading the device's sent
  /// messages; sends nothing.
  public func check(
    only ids: Set<Int64>? = nil, width: (Int) -> Int = { min($0, 8) }
  ) async throws -> [OutboxEntry] {
    try await run(.check, only: ids, width: width)
  }

  func run(_ mode: Mode, only ids: Set<Int64>?, width: (Int) -> Int) async throws
    -> [OutboxEntry]
  {
    let states: [OutboxState] =
      mode == .flush ? [.queued, .sending, .unknown] : [.sending, .unknown]
    let due = try outbox.list(states: states, limit: 10_000).reversed().filter {
      ids?.contains($0.id) ?? true
    }
    let byInstance = Dictionary(grouping: due, by: \.instanceID).sorted { $0.key < $1.key }
    let allowed = byInstance.isEmpty ? 0 : max(1, width(byInstance.count))
    await withTaskGroup(of: Void.self) { group in
      var pending = byInstance.makeIterator()
      func launch() -> Bool {
        guard let (instanceID, entries) = pending.next() else { return false }
        let instance = try? instances.get(id: instanceID)
        group.addTask { await process(entries, instance: instance, mode: mode) }
        return true
      }
      for _ in 0..<allowed where !launch() { break }
      while await group.next() != nil { _ = launch() }
    }
    return try due.compactMap { try outbox.entry(id: $0.id) }
  }

  // MARK: - One instance

  private func process(_ entries: [OutboxEntry], instance: Instance?, mode: Mode) async {
    let now = outbox.store.clock.now()
    guard let instance else {
      for entry in entries where entry.state == .queued {
        try? outbox.update(
          id: entry.id, state: .failed,
          reason: OutboxReason(key: "outbox.reason.instanceDeleted"), attempt: "refused")
      }
      return
    }
    let session = connector.session(
      for: instance.id, name: instance.name, origin: instance.origin.url)
    // A `sending` entry still inside its send's time belongs to a run going on now: left
    // alone. An older one was left by a run that ended: its outcome is unknown.
    let limit = sendTimeout + Self.interruptedAfter
    var unsettled: [OutboxEntry] = []
    for entry in entries {
      switch entry.state {
      case .unknown: unsettled.append(entry)
      case .sending where now.timeIntervalSince(entry.updatedAt) > limit:
        try? outbox.update(
          id: entry.id, state: .unknown, reason: OutboxReason(key: "outbox.reason.interrupted"),
          attempt: "unknown")
        unsettled.append(entry)
      default: break
      }
    }
    var waiting: OutboxReason?
    if !unsettled.isEmpty {
      waiting = await settle(unsettled, session: session, instanceName: instance.name)
    }
    guard mode == .flush else { return }
    var behind: Int64?
    for entry in entries where entry.state == .queued {
      if let expiresAt = entry.expiresAt, expiresAt <= now {
        try? outbox.update(
          id: entry.id, state: .failed, reason: OutboxReason(key: "outbox.reason.expired"),
          attempt: "expired")
        continue
      }
      if let waiting {
        try? outbox.update(id: entry.id, state: .queued, reason: waiting, attempt: nil)
        continue
      }
      if let behind {
        // The device just left a send unanswered: it is busy or away; the rest waits for
        // the next flush rather than piling more unknown outcomes on it.
        try? outbox.update(
          id: entry.id, state: .queued,
          reason: OutboxReason(
            key: "outbox.reason.behindUnknown", arguments: ["id": String(behind)]),
          attempt: nil)
        continue
      }
      switch await send(entry, session: session) {
      case .sent, .refused, .skipped: break
      case .notSent(let reason): waiting = reason
      case .unknown: behind = entry.id
      }
    }
  }

  enum SendOutcome {
    case sent
    case refused
    /// Another run took it (or the user cancelled it) first.
    case skipped
    case notSent(OutboxReason)
    case unknown
  }

  /// Sends one queued entry: reads the device's newest sent id, claims the entry, sends.
  private func send(_ entry: OutboxEntry, session: SimAdminSession) async -> SendOutcome {
    let baseline: Int64
    do {
      let newest = try await session.smsList(limit: 20, offset: 0, direction: .outgoing)
      baseline = newest.map(\.id).max() ?? 0
    } catch {
      // Nothing was sent: the entry waits, with the device's reason.
      let reason = OutboxReason(error.error)
      try? outbox.update(id: entry.id, state: .queued, reason: reason, attempt: "waiting")
      return .notSent(reason)
    }
    do {
      guard try outbox.claim(id: entry.id, after: baseline) else { return .skipped }
    } catch {
      let reason = OutboxReason(
        key: "outbox.reason.local", arguments: ["detail": String(describing: error)])
      try? outbox.update(id: entry.id, state: .queued, reason: reason, attempt: "waiting")
      return .notSent(reason)
    }
    do {
      let result = try await session.smsSend(
        phoneNumber: entry.peer, content: entry.body, timeout: sendTimeout)
      try? outbox.update(
        id: entry.id, state: .sent, reason: nil, attempt: "sent", upstreamPath: result.path)
      return .sent
    } catch {
      let reason = OutboxReason(error.error)
      switch SendFailureMeaning(error.error) {
      case .refused:
        try? outbox.update(id: entry.id, state: .failed, reason: reason, attempt: "refused")
        return .refused
      case .notSent:
        try? outbox.update(id: entry.id, state: .queued, reason: reason, attempt: "waiting")
        return .notSent(reason)
      case .unknown:
        try? outbox.update(id: entry.id, state: .unknown, reason: reason, attempt: "unknown")
        return .unknown
      }
    }
  }

  // MARK: - Settling

  /// Looks for `entries` (unknown outcomes, oldest first) among the device's sent messages;
  /// returns the reason the instance's queued entries must wait, when the device could not
  /// be read.
  private func settle(_ entries: [OutboxEntry], session: SimAdminSession, instanceName: String)
    async -> OutboxReason?
  {
    var baselines: [Int64: Int64] = [:]
    for entry in entries {
      baselines[entry.id] = try? outbox.sendBaseline(id: entry.id)
    }
    let rows: [SmsMessage]
    do {
      rows = try await sentRows(session: session, above: baselines.values.min() ?? 0)
    } catch {
      let reason = OutboxReason(error.error)
      for entry in entries {
        try? outbox.update(id: entry.id, state: .unknown, reason: reason, attempt: "checkFailed")
      }
      return reason
    }
    var claimed: Set<Int64> = []
    for entry in entries {
      let attemptAt =
        entry.attempts.last(where: { $0.result != "checkFailed" })?.at ?? entry.updatedAt
      let match = Self.match(
        entry, baseline: baselines[entry.id] ?? nil, attemptAt: attemptAt, rows: rows,
        excluding: claimed)
      if let match {
        claimed.insert(match.id)
        try? outbox.update(
          id: entry.id, state: .sent,
          reason: OutboxReason(
            key: "outbox.reason.foundOnDevice",
            arguments: ["deviceID": String(match.id), "time": match.timestamp]),
          attempt: "confirmed")
      } else {
        try? outbox.update(
          id: entry.id, state: .unknown,
          reason: OutboxReason(
            key: "outbox.reason.notFound",
            arguments: ["instance": instanceName, "id": String(entry.id)]),
          attempt: "notFound")
      }
    }
    return nil
  }

  /// The device's sent messages, newest first: pages of 50 until a page holds nothing above
  /// `above` (older rows), a short page, or ``settleReadLimit`` rows.
  private func sentRows(session: SimAdminSession, above: Int64) async throws(SimAdminFailure)
    -> [SmsMessage]
  {
    var rows: [SmsMessage] = []
    let pageSize = 50
    while rows.count < Self.settleReadLimit {
      let page = try await session.smsList(
        limit: pageSize, offset: rows.count, direction: .outgoing)
      rows += page
      if page.count < pageSize || !page.contains(where: { $0.id > above }) { break }
    }
    return rows
  }

  /// The device row that is `entry` sent: same number (as sent) and text, an outgoing row not
  /// stored as failed, stored after the attempt — an id above `baseline`, or without one, a
  /// device time no more than ten minutes before the attempt — and not claimed by an earlier
  /// entry; the oldest such row.
  static func match(
    _ entry: OutboxEntry, baseline: Int64?, attemptAt: Date, rows: [SmsMessage],
    excluding claimed: Set<Int64>
  ) -> SmsMessage? {
    rows.filter { row in
      guard row.direction == "outgoing", row.status != "failed", !claimed.contains(row.id),
        row.phoneNumber == entry.peer, row.content == entry.body
      else { return false }
      if let baseline { return row.id > baseline }
      guard let date = row.date else { return false }
      return date >= attemptAt.addingTimeInterval(-600)
    }.min { $0.id < $1.id }
  }
}
