import Foundation
import LocalStore
import SimAdminClient

/// How a page of device messages went into the archive.
public struct IngestResult: Sendable, Equatable {
  /// Messages that were new.
  public var inserted: Int
  /// Messages already archived (same identity).
  public var known: Int
  /// How many messages at the end of the page (its oldest) were already archived, in a row.
  public var knownTail: Int = 0
}

/// One page of one instance's messages, as read from the device, newest first.
public struct IngestPage: Sendable {
  /// The messages.
  public let messages: [SmsMessage]
  /// The source instance id.
  public let instanceID: String
  /// Its name now.
  public let instanceName: String
  /// When the page was read.
  public let syncedAt: Date
  /// The messages' identity keys when computed with the page (by the task that read it, not
  /// by the one writing to the archive); otherwise the writer hashes only the new messages.
  let keys: [String]?

  /// A page; `hashingNow` computes the identity keys at once (worth it when most messages
  /// will be new, as in a first sync).
  public init(
    messages: [SmsMessage], instanceID: String, instanceName: String, syncedAt: Date,
    hashingNow: Bool = false
  ) {
    self.messages = messages
    self.instanceID = instanceID
    self.instanceName = instanceName
    self.syncedAt = syncedAt
    self.keys =
      hashingNow
      ? messages.map { MessageIdentity.key(instanceID: instanceID, message: $0) } : nil
  }
}

/// Archive statistics for `messages stats`.
public struct ArchiveStats: Sendable, Equatable, Codable {
  /// Per source instance.
  public struct PerInstance: Sendable, Equatable, Codable {
    /// The instance id.
    public var instanceID: String
    /// Its current (or last) name.
    public var instanceName: String
    /// Messages from it.
    public var count: Int
    /// Whether its whole history has been synced at least once.
    public var historyComplete: Bool
    /// When its last sync finished.
    public var lastSyncedAt: Date?
  }

  /// All archived messages.
  public var total: Int
  /// Incoming messages.
  public var incoming: Int
  /// Outgoing messages.
  public var outgoing: Int
  /// Distinct normalized peers.
  public var conversations: Int
  /// The oldest device instant.
  public var oldest: Date?
  /// The newest device instant.
  public var newest: Date?
  /// Per instance, by name.
  public var instances: [PerInstance]
  /// Outbox entries by state.
  public var outbox: [String: Int]
}

/// The message archive in the local store: ingesting synced pages, queries, conversations,
/// deletions and the per-instance sync state.
public struct MessageArchive: Sendable {
  /// The store holding the `messages` schema.
  public let store: Store

  /// The archive in `store` (opened with ``Messages/schema``).
  public init(store: Store) {
    self.store = store
  }

  var database: SQLiteDatabase { store.database }

  static let columns =
    "instance_id, instance_name, direction, peer_raw, peer_key, body, device_at, "
    + "device_timestamp, status, upstream_id, marker, dedupe_key, synced_at"

  // MARK: - Ingest

  /// Archives the new messages of one page in one transaction; messages whose identity is
  /// already archived are counted as known (their upstream id attribute is refreshed, their
  /// content never overwritten).
  @discardableResult
  public func ingest(
    _ messages: [SmsMessage], instanceID: String, instanceName: String, syncedAt: Date
  ) throws -> IngestResult {
    let page = IngestPage(
      messages: messages, instanceID: instanceID, instanceName: instanceName, syncedAt: syncedAt)
    return try ingest([page])[0]
  }

  /// Archives several pages (of any instances) in one transaction, one result per page.
  public func ingest(_ pages: [IngestPage]) throws -> [IngestResult] {
    try store.requireWritable()
    guard pages.contains(where: { !$0.messages.isEmpty }) else {
      return pages.map { _ in IngestResult(inserted: 0, known: 0) }
    }
    return try database.transaction { database in
      try database.execute(Self.stagingTable)
      var staged = Set<String>()
      let results = try pages.map { try Self.stage($0, into: database, staged: &staged) }
      if !staged.isEmpty {
        try database.run(
          "INSERT OR IGNORE INTO messages (\(Self.columns)) SELECT \(Self.columns) "
            + "FROM temp.ingest_staging ORDER BY rowid")
        try database.run("DELETE FROM temp.ingest_staging")
      }
      return results
    }
  }

  /// Checks one page against the archive inside the caller's transaction and stages its new
  /// messages. The archived identities it is checked against are read in one range of the
  /// identity index (the instance's messages between the page's oldest and newest device
  /// timestamps) and compared part by part, so only new messages are hashed; identities
  /// `staged` earlier in the same transaction (consecutive pages overlap) are checked by key. The staged rows move into `messages` with one statement per transaction:
  /// the search index (FTS5, kept by a trigger) writes its pending terms to disk at the end of
  /// every statement, so a statement per row or per page would write that many segments.
  private static func stage(
    _ page: IngestPage, into database: SQLiteDatabase, staged: inout Set<String>
  ) throws -> IngestResult {
    var result = IngestResult(inserted: 0, known: 0)
    let messages = page.messages
    guard let oldest = messages.map(\.timestamp).min(),
      let newest = messages.map(\.timestamp).max()
    else { return result }
    var archived: [MessageIdentity.Parts: (id: Int64, upstream: Int64?)] = [:]
    for row in try database.query(
      """
      SELECT id, upstream_id, direction, peer_raw, device_timestamp, body, marker
      FROM messages WHERE instance_id = ? AND device_timestamp BETWEEN ? AND ?
      """, [page.instanceID, oldest, newest])
    {
      let parts = MessageIdentity.Parts(
        direction: try row.string("direction"), peer: try row.string("peer_raw"),
        timestamp: try row.string("device_timestamp"), body: try row.string("body"),
        marker: try row.optionalString("marker") ?? "")
      archived[parts] = (try row.int64("id"), try row.optionalInt64("upstream_id"))
    }
    for (index, message) in messages.enumerated() {
      if let entry = archived[MessageIdentity.Parts(message)] {
        if entry.upstream != message.id {
          try database.run(
            "UPDATE messages SET upstream_id = ? WHERE id = ?", [message.id, entry.id])
        }
        result.knownTail += 1
        continue
      }
      let key =
        page.keys?[index] ?? MessageIdentity.key(instanceID: page.instanceID, message: message)
      guard staged.insert(key).inserted else {
        result.knownTail += 1
        continue
      }
      try database.run(
        "INSERT INTO temp.ingest_staging (\(columns)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [
          page.instanceID, page.instanceName, message.direction, message.phoneNumber,
          PeerNumber.key(message.phoneNumber), message.content, message.date ?? page.syncedAt,
          message.timestamp, message.status, message.id,
          message.isIncoming ? message.pdu : nil, key, page.syncedAt,
        ])
      result.inserted += 1
      result.knownTail = 0
    }
    result.known = messages.count - result.inserted
    return result
  }

  /// The per-connection table new rows wait in until they move into `messages`.
  static let stagingTable = """
    CREATE TEMP TABLE IF NOT EXISTS ingest_staging (
      instance_id TEXT, instance_name TEXT, direction TEXT, peer_raw TEXT, peer_key TEXT,
      body TEXT, device_at INTEGER, device_timestamp TEXT, status TEXT, upstream_id INTEGER,
      marker TEXT, dedupe_key TEXT, synced_at INTEGER
    )
    """

  // MARK: - Queries

  static let selectColumns = """
    SELECT m.id, m.instance_id, COALESCE(i.name, s.instance_name, m.instance_name)
      AS instance_name, m.direction, m.peer_raw, m.peer_key, m.body, m.device_at,
      m.device_timestamp, m.status, m.upstream_id, m.synced_at
    FROM messages m LEFT JOIN instances i ON i.id = m.instance_id
      LEFT JOIN message_sync_state s ON s.instance_id = m.instance_id
    """

  static func message(_ row: Row) throws -> ArchivedMessage {
    ArchivedMessage(
      id: try row.int64("id"), instanceID: try row.string("instance_id"),
      instanceName: try row.string("instance_name"), direction: try row.string("direction"),
      peer: try row.string("peer_raw"), peerKey: try row.string("peer_key"),
      body: try row.string("body"), deviceAt: try row.date("device_at"),
      deviceTimestamp: try row.string("device_timestamp"), status: try row.string("status"),
      upstreamID: try row.optionalInt64("upstream_id"), syncedAt: try row.date("synced_at"))
  }

  static func conditions(_ filter: MessageFilter, searchByScan: Bool = false) -> (
    sql: [String], values: [any SQLiteBindable]
  ) {
    var sql: [String] = []
    var values: [any SQLiteBindable] = []
    if let direction = filter.direction {
      sql.append("m.direction = ?")
      values.append(direction)
    }
    if let instanceID = filter.instanceID {
      sql.append("m.instance_id = ?")
      values.append(instanceID)
    }
    if let peerKey = filter.peerKey {
      sql.append("m.peer_key = ?")
      values.append(peerKey)
    }
    if let since = filter.since {
      sql.append("m.device_at >= ?")
      values.append(since)
    }
    if let until = filter.until {
      sql.append("m.device_at < ?")
      values.append(until)
    }
    if let search = filter.search?.trimmingCharacters(in: .whitespaces), !search.isEmpty {
      if search.count >= 3 && !searchByScan {
        sql.append("m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)")
        values.append(phrase(search))
      } else {
        sql.append("m.body LIKE ? ESCAPE '\\'")
        let escaped = search.replacingOccurrences(of: "\\", with: "\\\\")
          .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        values.append("%" + escaped + "%")
      }
    }
    return (sql, values)
  }

  /// Messages matching `filter`, newest first, after `cursor`, at most `limit`.
  public func list(
    filter: MessageFilter = MessageFilter(), after cursor: MessageCursor? = nil, limit: Int
  )
    throws -> [ArchivedMessage]
  {
    try list(filter: filter, after: cursor, limit: limit, commonTerm: Self.commonTerm)
  }

  /// How many index matches make a search term "common" (see ``list(filter:after:limit:)``).
  static let commonTerm = 2_000

  /// Messages matching `filter`, newest first; a term with `commonTerm` or more matches is
  /// searched by reading messages newest first instead of through the index.
  ///
  /// A common word (`Telegram`, `话费`) matches tens of thousands of messages: the trigram
  /// index would hand all of them over to be sorted for the newest page, while reading the
  /// time index newest first reaches a page of them after a few thousand rows. A rare term (a
  /// code) is the opposite, so the index answers it. Counting at most `commonTerm` index
  /// matches tells the two apart cheaply. Both ways match the same substrings
  /// (case-insensitively for Latin letters) and return the same page.
  func list(
    filter: MessageFilter, after cursor: MessageCursor?, limit: Int, commonTerm: Int
  ) throws -> [ArchivedMessage] {
    var scan = false
    if let search = filter.search?.trimmingCharacters(in: .whitespaces), search.count >= 3 {
      let matches =
        try database.queryOne(
          """
          SELECT count(*) AS n FROM (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?
            LIMIT ?)
          """, [Self.phrase(search), commonTerm])?.int("n") ?? 0
      scan = matches >= commonTerm
    }
    var (sql, values) = Self.conditions(filter, searchByScan: scan)
    Self.append(cursor, to: &sql, &values)
    let whereClause = sql.isEmpty ? "" : " WHERE " + sql.joined(separator: " AND ")
    values.append(limit)
    return try database.query(
      Self.selectColumns + whereClause + " ORDER BY m.device_at DESC, m.id DESC LIMIT ?", values
    ).map(Self.message)
  }

  /// `search` as one FTS5 phrase (a substring, for the trigram tokenizer).
  static func phrase(_ search: String) -> String {
    "\"" + search.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  static func append(
    _ cursor: MessageCursor?, to sql: inout [String], _ values: inout [any SQLiteBindable]
  ) {
    guard let cursor else { return }
    sql.append("(m.device_at < ? OR (m.device_at = ? AND m.id < ?))")
    values += [cursor.deviceAtMilliseconds, cursor.deviceAtMilliseconds, cursor.id]
  }

  /// Every message matching `filter`, newest first, handed over in pages (for exports).
  public func forEachPage(
    filter: MessageFilter, pageSize: Int = 1000, _ body: ([ArchivedMessage]) throws -> Void
  ) throws {
    var cursor: MessageCursor?
    while true {
      let page = try list(filter: filter, after: cursor, limit: pageSize)
      if page.isEmpty { return }
      try body(page)
      guard page.count == pageSize, let last = page.last else { return }
      cursor = MessageCursor(after: last)
    }
  }

  /// The messages with these archive ids.
  public func messages(ids: [Int64]) throws -> [ArchivedMessage] {
    guard !ids.isEmpty else { return [] }
    let marks = Array(repeating: "?", count: ids.count).joined(separator: ",")
    return try database.query(
      Self.selectColumns + " WHERE m.id IN (\(marks)) ORDER BY m.device_at DESC, m.id DESC", ids
    ).map(Self.message)
  }

  /// How many messages match `filter`.
  public func count(filter: MessageFilter = MessageFilter()) throws -> Int {
    let (sql, values) = Self.conditions(filter)
    let whereClause = sql.isEmpty ? "" : " WHERE " + sql.joined(separator: " AND ")
    return try database.queryOne("SELECT count(*) AS n FROM messages m" + whereClause, values)?
      .int("n") ?? 0
  }

  /// Conversations by normalized peer, the most recent first.
  public func conversations(filter: MessageFilter = MessageFilter(), limit: Int = 200) throws
    -> [Conversation]
  {
    let (sql, values) = Self.conditions(filter)
    let whereClause = sql.isEmpty ? "" : " WHERE " + sql.joined(separator: " AND ")
    let groups = try database.query(
      """
      SELECT m.peer_key, count(*) AS n, max(m.device_at) AS last_at,
        group_concat(DISTINCT m.instance_id) AS instance_ids
      FROM messages m\(whereClause)
      GROUP BY m.peer_key ORDER BY last_at DESC, m.peer_key LIMIT ?
      """, values + [limit])
    var result: [Conversation] = []
    for group in groups {
      let key = try group.string("peer_key")
      guard
        let latest = try list(
          filter: MessageFilter(
            direction: filter.direction, instanceID: filter.instanceID, peerKey: key,
            since: filter.since, until: filter.until, search: filter.search), limit: 1
        ).first
      else { continue }
      let ids = (try group.optionalString("instance_ids") ?? "").split(separator: ",").map(
        String.init)
      let names = try ids.map { id in
        try database.queryOne(
          """
          SELECT COALESCE((SELECT name FROM instances WHERE id = ?),
            (SELECT instance_name FROM message_sync_state WHERE instance_id = ?),
            (SELECT instance_name FROM messages WHERE instance_id = ? ORDER BY id DESC LIMIT 1))
            AS name
          """, [id, id, id])?.optionalString("name") ?? id
      }
      result.append(
        Conversation(
          peerKey: key, peer: latest.peer, count: try group.int("n"), latest: latest,
          instanceNames: names.sorted()))
    }
    return result
  }

  // MARK: - Deleting

  /// Deletes the messages with these archive ids; returns how many went.
  @discardableResult
  public func delete(ids: [Int64]) throws -> Int {
    try store.requireWritable()
    guard !ids.isEmpty else { return 0 }
    return try database.transaction { database in
      var deleted = 0
      for chunk in stride(from: 0, to: ids.count, by: 500) {
        let slice = Array(ids[chunk..<min(chunk + 500, ids.count)])
        let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
        deleted += try database.run("DELETE FROM messages WHERE id IN (\(marks))", slice)
      }
      return deleted
    }
  }

  // MARK: - Sync state

  /// Whether a later sync of `instanceID` may stop at a page of known messages: its whole
  /// history was read once and no sync of it was left unfinished since.
  public func canStopEarly(instanceID: String) throws -> Bool {
    guard
      let row = try database.queryOne(
        "SELECT history_complete, in_progress FROM message_sync_state WHERE instance_id = ?",
        [instanceID])
    else { return false }
    return try row.bool("history_complete") && !(try row.bool("in_progress"))
  }

  /// Marks a sync of `instanceID` as started (an interrupted one leaves the mark behind).
  public func syncStarted(instanceID: String, instanceName: String, at: Date) throws {
    try store.requireWritable()
    try database.run(
      """
      INSERT INTO message_sync_state (instance_id, instance_name, in_progress, last_started_at)
      VALUES (?, ?, 1, ?)
      ON CONFLICT(instance_id) DO UPDATE SET instance_name = excluded.instance_name,
        in_progress = 1, last_started_at = excluded.last_started_at
      """, [instanceID, instanceName, at])
  }

  /// Records how a sync of `instanceID` ended: `error` nil means it read to the end or to
  /// known messages.
  public func syncFinished(instanceID: String, at: Date, error: String?) throws {
    try store.requireWritable()
    if let error {
      try database.run(
        "UPDATE message_sync_state SET last_error = ?, last_finished_at = ? WHERE instance_id = ?",
        [error, at, instanceID])
    } else {
      try database.run(
        """
        UPDATE message_sync_state SET history_complete = 1, in_progress = 0, last_error = NULL,
          last_finished_at = ? WHERE instance_id = ?
        """, [at, instanceID])
    }
  }

  // MARK: - Statistics

  /// Counts for `messages stats`.
  public func stats() throws -> ArchiveStats {
    let totals = try database.queryOne(
      """
      SELECT count(*) AS total, sum(direction = 'incoming') AS incoming,
        sum(direction = 'outgoing') AS outgoing, count(DISTINCT peer_key) AS peers,
        min(device_at) AS oldest, max(device_at) AS newest FROM messages
      """)
    let perInstance = try database.query(
      """
      SELECT m.instance_id, COALESCE(i.name, s.instance_name, max(m.instance_name)) AS name,
        count(*) AS n,
        COALESCE(s.history_complete, 0) AS complete, s.last_finished_at
      FROM messages m LEFT JOIN instances i ON i.id = m.instance_id
        LEFT JOIN message_sync_state s ON s.instance_id = m.instance_id
      GROUP BY m.instance_id ORDER BY name
      """
    ).map { row in
      ArchiveStats.PerInstance(
        instanceID: try row.string("instance_id"), instanceName: try row.string("name"),
        count: try row.int("n"), historyComplete: try row.bool("complete"),
        lastSyncedAt: try row.optionalDate("last_finished_at"))
    }
    var outbox: [String: Int] = [:]
    for row in try database.query("SELECT state, count(*) AS n FROM outbox GROUP BY state") {
      outbox[try row.string("state")] = try row.int("n")
    }
    return ArchiveStats(
      total: try totals?.optionalInt("total") ?? 0,
      incoming: try totals?.optionalInt("incoming") ?? 0,
      outgoing: try totals?.optionalInt("outgoing") ?? 0,
      conversations: try totals?.optionalInt("peers") ?? 0,
      oldest: try totals?.optionalDate("oldest"), newest: try totals?.optionalDate("newest"),
      instances: perInstance, outbox: outbox)
  }
}
