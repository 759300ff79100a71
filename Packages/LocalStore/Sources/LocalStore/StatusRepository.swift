import Essentials
import Foundation

/// The last probe result of one instance, as the Fleet feature stores it.
///
/// `status` and `reason` are the Fleet feature's codes (e.g. `online`, `offline` / `timeout`);
/// `snapshot` is its JSON; this package does not interpret them.
public struct InstanceStatusRecord: Sendable, Hashable, Codable {
  /// The instance.
  public var instanceID: String
  /// The summary status code.
  public var status: String
  /// A machine reason code, when not online.
  public var reason: String?
  /// Extra detail (may be the device's own text).
  public var detail: String?
  /// When the probe ran.
  public var checkedAt: Date?
  /// The probe's latency in milliseconds.
  public var latencyMS: Int?
  /// The SimAdmin version reported.
  public var version: String?
  /// The last snapshot as JSON text.
  public var snapshot: String?
  /// When ``snapshot`` was fetched.
  public var snapshotFetchedAt: Date?

  /// A record; only `instanceID` and `status` are required.
  public init(
    instanceID: String, status: String, reason: String? = nil, detail: String? = nil,
    checkedAt: Date? = nil, latencyMS: Int? = nil, version: String? = nil,
    snapshot: String? = nil, snapshotFetchedAt: Date? = nil
  ) {
    self.instanceID = instanceID
    self.status = status
    self.reason = reason
    self.detail = detail
    self.checkedAt = checkedAt
    self.latencyMS = latencyMS
    self.version = version
    self.snapshot = snapshot
    self.snapshotFetchedAt = snapshotFetchedAt
  }
}

/// Each instance's latest status (`instance_status`, deleted with its instance).
public struct StatusRepository: Sendable {
  /// The store it reads and writes.
  public let store: Store

  /// A repository over `store`.
  public init(store: Store) {
    self.store = store
  }

  /// Saves the status of `record.instanceID`, replacing the previous one.
  ///
  /// A record without a snapshot **keeps the stored snapshot and its fetch time**, so an
  /// offline probe never erases the last known values (the Fleet feature shows them as
  /// stale). Fails with a foreign-key ``SQLiteError`` for an unknown instance.
  public func save(_ record: InstanceStatusRecord) throws {
    try store.requireWritable()
    try store.database.run(
      """
      INSERT INTO instance_status (instance_id, status, reason, detail, checked_at, latency_ms,
        version, snapshot, snapshot_fetched_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(instance_id) DO UPDATE SET status = excluded.status,
        reason = excluded.reason, detail = excluded.detail, checked_at = excluded.checked_at,
        latency_ms = excluded.latency_ms, version = coalesce(excluded.version, version),
        snapshot = coalesce(excluded.snapshot, snapshot),
        snapshot_fetched_at = CASE WHEN excluded.snapshot IS NULL THEN snapshot_fetched_at
          ELSE excluded.snapshot_fetched_at END
      """,
      [
        record.instanceID, record.status, record.reason, record.detail, record.checkedAt,
        record.latencyMS, record.version, record.snapshot, record.snapshotFetchedAt,
      ])
  }

  /// The stored status of an instance, or `nil` (never tested).
  public func get(instanceID: String) throws -> InstanceStatusRecord? {
    try store.database.queryOne(
      "SELECT * FROM instance_status WHERE instance_id = ?", [instanceID]
    ).map(Self.record)
  }

  /// The stored status code of each of `instanceIDs` that has one, by instance id, in one
  /// statement: only the two short columns, never the snapshot text (a refresh's record reads
  /// the previous status of every device it probed).
  public func statusCodes(of instanceIDs: [String]) throws -> [String: String] {
    guard !instanceIDs.isEmpty else { return [:] }
    var json = JSONWriter(format: .stored, capacity: 512)
    json.array(instanceIDs) { json, id in json.string(id) }
    var codes: [String: String] = [:]
    for row in try store.database.query(
      """
      SELECT instance_id, status FROM instance_status
      WHERE instance_id IN (SELECT value FROM json_each(?))
      """, [String(decoding: json.bytes, as: UTF8.self)])
    {
      codes[try row.string("instance_id")] = try row.string("status")
    }
    return codes
  }

  /// The detail of every stored status whose reason is `reason`, by instance id (a refresh
  /// reads which devices had no modem at their last answer, never the snapshots).
  public func details(withReason reason: String) throws -> [String: String?] {
    var details: [String: String?] = [:]
    for row in try store.database.query(
      "SELECT instance_id, detail FROM instance_status WHERE reason = ?", [reason])
    {
      details[try row.string("instance_id")] = try row.optionalString("detail")
    }
    return details
  }

  /// Every stored status, by instance id.
  public func all() throws -> [InstanceStatusRecord] {
    try store.database.query("SELECT * FROM instance_status ORDER BY instance_id").map(Self.record)
  }

  static func record(_ row: Row) throws -> InstanceStatusRecord {
    InstanceStatusRecord(
      instanceID: try row.string("instance_id"), status: try row.string("status"),
      reason: try row.optionalString("reason"), detail: try row.optionalString("detail"),
      checkedAt: try row.optionalDate("checked_at"), latencyMS: try row.optionalInt("latency_ms"),
      version: try row.optionalString("version"), snapshot: try row.optionalString("snapshot"),
      snapshotFetchedAt: try row.optionalDate("snapshot_fetched_at"))
  }
}
