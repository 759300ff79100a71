import Essentials
import Foundation

/// One probe in the connection log.
public struct ConnectionLogEntry: Sendable, Hashable, Codable {
  /// The row id, `nil` before it is stored.
  public var id: Int64?
  /// The instance probed (kept after the instance is deleted).
  public var instanceID: String
  /// Its name at the time.
  public var instanceName: String
  /// When the probe ran.
  public var at: Date
  /// The probe's result code (e.g. `ok`, `timeout`).
  public var result: String
  /// The status after the probe.
  public var status: String
  /// The status before, when known.
  public var previousStatus: String?
  /// Latency in milliseconds.
  public var latencyMS: Int?
  /// The reason code, when not online.
  public var reason: String?
  /// The device requests the probe made that ended before it did (method, route, status,
  /// bytes, milliseconds; never a cookie, a password or a body), in the order they ended.
  public var requests: [DeviceRequest]

  /// An entry; `id` is assigned on append.
  public init(
    id: Int64? = nil, instanceID: String, instanceName: String, at: Date, result: String,
    status: String, previousStatus: String? = nil, latencyMS: Int? = nil, reason: String? = nil,
    requests: [DeviceRequest] = []
  ) {
    self.requests = requests
    self.id = id
    self.instanceID = instanceID
    self.instanceName = instanceName
    self.at = at
    self.result = result
    self.status = status
    self.previousStatus = previousStatus
    self.latencyMS = latencyMS
    self.reason = reason
  }

  /// Whether the probe changed the status.
  public var changedStatus: Bool { previousStatus != nil && previousStatus != status }
}

/// Which log entries to list: all conditions optional, newest first.
public struct LogQuery: Sendable, Equatable {
  /// Only this instance.
  public var instanceID: String?
  /// At or after this instant.
  public var since: Date?
  /// Before this instant.
  public var until: Date?
  /// At most this many (newest first); `nil` for all.
  public var limit: Int?

  /// A query.
  public init(instanceID: String? = nil, since: Date? = nil, until: Date? = nil, limit: Int? = nil)
  {
    self.instanceID = instanceID
    self.since = since
    self.until = until
    self.limit = limit
  }

  func whereClause(timeColumn: String) -> (String, [any SQLiteBindable]) {
    var conditions: [String] = []
    var values: [any SQLiteBindable] = []
    if let instanceID {
      conditions.append("instance_id = ?")
      values.append(instanceID)
    }
    if let since {
      conditions.append("\(timeColumn) >= ?")
      values.append(since)
    }
    if let until {
      conditions.append("\(timeColumn) < ?")
      values.append(until)
    }
    return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), values)
  }
}

/// The connection log (`connection_log`): one row per probe with the device requests it
/// made, for the log center.
public struct ConnectionLogRepository: Sendable {
  /// The store it reads and writes.
  public let store: Store

  /// A repository over `store`.
  public init(store: Store) {
    self.store = store
  }

  /// Appends an entry; returns it with its id.
  @discardableResult
  public func append(_ entry: ConnectionLogEntry) throws -> ConnectionLogEntry {
    try append(contentsOf: [entry])[0]
  }

  /// Appends `entries` in order, in one transaction (a single savepoint inside the caller's
  /// transaction, not one per entry); returns them with their ids. All or none are stored.
  @discardableResult
  public func append(contentsOf entries: [ConnectionLogEntry]) throws -> [ConnectionLogEntry] {
    try store.requireWritable()
    guard !entries.isEmpty else { return [] }
    return try store.database.transaction { database in
      try entries.map { entry in
        try database.run(
          """
          INSERT INTO connection_log (instance_id, instance_name, at, result, status,
            previous_status, latency_ms, reason, requests) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            entry.instanceID, entry.instanceName, entry.at, entry.result, entry.status,
            entry.previousStatus, entry.latencyMS, entry.reason, Self.encode(entry.requests),
          ])
        var stored = entry
        stored.id = database.lastInsertRowID
        return stored
      }
    }
  }

  /// Entries matching `filter`, newest first.
  public func list(filter: LogQuery = LogQuery()) throws -> [ConnectionLogEntry] {
    let (whereClause, values) = filter.whereClause(timeColumn: "at")
    let limit = filter.limit.map { " LIMIT \(max(0, $0))" } ?? ""
    return try store.database.query(
      "SELECT * FROM connection_log\(whereClause) ORDER BY at DESC, id DESC\(limit)", values
    ).map(Self.entry)
  }

  /// The entry with row id `id`, if any.
  public func get(id: Int64) throws -> ConnectionLogEntry? {
    try store.database.queryOne("SELECT * FROM connection_log WHERE id = ?", [id]).map(Self.entry)
  }

  private static func entry(_ row: Row) throws -> ConnectionLogEntry {
    ConnectionLogEntry(
      id: try row.int64("id"), instanceID: try row.string("instance_id"),
      instanceName: try row.string("instance_name"), at: try row.date("at"),
      result: try row.string("result"), status: try row.string("status"),
      previousStatus: try row.optionalString("previous_status"),
      latencyMS: try row.optionalInt("latency_ms"), reason: try row.optionalString("reason"),
      requests: Self.decode(try row.optionalString("requests")))
  }

  /// The stored text of `requests`, written directly: the bytes `JSONEncoder` writes with
  /// `.sortedKeys` (one per device request of a refresh; `ConnectionLogTextTests`).
  static func encode(_ requests: [DeviceRequest]) -> String {
    var json = JSONWriter(format: .stored, capacity: 512)
    json.array(requests) { json, request in
      json.object { json in
        json.member("bytes", request.bytes)
        json.member("failure", request.failure)
        json.member("method", request.method)
        json.member("milliseconds", request.milliseconds)
        json.member("route", request.route)
        json.member("status", request.status)
      }
    }
    return String(decoding: json.bytes, as: UTF8.self)
  }

  /// The stored requests; a value that does not decode (written by hand) reads as none.
  static func decode(_ text: String?) -> [DeviceRequest] {
    guard let text else { return [] }
    return (try? JSONDecoder().decode([DeviceRequest].self, from: Data(text.utf8))) ?? []
  }

  /// Deletes entries older than `date`; returns how many.
  @discardableResult
  public func trim(olderThan date: Date) throws -> Int {
    try store.requireWritable()
    return try store.database.run("DELETE FROM connection_log WHERE at < ?", [date])
  }

  /// Deletes every entry; returns how many.
  @discardableResult
  public func clear() throws -> Int {
    try store.requireWritable()
    return try store.database.run("DELETE FROM connection_log")
  }
}
