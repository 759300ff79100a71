import Essentials
import Foundation
import LocalStore

/// How many records a trim or clear removed, per log.
public struct LogRemoval: Sendable, Equatable, Codable {
  /// Removed from the runtime log.
  public var runtime: Int
  /// Removed from the connection log.
  public var connection: Int

  /// A removal count.
  public init(runtime: Int = 0, connection: Int = 0) {
    self.runtime = runtime
    self.connection = connection
  }

  /// Both logs together.
  public var total: Int { runtime + connection }
}

/// The log center over the store: lists, shows, trims and clears both logs.
///
/// Reading builds on LocalStore's ``RuntimeLogRepository`` and ``ConnectionLogRepository``;
/// the few operations they lack (one record by id, keep the newest N, counts) are written
/// here in SQL against the same `core` tables.
public struct LogBook: Sendable {
  /// The store it reads and writes.
  public let store: Store

  /// A log book over `store`.
  public init(store: Store) {
    self.store = store
  }

  // MARK: - Reading

  /// Records matching `filter`, newest first.
  public func entries(_ filter: LogFilter = LogFilter()) throws -> [LogItem] {
    let query = LogQuery(instanceID: filter.instanceID, since: filter.since, until: filter.until)
    let names = try instanceNames()
    var items: [LogItem] = []
    for kind in filter.effectiveKinds {
      switch kind {
      case .runtime:
        let entries = try RuntimeLogRepository(store: store).list(
          filter: query, minimumLevel: filter.minimumLevel ?? .trace)
        items += entries.map { Self.item($0, names: names) }
      case .connection:
        items += try ConnectionLogRepository(store: store).list(filter: query).map(Self.item)
      }
    }
    items = items.filter(filter.matches)
    items.sort { ($0.date, $0.id.rowID) > ($1.date, $1.id.rowID) }
    if let limit = filter.limit { items = Array(items.prefix(max(0, limit))) }
    return items
  }

  /// The record `id`, or nil when there is none.
  public func entry(_ id: LogRecordID) throws -> LogItem? {
    switch id.kind {
    case .runtime:
      guard
        let row = try store.database.queryOne(
          "SELECT * FROM runtime_log WHERE id = ?", [id.rowID])
      else { return nil }
      let metadataText = try row.string("metadata")
      let metadata =
        (try? JSONDecoder().decode([String: String].self, from: Data(metadataText.utf8))) ?? [:]
      let instanceID = try row.optionalString("instance_id")
      let currentName = try instanceID.flatMap { try instanceNames()[$0] }
      return LogItem(
        id: id, date: try row.date("at"),
        level: LogLevel(rawValue: try row.string("level")) ?? .info,
        source: try row.string("label"), instanceID: instanceID,
        instanceName: metadata["instance_name"] ?? currentName,
        message: try row.string("message"), metadata: metadata)
    case .connection:
      return try ConnectionLogRepository(store: store).get(id: id.rowID).map(Self.item)
    }
  }

  /// How many records each of `kinds` holds.
  public func counts(_ kinds: [LogKind] = LogKind.allCases) throws -> LogRemoval {
    var counts = LogRemoval()
    for kind in kinds {
      let count =
        try store.database.queryOne("SELECT count(*) AS n FROM \(Self.table(kind))")?
        .int("n") ?? 0
      switch kind {
      case .runtime: counts.runtime = count
      case .connection: counts.connection = count
      }
    }
    return counts
  }

  // MARK: - Trimming and clearing (only ever on request)

  /// Deletes records older than `date` from `kinds`, in one transaction.
  @discardableResult
  public func trim(olderThan date: Date, kinds: [LogKind] = LogKind.allCases) throws
    -> LogRemoval
  {
    try store.requireWritable()
    return try store.database.transaction { _ in
      var removal = LogRemoval()
      for kind in kinds {
        switch kind {
        case .runtime:
          removal.runtime = try RuntimeLogRepository(store: store).trim(olderThan: date)
        case .connection:
          removal.connection = try ConnectionLogRepository(store: store).trim(olderThan: date)
        }
      }
      return removal
    }
  }

  /// Keeps only the newest `count` records of each of `kinds`, in one transaction.
  @discardableResult
  public func trim(keepingNewest count: Int, kinds: [LogKind] = LogKind.allCases) throws
    -> LogRemoval
  {
    try store.requireWritable()
    return try store.database.transaction { database in
      var removal = LogRemoval()
      for kind in kinds {
        let table = Self.table(kind)
        let removed = try database.run(
          """
          DELETE FROM \(table) WHERE id NOT IN
            (SELECT id FROM \(table) ORDER BY at DESC, id DESC LIMIT ?)
          """, [max(0, count)])
        switch kind {
        case .runtime: removal.runtime = removed
        case .connection: removal.connection = removed
        }
      }
      return removal
    }
  }

  /// Deletes every record of `kinds`, in one transaction.
  @discardableResult
  public func clear(kinds: [LogKind] = LogKind.allCases) throws -> LogRemoval {
    try store.requireWritable()
    return try store.database.transaction { _ in
      var removal = LogRemoval()
      for kind in kinds {
        switch kind {
        case .runtime: removal.runtime = try RuntimeLogRepository(store: store).clear()
        case .connection: removal.connection = try ConnectionLogRepository(store: store).clear()
        }
      }
      return removal
    }
  }

  // MARK: - Helpers

  static func table(_ kind: LogKind) -> String {
    switch kind {
    case .runtime: "runtime_log"
    case .connection: "connection_log"
    }
  }

  private func instanceNames() throws -> [String: String] {
    var names: [String: String] = [:]
    for row in try store.database.query("SELECT id, name FROM instances") {
      names[try row.string("id")] = try row.string("name")
    }
    return names
  }

  static func item(_ entry: RuntimeLogEntry, names: [String: String]) -> LogItem {
    LogItem(
      id: LogRecordID(kind: .runtime, rowID: entry.id), date: entry.record.date,
      level: entry.record.level, source: entry.record.label, instanceID: entry.instanceID,
      instanceName: entry.record.metadata["instance_name"]
        ?? entry.instanceID.flatMap { names[$0] },
      message: entry.record.message,
      metadata: entry.record.metadata)
  }

  static func item(_ entry: ConnectionLogEntry) -> LogItem {
    var message = entry.result
    if let previous = entry.previousStatus, previous != entry.status {
      message += ": \(previous) → \(entry.status)"
    } else {
      message += ": \(entry.status)"
    }
    if let reason = entry.reason { message += " (\(reason))" }
    return LogItem(
      id: LogRecordID(kind: .connection, rowID: entry.id ?? 0), date: entry.at,
      level: entry.status == "online" ? .info : .warning, source: "probe",
      instanceID: entry.instanceID, instanceName: entry.instanceName, message: message,
      probe: LogItem.Probe(
        result: entry.result, status: entry.status, previousStatus: entry.previousStatus,
        latencyMS: entry.latencyMS, reason: entry.reason, requests: entry.requests))
  }
}
