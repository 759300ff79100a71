import Essentials
import Foundation

/// One stored runtime-log record with its row id and instance.
public struct RuntimeLogEntry: Sendable, Equatable {
  /// The row id.
  public var id: Int64
  /// The record (already redacted when it was logged).
  public var record: LogRecord
  /// The instance it concerns, from the record's `instance_id` (or `instance`) metadata.
  public var instanceID: String?
}

/// The runtime log (`runtime_log`): app events written by ``StoreLogHandler``.
public struct RuntimeLogRepository: Sendable {
  /// The store it reads and writes.
  public let store: Store

  /// A repository over `store`.
  public init(store: Store) {
    self.store = store
  }

  /// Stores a record; the `instance_id` (or `instance`) metadata value fills the instance
  /// column. Records are stored as given: redaction happens in the `Logger`.
  public func append(_ record: LogRecord) throws {
    try store.requireWritable()
    let metadata = (try? JSONEncoder.sorted.encode(record.metadata)) ?? Data("{}".utf8)
    try store.database.run(
      """
      INSERT INTO runtime_log (at, level, label, message, metadata, instance_id)
      VALUES (?, ?, ?, ?, ?, ?)
      """,
      [
        record.date, record.level.rawValue, record.label, record.message,
        String(decoding: metadata, as: UTF8.self),
        record.metadata["instance_id"] ?? record.metadata["instance"],
      ])
  }

  /// Records matching `filter` at or above `minimumLevel`, newest first.
  public func list(filter: LogQuery = LogQuery(), minimumLevel: LogLevel = .trace) throws
    -> [RuntimeLogEntry]
  {
    var (whereClause, values) = filter.whereClause(timeColumn: "at")
    let levels = LogLevel.allCases.filter { $0 >= minimumLevel }
    whereClause +=
      (whereClause.isEmpty ? " WHERE " : " AND ")
      + "level IN (\(levels.map { _ in "?" }.joined(separator: ", ")))"
    values += levels.map(\.rawValue) as [any SQLiteBindable]
    let limit = filter.limit.map { " LIMIT \(max(0, $0))" } ?? ""
    let rows = try store.database.query(
      "SELECT * FROM runtime_log\(whereClause) ORDER BY at DESC, id DESC\(limit)", values)
    var entries: [RuntimeLogEntry] = []
    for row in rows {
      let metadataText = try row.string("metadata")
      let metadata =
        (try? JSONDecoder().decode(LogMetadata.self, from: Data(metadataText.utf8))) ?? [:]
      entries.append(
        RuntimeLogEntry(
          id: try row.int64("id"),
          record: LogRecord(
            date: try row.date("at"), level: LogLevel(rawValue: try row.string("level")) ?? .info,
            label: try row.string("label"), message: try row.string("message"),
            metadata: metadata),
          instanceID: try row.optionalString("instance_id")))
    }
    return entries
  }

  /// Deletes records older than `date`; returns how many.
  @discardableResult
  public func trim(olderThan date: Date) throws -> Int {
    try store.requireWritable()
    return try store.database.run("DELETE FROM runtime_log WHERE at < ?", [date])
  }

  /// Deletes every record; returns how many.
  @discardableResult
  public func clear() throws -> Int {
    try store.requireWritable()
    return try store.database.run("DELETE FROM runtime_log")
  }
}

extension JSONEncoder {
  static var sorted: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }
}

/// A ``LogHandler`` that writes every record into the runtime log.
///
/// Records arrive already redacted (the `Logger` redacts before any handler). A record that
/// cannot be stored (read-only store, disk full) is dropped and counted in ``droppedCount``:
/// logging must never make the program fail.
public final class StoreLogHandler: LogHandler {
  private let repository: RuntimeLogRepository
  private let dropped = Locked(0)

  /// A handler writing into `store`.
  public init(store: Store) {
    repository = RuntimeLogRepository(store: store)
  }

  /// Stores the record.
  public func handle(_ record: LogRecord) {
    do {
      try repository.append(record)
    } catch {
      dropped.withLock { $0 += 1 }
    }
  }

  /// How many records could not be stored.
  public var droppedCount: Int { dropped.current }
}
