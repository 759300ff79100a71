import Essentials
import Foundation
import LocalStore
import SimAdminClient

/// Why an outbox entry waits or failed: a catalogue key plus the text it needs.
///
/// Keys starting with `client.` are SimAdminClient's reasons (timeout, unreachable, …);
/// others are this package's. `detail` holds a device's own message, never translated.
public struct OutboxReason: Sendable, Hashable, Codable {
  /// The catalogue key.
  public var key: String
  /// The placeholder values.
  public var arguments: [String: String]

  /// A reason.
  public init(key: String, arguments: [String: String] = [:]) {
    self.key = key
    self.arguments = arguments
  }

  /// The reason for a device failure.
  public init(_ error: SimAdminError) {
    key = "client." + error.reasonKey
    arguments = error.arguments
  }

  /// The text in `language`.
  public func text(_ language: AppLanguage) -> String {
    if key.hasPrefix("client.") {
      return SimAdminClientStrings.text(String(key.dropFirst(7)), language, arguments)
    }
    return MessagesStrings.text(key, language, arguments)
  }

  var stored: String {
    let data = (try? JSONEncoder().encode(arguments)) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  enum CodingKeys: String, CodingKey {
    case key, arguments, code, message
  }

  /// Decodes `key` and `arguments`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    key = try container.decode(String.self, forKey: .key)
    arguments = try container.decodeIfPresent([String: String].self, forKey: .arguments) ?? [:]
  }

  /// Encodes `key` and `arguments`, and the short `code` (`timeout`) with the `message` in
  /// the output's language.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(key, forKey: .key)
    try container.encode(arguments, forKey: .arguments)
    try container.encode(MessagesLog.reasonCode(key), forKey: .code)
    try container.encode(text(AppLanguage.of(encoder)), forKey: .message)
  }

  init?(key: String?, stored: String?) {
    guard let key else { return nil }
    self.key = key
    arguments =
      stored.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) }
      ?? [:]
  }
}

/// The life of an outbox entry: `queued` → `sending` → `sent` | `failed` | `unknown`;
/// `cancelled` by the user. A queued entry is tried again on the next flush; a failed one only
/// after `retry`; an unknown one is never sent again blindly (PRODUCT §3, Messages): it is
/// settled by reading the device's sent messages, and only the user's explicit "send again"
/// sends it once more.
public enum OutboxState: String, Sendable, Codable, CaseIterable {
  /// Waiting for the next flush (new, or the device could not be reached: nothing was sent).
  case queued
  /// Being handed to the device right now (or the run doing it was interrupted: its outcome
  /// is unknown, and the next flush treats it so).
  case sending
  /// The device accepted it, or it was found among the device's sent messages.
  case sent
  /// The outcome is not known: the request may have reached the device (no answer in time,
  /// the connection lost mid-way, the run interrupted). The device's send waits for the modem
  /// with no time limit, so such a message may still go out. Never reported as sent or failed
  /// until settled.
  case unknown
  /// The device refused it, or it expired; `retry` queues it again.
  case failed
  /// The user cancelled it.
  case cancelled
}

/// One try at sending an outbox entry.
public struct OutboxAttempt: Sendable, Hashable, Codable {
  /// When.
  public var at: Date
  /// `sent`, `waiting` (device unreachable or failing, stays queued), `refused`, `expired`,
  /// `unknown` (the device may have it), `confirmed` (found among the device's sent
  /// messages), `notFound` (not among them when checked), `checkFailed` (the check could not
  /// read them) or `sendAgain` (the user chose to send an unknown one again).
  public var result: String
  /// Why it did not succeed.
  public var reason: OutboxReason?

  /// An attempt value.
  public init(at: Date, result: String, reason: OutboxReason?) {
    self.at = at
    self.result = result
    self.reason = reason
  }
}

/// One message waiting in, or gone through, the outbox.
public struct OutboxEntry: Sendable, Hashable, Codable, Identifiable {
  /// The entry's id (`outbox retry ID`).
  public var id: Int64
  /// The instance to send from.
  public var instanceID: String
  /// Its name when queued (or now).
  public var instanceName: String
  /// The number to send to, as given.
  public var peer: String
  /// The text.
  public var body: String
  /// Where it stands.
  public var state: OutboxState
  /// Why it waits or failed.
  public var reason: OutboxReason?
  /// When it was queued.
  public var createdAt: Date
  /// When it was last changed.
  public var updatedAt: Date
  /// After this instant it is not sent any more.
  public var expiresAt: Date?
  /// When the device accepted it.
  public var sentAt: Date?
  /// Every try, oldest first.
  public var attempts: [OutboxAttempt]

  /// An entry value (the repository makes them; fixtures may too).
  public init(
    id: Int64, instanceID: String, instanceName: String, peer: String, body: String,
    state: OutboxState, reason: OutboxReason?, createdAt: Date, updatedAt: Date,
    expiresAt: Date?, sentAt: Date?, attempts: [OutboxAttempt]
  ) {
    self.id = id
    self.instanceID = instanceID
    self.instanceName = instanceName
    self.peer = peer
    self.body = body
    self.state = state
    self.reason = reason
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.expiresAt = expiresAt
    self.sentAt = sentAt
    self.attempts = attempts
  }
}

/// The outbox in the local store.
public struct OutboxRepository: Sendable {
  /// The store holding the `messages` schema.
  public let store: Store

  /// The outbox in `store`.
  public init(store: Store) {
    self.store = store
  }

  /// Queues a message; returns the entry.
  public func enqueue(instance: Instance, to peer: String, body: String, expiresAt: Date?)
    throws -> OutboxEntry
  {
    try store.requireWritable()
    let now = store.clock.now()
    let id = try store.database.transaction { database -> Int64 in
      try database.run(
        """
        INSERT INTO outbox (instance_id, instance_name, peer, body, state, created_at,
          updated_at, expires_at) VALUES (?, ?, ?, ?, 'queued', ?, ?, ?)
        """, [instance.id, instance.name, peer, body, now, now, expiresAt])
      return database.lastInsertRowID
    }
    guard let entry = try entry(id: id) else { throw OutboxError.notFound(id: String(id)) }
    return entry
  }

  /// One entry with its attempts.
  public func entry(id: Int64) throws -> OutboxEntry? {
    try entries(where: "o.id = ?", [id]).first
  }

  /// Every entry, newest first (optionally only some states).
  public func list(states: [OutboxState]? = nil, limit: Int = 500) throws -> [OutboxEntry] {
    guard let states else { return try entries(where: "1", [], limit: limit) }
    let marks = Array(repeating: "?", count: states.count).joined(separator: ",")
    return try entries(where: "o.state IN (\(marks))", states.map(\.rawValue), limit: limit)
  }

  private func entries(where condition: String, _ values: [any SQLiteBindable], limit: Int = 500)
    throws -> [OutboxEntry]
  {
    let rows = try store.database.query(
      """
      SELECT o.*, COALESCE(i.name, o.instance_name) AS current_name FROM outbox o
      LEFT JOIN instances i ON i.id = o.instance_id WHERE \(condition)
      ORDER BY o.id DESC LIMIT ?
      """, values + [limit])
    return try rows.map { row in
      let id = try row.int64("id")
      let attempts = try store.database.query(
        "SELECT at, result, reason_key, reason_detail FROM outbox_attempts WHERE entry_id = ? ORDER BY id",
        [id]
      ).map { attempt in
        OutboxAttempt(
          at: try attempt.date("at"), result: try attempt.string("result"),
          reason: OutboxReason(
            key: try attempt.optionalString("reason_key"),
            stored: try attempt.optionalString("reason_detail")))
      }
      return OutboxEntry(
        id: id, instanceID: try row.string("instance_id"),
        instanceName: try row.string("current_name"), peer: try row.string("peer"),
        body: try row.string("body"),
        state: OutboxState(rawValue: try row.string("state")) ?? .queued,
        reason: OutboxReason(
          key: try row.optionalString("reason_key"),
          stored: try row.optionalString("reason_detail")),
        createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"),
        expiresAt: try row.optionalDate("expires_at"), sentAt: try row.optionalDate("sent_at"),
        attempts: attempts)
    }
  }

  /// Moves an entry to `state`, recording an attempt when `attempt` is given.
  func update(
    id: Int64, state: OutboxState, reason: OutboxReason?, attempt: String?,
    upstreamPath: String? = nil
  ) throws {
    try store.requireWritable()
    let now = store.clock.now()
    try store.database.transaction { database in
      try database.run(
        """
        UPDATE outbox SET state = ?, reason_key = ?, reason_detail = ?, updated_at = ?,
          sent_at = CASE WHEN ? = 'sent' THEN ? ELSE sent_at END,
          upstream_path = COALESCE(?, upstream_path) WHERE id = ?
        """,
        [
          state.rawValue, reason?.key, reason?.stored, now, state.rawValue, now, upstreamPath,
          id,
        ])
      if let attempt {
        try database.run(
          """
          INSERT INTO outbox_attempts (entry_id, at, result, reason_key, reason_detail)
          VALUES (?, ?, ?, ?, ?)
          """, [id, now, attempt, reason?.key, reason?.stored])
      }
    }
  }

  /// Takes a queued entry for sending: `sending`, with `after` (the newest id among the
  /// device's sent messages just before the attempt, which settling an unknown outcome needs)
  /// kept in `upstream_path` as `after:<id>` until the device's own path replaces it. False
  /// when the entry is no longer queued (another run took it, or the user cancelled it):
  /// two flushes at once never send one entry twice.
  func claim(id: Int64, after baseline: Int64) throws -> Bool {
    try store.requireWritable()
    return try store.database.run(
      """
      UPDATE outbox SET state = 'sending', reason_key = NULL, reason_detail = NULL,
        updated_at = ?, upstream_path = ? WHERE id = ? AND state = 'queued'
      """, [store.clock.now(), "after:\(baseline)", id]) == 1
  }

  /// The newest id among the device's sent messages just before the entry's last attempt
  /// (``claim(id:after:)``), nil when not known (an entry from before msa kept it).
  func sendBaseline(id: Int64) throws -> Int64? {
    guard
      let text = try store.database.queryOne(
        "SELECT upstream_path FROM outbox WHERE id = ?", [id]
      )?.optionalString("upstream_path"), text.hasPrefix("after:")
    else { return nil }
    return Int64(text.dropFirst("after:".count))
  }

  /// Queues a failed (or cancelled, or waiting) entry again; a sent one is refused, and so
  /// is one whose outcome is unknown unless `sendAgain` (the user's explicit choice, told it
  /// may arrive twice), which records that choice as an attempt.
  public func retry(id: Int64, sendAgain: Bool = false) throws -> OutboxEntry {
    guard let entry = try entry(id: id) else { throw OutboxError.notFound(id: String(id)) }
    guard entry.state != .sent else { throw OutboxError.alreadySent(id: id) }
    if entry.state == .unknown || entry.state == .sending {
      guard sendAgain else { throw OutboxError.outcomeUnknown(id: id) }
      try update(
        id: id, state: entry.state, reason: OutboxReason(key: "outbox.reason.sendAgain"),
        attempt: "sendAgain")
    }
    try store.requireWritable()
    try store.database.run(
      "UPDATE outbox SET state = 'queued', reason_key = NULL, reason_detail = NULL, "
        + "updated_at = ?, expires_at = CASE WHEN expires_at < ? THEN NULL ELSE expires_at END "
        + "WHERE id = ?", [store.clock.now(), store.clock.now(), id])
    return try self.entry(id: id) ?? entry
  }

  /// Cancels an entry that has not been sent.
  public func cancel(id: Int64) throws -> OutboxEntry {
    guard let entry = try entry(id: id) else { throw OutboxError.notFound(id: String(id)) }
    guard entry.state != .sent else { throw OutboxError.alreadySent(id: id) }
    try update(
      id: id, state: .cancelled, reason: OutboxReason(key: "outbox.reason.cancelled"),
      attempt: nil)
    return try self.entry(id: id) ?? entry
  }
}

/// What the user asked of the outbox that cannot be done.
public enum OutboxError: LocalizedFailure, Equatable {
  /// No entry with this id.
  case notFound(id: String)
  /// The entry was already sent.
  case alreadySent(id: Int64)
  /// The entry's outcome is unknown: it is checked, never sent again without the user's
  /// explicit "send again".
  case outcomeUnknown(id: Int64)

  public func localizedMessage(_ language: AppLanguage) -> String {
    switch self {
    case .notFound(let id):
      MessagesStrings.text("error.outboxNotFound", language, ["id": id])
    case .alreadySent(let id):
      MessagesStrings.text("error.outboxAlreadySent", language, ["id": String(id)])
    case .outcomeUnknown(let id):
      MessagesStrings.text("error.outboxOutcomeUnknown", language, ["id": String(id)])
    }
  }
}
