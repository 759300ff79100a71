import Essentials
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
  /// Archived messages this page found again under new device ids (after a renumbering);
  /// counted in ``known``.
  public var claimed: Int = 0
  /// How many of the inserted and claimed messages are outgoing (the completeness check
  /// counts per direction).
  public var foundOutgoing: Int = 0
  /// Whether a device id came back with other content: the device's ids were renumbered and
  /// the instance's id epoch moved on.
  public var renumbered: Bool = false
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
  /// The instance's SIM number as its status knows it now (kept with each new message).
  public let simNumber: String?
  /// The messages' identity keys when computed with the page (by the task that read it, not
  /// by the one writing to the archive); otherwise the writer hashes only the new messages.
  let keys: [String]?
  /// The messages' verification codes when extracted with the page (by the reading task, in
  /// parallel with the writer), with the rules version they were extracted with; the writer
  /// uses them only when its detector has that version, and extracts them itself otherwise.
  let codes: (version: Int, values: [String?])?
  /// The messages' instants (``SmsMessage/date``) and number keys (``PeerNumber/key(_:)``)
  /// when computed with the page, for the same reason as the keys.
  let prepared: (dates: [Date?], peerKeys: [String])?
  /// Whether the device's ids tell its rows apart (false for a device that lists the same id
  /// on rows of different content, issue 36): then a message is matched by its content alone
  /// (an archived one with the same identity parts is the same message, whatever its id), and
  /// an id with other content is no renumbering.
  public var trustsIDs = true

  /// A page; `hashingNow` computes the identity keys at once, and with a `detector` the
  /// verification codes too (worth it when most messages will be new, as in a first sync:
  /// the reading tasks do it while the archive's writer writes the previous pages).
  public init(
    messages: [SmsMessage], instanceID: String, instanceName: String, syncedAt: Date,
    simNumber: String? = nil, hashingNow: Bool = false, detector: CodeDetector? = nil
  ) {
    self.simNumber = simNumber
    self.messages = messages
    self.instanceID = instanceID
    self.instanceName = instanceName
    self.syncedAt = syncedAt
    self.keys =
      hashingNow
      ? messages.map { MessageIdentity.key(instanceID: instanceID, message: $0) } : nil
    self.codes =
      hashingNow
      ? detector.map { detector in
        (detector.rules.version, messages.map { detector.code(in: $0.content) })
      } : nil
    self.prepared =
      hashingNow
      ? (
        messages.map { DeviceTime.trusted($0.timestamp, now: syncedAt) },
        messages.map { PeerNumber.key($0.phoneNumber) }
      ) : nil
  }

  /// When message `index` was sent or received, as far as the archive believes its device
  /// (``DeviceTime/trusted(_:now:)``, judged at ``syncedAt``); nil when its time is not one.
  func date(_ index: Int) -> Date? {
    guard let prepared else { return DeviceTime.trusted(messages[index].timestamp, now: syncedAt) }
    return prepared.dates[index]
  }

  /// The key of message `index`'s number (``PeerNumber/key(_:)``).
  func peerKey(_ index: Int) -> String {
    guard let prepared else { return PeerNumber.key(messages[index].phoneNumber) }
    return prepared.peerKeys[index]
  }

  /// The code of message `index` as `detector` finds it (extracted with the page when that
  /// was done with the same rules version).
  func code(_ index: Int, _ detector: CodeDetector) -> String? {
    if let codes, codes.version == detector.rules.version { return codes.values[index] }
    return detector.code(in: messages[index].content)
  }
}

/// What the archive knows about syncing one instance (the completeness check's memory).
public struct SyncState: Sendable, Equatable {
  /// Whether its whole history was read at least once.
  public var historyComplete: Bool
  /// Whether a sync of it was left unfinished (interrupted or failed).
  public var inProgress: Bool
  /// Its current id epoch (see ``MessageIdentity``).
  public var epoch: Int64
  /// How many of its device's rows the last sync accounted for; nil: unknown.
  public var accounted: Int?
  /// How many of them are outgoing (the rest are incoming); nil: not recorded yet.
  public var accountedOutgoing: Int? = nil
  /// The newest device id among them (in ``epoch``); nil: unknown.
  public var newestID: Int64?
  /// The newest id among the rows a later sync's first page holds (the device's newest
  /// ``MessageSyncer/laterFirstPage`` by timestamp) at the last sync. Late messages take new
  /// ids below them in the list, so only a renumbering (or deleting the newest row) makes it
  /// fall.
  public var topID: Int64?
  /// How many rows the last sync's total may have missed by answering before its page.
  public var allowance: Int
  /// The total the device last reported; nil when it has no `/api/sms/stats`.
  public var reportedTotal: Int?
  /// When that total was read.
  public var reportedAt: Date?
  /// When every row of the device was last read.
  public var lastDeepAt: Date?
  /// The page size that worked after a page was too large for the response limit; nil: the
  /// size asked for works.
  public var pageSize: Int? = nil
  /// Where a read that stopped at the per-device ceiling goes on; nil: nowhere.
  public var readOn: SyncResume? = nil
  /// Whether the device lists the same id on rows of different content.
  public var idsRepeat: Bool = false
}

/// Where a device read that stopped at the per-device ceiling goes on at the next sync, and
/// what it has accounted for so far (``MessageSyncer``): the next sync reads the newest rows
/// that came meanwhile, then goes on from ``offset`` (moved down by them) to the device's
/// oldest row, and only then records the device as read through.
public struct SyncResume: Sendable, Equatable, Codable {
  /// Why the read began (``MessageSyncer/DeepRead``'s raw value).
  public var reason: String
  /// The offset of the next page when the read stopped.
  public var offset: Int
  /// The oldest row read so far, in the device's order (timestamp, then id): the page read
  /// on from must start at or above it.
  public var anchorTimestamp: String?
  /// Its id.
  public var anchorID: Int64?
  /// The device rows accounted for so far: distinct readable rows plus unreadable entries.
  public var accounted: Int
  /// The outgoing ones among the readable rows.
  public var outgoing: Int
  /// The unreadable entries among ``accounted``.
  public var unreadable: Int
  /// The newest device id read so far.
  public var newestID: Int64?
  /// The newest id on the device's first page, as the read last saw it.
  public var topID: Int64?
  /// Whether a renumbering was met during the read.
  public var renumbered: Bool
  /// For a read that began on a device read through before: the newest device id that last
  /// complete read accounted for. When the read reaches the oldest row, the rows it found
  /// above it are matched against the archived rows at or below it that it did not find (a
  /// restored backup, ``MessageArchive/settleReappearances``). Nil: nothing to fold.
  public var settleBelow: Int64? = nil
  /// The device ids the read has seen so far, as `[first, last]` ranges in order (what
  /// ``settleBelow`` needs); nil when not kept (more than ``seenRangeLimit`` ranges).
  public var seen: [[Int64]]? = nil

  /// The most ranges ``seen`` keeps (a device's ids are mostly consecutive: a few ranges).
  public static let seenRangeLimit = 20_000

  /// `ranges` with `ids` added, merged and in order; nil beyond ``seenRangeLimit``.
  public static func ranges(adding ids: Set<Int64>, to ranges: [[Int64]]) -> [[Int64]]? {
    var all = ranges.compactMap { $0.count == 2 && $0[0] <= $0[1] ? ($0[0], $0[1]) : nil }
    all += ids.map { ($0, $0) }
    all.sort { $0 < $1 }
    var merged: [(Int64, Int64)] = []
    for (low, high) in all {
      if let last = merged.last, low <= last.1 || low - 1 == last.1 {
        merged[merged.count - 1].1 = max(last.1, high)
      } else {
        merged.append((low, high))
      }
      if merged.count > seenRangeLimit { return nil }
    }
    return merged.map { [$0.0, $0.1] }
  }

  /// Every id in `ranges`; nil when they hold more than `limit` (a damaged resume point: the
  /// fold is then skipped, never attempted over billions of ids).
  public static func ids(in ranges: [[Int64]], limit: Int = 10_000_000) -> Set<Int64>? {
    var ids = Set<Int64>()
    var total = 0
    for range in ranges where range.count == 2 && range[0] <= range[1] {
      let (span, overflow) = range[1].subtractingReportingOverflow(range[0])
      guard !overflow, span < Int64(limit) else { return nil }
      total += Int(span) + 1
      guard total <= limit else { return nil }
      ids.formUnion(range[0]...range[1])
    }
    return ids
  }

  /// A resume point.
  public init(
    reason: String, offset: Int, anchorTimestamp: String?, anchorID: Int64?, accounted: Int,
    outgoing: Int, unreadable: Int, newestID: Int64?, topID: Int64?, renumbered: Bool
  ) {
    self.reason = reason
    self.offset = offset
    self.anchorTimestamp = anchorTimestamp
    self.anchorID = anchorID
    self.accounted = accounted
    self.outgoing = outgoing
    self.unreadable = unreadable
    self.newestID = newestID
    self.topID = topID
    self.renumbered = renumbered
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
    /// How many messages the device itself reported at its last sync (`/api/sms/stats`
    /// `total`); nil when it has no such route or has not been synced since.
    public var deviceReported: Int?
    /// How many of its archived messages the last sync accounted for as still on the device;
    /// the rest were deleted there (and are kept here).
    public var onDevice: Int?
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
  /// Messages the search index has not caught up with yet (searches scan them meanwhile).
  public var waitingForIndex: Int = 0
}

/// The message archive in the local store: ingesting synced pages, queries, conversations,
/// deletions and the per-instance sync state.
public struct MessageArchive: Sendable {
  /// The store holding the `messages` schema.
  public let store: Store

  /// Finds each message's verification code (the bundled rules unless a test gives others).
  public let detector: CodeDetector

  /// The archive in `store` (opened with ``Messages/schema``).
  public init(store: Store, detector: CodeDetector = .standard) {
    self.store = store
    self.detector = detector
  }

  var database: SQLiteDatabase { store.database }

  static let columns =
    "instance_id, instance_name, direction, peer_raw, peer_key, body, device_at, "
    + "device_timestamp, status, upstream_id, marker, dedupe_key, synced_at, id_epoch, "
    + "occurrence, repaired, code, sim_number, grams_low, grams_high, time_approximate, "
    + "seen_after"

  // MARK: - Ingest

  /// Archives the new messages of one page in one transaction; messages already archived are
  /// counted as known (their content is never overwritten).
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
    try ingest(pages, settlingByID: true)
  }

  /// ``ingest(_:)``; with `settlingByID` false every message is matched by its identity parts
  /// (the reference the tests compare the settling by id with).
  func ingest(_ pages: [IngestPage], settlingByID: Bool) throws -> [IngestResult] {
    try store.requireWritable()
    guard pages.contains(where: { !$0.messages.isEmpty }) else {
      return pages.map { _ in IngestResult(inserted: 0, known: 0) }
    }
    return try database.transaction { database in
      var batch = IngestBatch()
      try Self.refreshCodes(database, detector: detector)
      let results = try pages.map {
        try Self.stage(
          $0, into: database, batch: &batch, detector: detector, settlingByID: settlingByID)
      }
      if !batch.rows.isEmpty {
        // Ids above the largest and the search index's watermark: an id at or below the
        // watermark is indexed, so it must never come back as a new, unindexed row.
        let base =
          try database.queryOne(
            """
            SELECT max(COALESCE((SELECT max(id) FROM messages), 0),
              (SELECT watermark FROM message_index_state WHERE id = 1)) + 1 AS base
            """)?.int64("base") ?? 1
        // One prepared statement, a row at a time, in the staged order (`messages` has no
        // insert trigger since the search index follows behind its watermark, so nothing
        // gains from moving the rows in one statement). Plain INSERT: a clash with the
        // identity index is a bug to surface, never a message to drop silently.
        for (offset, row) in batch.rows.enumerated() {
          try database.run(Self.insertRow, [base + Int64(offset)] + row.values)
        }
      }
      return results
    }
  }

  static let marks = Array(repeating: "?", count: 22).joined(separator: ",")

  /// Inserts one new row with its id (the placeholders: the id, then ``columns``).
  static let insertRow = "INSERT INTO messages (id, \(columns)) VALUES (?, \(marks))"

  /// An archived (or, in this transaction, staged) row a device message may be.
  private struct Candidate {
    var rowID: Int64?
    var staged: Int?
    var upstream: Int64?
    var epoch: Int64
    var occurrence: Int64
  }

  /// A new row waiting to move into `messages` at the end of the transaction.
  struct StagedRow {
    var instanceID: String
    var parts: MessageIdentity.Parts
    var epoch: Int64
    var upstream: Int64
    var occurrence: Int64
    var values: [any SQLiteBindable]
  }

  /// What one ingest transaction has staged, by instance and identity parts.
  struct IngestBatch {
    var rows: [StagedRow] = []
    var byParts: [String: [MessageIdentity.Parts: [Int]]] = [:]
  }

  /// Matches one page against the archive inside the caller's transaction and stages its new
  /// messages (see ``MessageIdentity`` for the rule). The archived rows it is matched against
  /// are read in one range of the identity index (the instance's messages between the page's
  /// oldest and newest device timestamps) and compared part by part, so only new messages are
  /// hashed; the instance's rows in its current id epoch with the page's ids are read in one
  /// range of the upstream index. The staged rows go into `messages` at the end of the
  /// transaction, in the staged order, with ids above the largest and the watermark.
  private static func stage(
    _ page: IngestPage, into database: SQLiteDatabase, batch: inout IngestBatch,
    detector: CodeDetector, settlingByID: Bool
  ) throws -> IngestResult {
    var result = IngestResult(inserted: 0, known: 0)
    let messages = page.messages
    guard let oldest = messages.map(\.timestamp).min(),
      let newest = messages.map(\.timestamp).max(),
      let lowID = messages.map(\.id).min(), let highID = messages.map(\.id).max()
    else { return result }
    let syncState = try database.queryOne(
      "SELECT id_epoch, last_ok_at FROM message_sync_state WHERE instance_id = ?",
      [page.instanceID])
    var epoch = try syncState?.int64("id_epoch") ?? 0
    // Whether the user deleted any of this instance's messages here (looked up per new row
    // only then).
    let deletedHere =
      try database.queryOne(
        "SELECT 1 FROM message_tombstones WHERE instance_id = ? LIMIT 1", [page.instanceID])
      != nil
    // When the instance's last successful sync started (nil: this is its first): a message
    // first archived now appeared on the device after it (see ``DeviceTime``).
    let seenAfter = try syncState?.optionalInt64("last_ok_at")
    // The archived rows with a device timestamp in `range`, by their identity parts.
    func archivedRows(_ range: ClosedRange<String>) throws -> [MessageIdentity.Parts: [Candidate]] {
      var archived: [MessageIdentity.Parts: [Candidate]] = [:]
      for row in try database.query(
        """
        SELECT id, upstream_id, id_epoch, occurrence, direction, peer_raw, device_timestamp,
          body, marker
        FROM messages WHERE instance_id = ? AND device_timestamp BETWEEN ? AND ?
        """, [page.instanceID, range.lowerBound, range.upperBound])
      {
        archived[try parts(row), default: []].append(
          Candidate(
            rowID: try row.int64("id"), staged: nil,
            upstream: try row.optionalInt64("upstream_id"), epoch: try row.int64("id_epoch"),
            occurrence: try row.int64("occurrence")))
      }
      return archived
    }
    // The content each of the page's ids has in the current epoch, to notice a renumbering.
    var inEpoch: [Int64: MessageIdentity.Parts] = [:]
    for row in try database.query(
      """
      SELECT upstream_id, direction, peer_raw, device_timestamp, body, marker FROM messages
      WHERE instance_id = ? AND id_epoch = ? AND upstream_id BETWEEN ? AND ?
      """, [page.instanceID, epoch, lowID, highID])
    {
      inEpoch[try row.int64("upstream_id")] = try parts(row)
    }
    for indices in (batch.byParts[page.instanceID] ?? [:]).values {
      for index in indices where batch.rows[index].epoch == epoch {
        inEpoch[batch.rows[index].upstream] = batch.rows[index].parts
      }
    }
    // A message whose id holds the same content (byte for byte) in this epoch is the same row
    // as before (rule 1 below, which only a renumbering can change): a later sync's known
    // messages are settled by id, and only the others' timestamps are read from the archive
    // and hashed (the whole page's once a renumbering is met).
    let trusted = page.trustsIDs
    let known = settlingByID && trusted ? inEpoch : [:]
    var byID = settlingByID && trusted
    let pageParts = messages.map(MessageIdentity.Parts.init)
    let others = pageParts.indices.filter { !pageParts[$0].sameBytes(as: known[messages[$0].id]) }
    let otherStamps = others.map { pageParts[$0].timestamp }
    var archived: [MessageIdentity.Parts: [Candidate]] = [:]
    if let low = otherStamps.min(), let high = otherStamps.max() {
      archived = try archivedRows(low...high)
    }
    for (index, message) in messages.enumerated() {
      let parts = pageParts[index]
      if byID, parts.sameBytes(as: known[message.id]) {
        result.knownTail += 1
        continue
      }
      var candidates = archived[parts] ?? []
      for staged in batch.byParts[page.instanceID]?[parts] ?? [] {
        let row = batch.rows[staged]
        candidates.append(
          Candidate(
            rowID: nil, staged: staged, upstream: row.upstream, epoch: row.epoch,
            occurrence: row.occurrence))
      }
      // 0. A device whose ids repeat on different rows: the content alone says whether the
      //    message is archived (two byte-identical rows are one message).
      if !trusted, !candidates.isEmpty {
        result.knownTail += 1
        continue
      }
      // 1. The same row as before: this epoch, this id.
      if candidates.contains(where: { $0.epoch == epoch && $0.upstream == message.id }) {
        result.knownTail += 1
        continue
      }
      // 2a. The same row with its timestamp rewritten (v1.0.6 turns v1.0.0–1.0.5's RFC 3339
      //     UTC text into the Beijing form; id and marker stay): the archived row takes the
      //     device's new text, and its true instant.
      if let other = inEpoch[message.id], other != parts, other.sameMessage(as: parts),
        try rewrite(
          page, index: index, epoch: epoch, from: other, to: parts, into: database)
      {
        inEpoch[message.id] = parts
        result.knownTail += 1
        continue
      }
      // 2. A new row whose id is taken by other content: the ids were renumbered.
      if trusted, let other = inEpoch[message.id], other != parts {
        epoch += 1
        inEpoch = [:]
        result.renumbered = true
        if byID {
          // Ids settle nothing in the new epoch: every row of the page's timestamps, as they
          // stand after this transaction's claims.
          byID = false
          archived = try archivedRows(oldest...newest)
        }
        try database.run(
          """
          INSERT INTO message_sync_state (instance_id, instance_name, id_epoch) VALUES (?, ?, ?)
          ON CONFLICT(instance_id) DO UPDATE SET id_epoch = excluded.id_epoch
          """, [page.instanceID, page.instanceName, epoch])
      }
      // 3. An archived row with this content not seen in this epoch yet: the same message
      //    under its new id.
      if let free = candidates.filter({ $0.epoch < epoch || $0.upstream == nil })
        .min(by: { $0.occurrence < $1.occurrence })
      {
        if let rowID = free.rowID {
          try database.run(
            "UPDATE messages SET id_epoch = ?, upstream_id = ? WHERE id = ?",
            [epoch, message.id, rowID])
          if let position = archived[parts]?.firstIndex(where: { $0.rowID == rowID }) {
            archived[parts]?[position].epoch = epoch
            archived[parts]?[position].upstream = message.id
          }
        } else if let staged = free.staged {
          batch.rows[staged].epoch = epoch
          batch.rows[staged].upstream = message.id
          batch.rows[staged].values[Self.epochColumn] = epoch
          batch.rows[staged].values[Self.upstreamColumn] = message.id
        }
        inEpoch[message.id] = parts
        result.claimed += 1
        if message.isOutgoing { result.foundOutgoing += 1 }
        result.knownTail += 1
        continue
      }
      // 4. New: one more row with this content.
      let key =
        page.keys?[index] ?? MessageIdentity.key(instanceID: page.instanceID, message: message)
      // Unless the user deleted this very row here: it stays deleted, on every sync (`--full`
      // too). It is on the device, so it counts as read, not as new.
      if deletedHere,
        try database.queryOne(
          """
          SELECT 1 FROM message_tombstones
          WHERE instance_id = ? AND upstream_id = ? AND dedupe_key = ?
          """, [page.instanceID, message.id, key]) != nil
      {
        inEpoch[message.id] = parts
        result.knownTail += 1
        continue
      }
      let occurrence = (candidates.map(\.occurrence).max() ?? -1) + 1
      let mask = gramsMask(message.content)
      let deviceAt = page.date(index)
      batch.byParts[page.instanceID, default: [:]][parts, default: []].append(batch.rows.count)
      batch.rows.append(
        StagedRow(
          instanceID: page.instanceID, parts: parts, epoch: epoch, upstream: message.id,
          occurrence: occurrence,
          values: [
            page.instanceID, page.instanceName, message.direction, message.phoneNumber,
            page.peerKey(index), message.content, deviceAt ?? page.syncedAt,
            message.timestamp, message.status, message.id,
            message.isIncoming ? message.pdu : nil, key, page.syncedAt, epoch, occurrence,
            message.repaired, page.code(index, detector), page.simNumber,
            Int64(bitPattern: mask.low), Int64(bitPattern: mask.high), deviceAt == nil,
            seenAfter,
          ]))
      inEpoch[message.id] = parts
      result.inserted += 1
      if message.isOutgoing { result.foundOutgoing += 1 }
      result.knownTail = 0
    }
    result.known = messages.count - result.inserted
    return result
  }

  /// Gives the archived row of `page`'s instance with device id `messages[index].id` in
  /// `epoch` (whose parts are `old`) the device's rewritten timestamp text of `new`, with its
  /// identity key and its instant; false when no archived row holds the id (a staged one).
  private static func rewrite(
    _ page: IngestPage, index: Int, epoch: Int64, from old: MessageIdentity.Parts,
    to new: MessageIdentity.Parts, into database: SQLiteDatabase
  ) throws -> Bool {
    let message = page.messages[index]
    guard
      let row = try database.queryOne(
        """
        SELECT id, occurrence, synced_at, device_at, time_approximate FROM messages
        WHERE instance_id = ? AND id_epoch = ? AND upstream_id = ? AND device_timestamp = ?
        LIMIT 1
        """, [page.instanceID, epoch, message.id, old.timestamp])
    else { return false }
    let key = MessageIdentity.key(instanceID: page.instanceID, message: message)
    // The identity index holds one row per (text, key, occurrence): after the first msa
    // that duplicated the rewritten rows, the new text may be taken already.
    var occurrence = try row.int64("occurrence")
    if let taken = try database.queryOne(
      """
      SELECT max(occurrence) AS top FROM messages
      WHERE instance_id = ? AND device_timestamp = ? AND dedupe_key = ?
      """, [page.instanceID, new.timestamp, key])?.optionalInt64("top")
    {
      occurrence = max(occurrence, taken + 1)
    }
    let syncedAt = try row.date("synced_at")
    // An instant already believed stays (the old text may hold fractions of a second).
    let trusted =
      try row.int64("time_approximate") == 0
      ? try row.date("device_at") : DeviceTime.trusted(new.timestamp, now: syncedAt)
    try database.run(
      """
      UPDATE messages SET device_timestamp = ?, dedupe_key = ?, occurrence = ?, device_at = ?,
        time_approximate = ? WHERE id = ?
      """,
      [new.timestamp, key, occurrence, trusted ?? syncedAt, trusted == nil, try row.int64("id")])
    return true
  }

  // MARK: - Re-appearances

  /// After a read of every row of `instanceID`'s device (`seen`: the device ids it read),
  /// folds each archived message that came back under a new id into the one it was: returns
  /// how many new rows were folded (and deleted).
  ///
  /// A backup restored on the device re-inserts every row with a new, higher id and the same
  /// direction, number, text, timestamp and marker (SIMADMIN-API §6; ids are AUTOINCREMENT, so
  /// never reused). The rule, per (direction, number, text, timestamp, marker): the rows this
  /// read found with ids above `newestBefore` (the newest id the last sync accounted for) are
  /// the candidates; the archived rows of the current id epoch with ids at or below it that
  /// the read did *not* find are gone from the device. Each candidate, in id order, takes the
  /// place of one gone row (lowest id first): the archived message keeps its archive id, its
  /// first-seen time and its code, and takes the device's new id. A candidate with no gone
  /// row left is a new message. So two identical messages (same number, text and second)
  /// that are both on the device stay two, and so do two that arrived after the last sync; a
  /// restore that brings 6 back keeps 6.
  public func settleReappearances(instanceID: String, seen: Set<Int64>, newestBefore: Int64)
    throws -> Int
  {
    try store.requireWritable()
    let epoch =
      try database.queryOne(
        "SELECT id_epoch FROM message_sync_state WHERE instance_id = ?", [instanceID])?
      .int64("id_epoch") ?? 0
    struct Row: Hashable {
      var direction: String
      var peer: String
      var body: String
      var timestamp: String
      var marker: String
    }
    func key(_ row: LocalStore.Row) throws -> Row {
      Row(
        direction: try row.string("direction"), peer: try row.string("peer_raw"),
        body: try row.string("body"), timestamp: try row.string("device_timestamp"),
        marker: try row.optionalString("marker") ?? "")
    }
    let columns = "id, upstream_id, direction, peer_raw, body, device_timestamp, marker"
    var fresh: [Row: [(id: Int64, upstream: Int64)]] = [:]
    for row in try database.query(
      """
      SELECT \(columns) FROM messages
      WHERE instance_id = ? AND id_epoch = ? AND upstream_id > ?
      """, [instanceID, epoch, newestBefore])
    {
      let upstream = try row.int64("upstream_id")
      guard seen.contains(upstream) else { continue }
      fresh[try key(row), default: []].append((try row.int64("id"), upstream))
    }
    guard !fresh.isEmpty else { return 0 }
    var gone: [Row: [(id: Int64, upstream: Int64)]] = [:]
    let stamps = Array(Set(fresh.keys.map(\.timestamp)))
    for start in stride(from: 0, to: stamps.count, by: 500) {
      let slice = Array(stamps[start..<min(start + 500, stamps.count)])
      let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
      for row in try database.query(
        """
        SELECT \(columns) FROM messages
        WHERE instance_id = ? AND id_epoch = ? AND upstream_id <= ?
          AND device_timestamp IN (\(marks))
        """, [instanceID, epoch, newestBefore] + slice)
      {
        let upstream = try row.int64("upstream_id")
        let parts = try key(row)
        guard !seen.contains(upstream), fresh[parts] != nil else { continue }
        gone[parts, default: []].append((try row.int64("id"), upstream))
      }
    }
    var folded: [(delete: Int64, keep: Int64, upstream: Int64)] = []
    for (parts, candidates) in fresh {
      guard let places = gone[parts]?.sorted(by: { $0.upstream < $1.upstream }) else { continue }
      for (candidate, place) in zip(candidates.sorted(by: { $0.upstream < $1.upstream }), places) {
        folded.append((candidate.id, place.id, candidate.upstream))
      }
    }
    guard !folded.isEmpty else { return 0 }
    let deleted = folded.map(\.delete)
    for start in stride(from: 0, to: deleted.count, by: 500) {
      try removeGrams(ids: Array(deleted[start..<min(start + 500, deleted.count)]), in: database)
    }
    for fold in folded {
      try database.run("DELETE FROM messages WHERE id = ?", [fold.delete])
      try database.run(
        "UPDATE messages SET upstream_id = ? WHERE id = ?", [fold.upstream, fold.keep])
    }
    return folded.count
  }

  /// The positions of `id_epoch` and `upstream_id` in ``columns``.
  static let epochColumn = 13
  static let upstreamColumn = 9

  private static func parts(_ row: Row) throws -> MessageIdentity.Parts {
    MessageIdentity.Parts(
      direction: try row.string("direction"), peer: try row.string("peer_raw"),
      timestamp: try row.string("device_timestamp"), body: try row.string("body"),
      marker: try row.optionalString("marker") ?? "")
  }

  // MARK: - Codes

  /// Extracts every archived message's code again when the stored codes were extracted with
  /// another rules version than the detector's (after an upgrade or a rules change); a no-op
  /// otherwise (one row read). A read-only store is left as it is.
  public func refreshCodes() throws {
    guard !store.isReadOnly else { return }
    try database.transaction { database in try Self.refreshCodes(database, detector: detector) }
  }

  static func refreshCodes(_ database: SQLiteDatabase, detector: CodeDetector) throws {
    let stored =
      try database.queryOne("SELECT rules_version FROM message_codes WHERE id = 1")?
      .int("rules_version")
    guard stored != detector.rules.version else { return }
    var after: Int64 = 0
    while true {
      let rows = try database.query(
        "SELECT id, body, code FROM messages WHERE id > ? ORDER BY id LIMIT 2000", [after])
      guard let last = rows.last else { break }
      for row in rows {
        let code = detector.code(in: try row.string("body"))
        if code != (try row.optionalString("code")) {
          try database.run(
            "UPDATE messages SET code = ? WHERE id = ?", [code, try row.int64("id")])
        }
      }
      after = try last.int64("id")
    }
    try database.run(
      """
      INSERT INTO message_codes (id, rules_version) VALUES (1, ?)
      ON CONFLICT(id) DO UPDATE SET rules_version = excluded.rules_version
      """, [detector.rules.version])
  }

  /// The instance's SIM number as msa knows it now, with when that was learnt: the newer of
  /// its stored status (the first of the snapshot's `phoneNumbers`) and what a sync last read
  /// from the device (`/api/sim`); nil when neither has one.
  public func knownSIMNumber(instanceID: String) throws -> String? {
    try simNumberKnowledge(instanceID: instanceID).number
  }

  /// ``knownSIMNumber(instanceID:)`` and when it was learnt (nil: not recorded).
  func simNumberKnowledge(instanceID: String) throws -> (number: String?, at: Date?) {
    var status: (number: String, at: Date?)?
    if let row = try database.queryOne(
      "SELECT snapshot, snapshot_fetched_at FROM instance_status WHERE instance_id = ?",
      [instanceID]),
      let text = try row.optionalString("snapshot"),
      let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
      let number = (object["phoneNumbers"] as? [String])?.first(where: { !$0.isEmpty })
    {
      status = (number, try row.optionalDate("snapshot_fetched_at"))
    }
    let synced = try database.queryOne(
      "SELECT sim_number, sim_number_at FROM message_sync_state WHERE instance_id = ?",
      [instanceID])
    let syncedNumber = try synced?.optionalString("sim_number")
    let syncedAt = try synced?.optionalDate("sim_number_at")
    if let status {
      if let syncedAt, syncedNumber != nil, syncedAt > (status.at ?? .distantPast) {
        return (syncedNumber, syncedAt)
      }
      return (status.number, status.at)
    }
    return (syncedNumber, syncedAt)
  }

  /// Keeps the SIM number a sync read from the device (`/api/sim`), with when.
  public func recordSIMNumber(instanceID: String, number: String?, at: Date? = nil) throws {
    try store.requireWritable()
    try database.run(
      "UPDATE message_sync_state SET sim_number = ?, sim_number_at = ? WHERE instance_id = ?",
      [number, at, instanceID])
  }

  /// After a sync read the SIM's number `number` from the device at `at`: the messages it
  /// first archived (`synced_at` at or after `since`) take that number, and the sync state
  /// keeps it. Messages archived before keep theirs. Returns how many rows changed.
  @discardableResult
  public func restampSIMNumber(instanceID: String, number: String, since: Date, at: Date) throws
    -> Int
  {
    try store.requireWritable()
    return try database.transaction { database in
      try database.run(
        "UPDATE message_sync_state SET sim_number = ?, sim_number_at = ? WHERE instance_id = ?",
        [number, at, instanceID])
      return try database.run(
        """
        UPDATE messages SET sim_number = ? WHERE instance_id = ? AND synced_at >= ?
          AND sim_number IS NOT ?
        """, [number, instanceID, since, number])
    }
  }

  /// The newest archive row id (0 when empty): what a follow command has seen at its start.
  public func newestID() throws -> Int64 {
    try database.queryOne("SELECT COALESCE(max(id), 0) AS n FROM messages")?.int64("n") ?? 0
  }

  /// Messages archived after row `afterID`, in the order they were archived, at most `limit`.
  public func archived(afterID: Int64, filter: MessageFilter = MessageFilter(), limit: Int = 1000)
    throws -> [ArchivedMessage]
  {
    var (sql, values) = try conditions(filter)
    sql.append("m.id > ?")
    values += [afterID, limit]
    return try database.query(
      Self.selectColumns + " WHERE " + sql.joined(separator: " AND ")
        + " ORDER BY m.id LIMIT ?", values
    ).map(Self.message)
  }

  // MARK: - Queries

  /// The columns ``message(_:)`` reads, of `messages m` joined with `instances i` and
  /// `message_sync_state s`.
  static let pageColumns = """
    m.id, m.instance_id, COALESCE(i.name, s.instance_name, m.instance_name)
      AS instance_name, m.direction, m.peer_raw, m.peer_key, m.body, m.device_at,
      m.device_timestamp, m.status, m.upstream_id, m.synced_at, m.repaired, m.code,
      m.sim_number, m.time_approximate, m.seen_after
    """

  static let selectColumns = """
    SELECT \(pageColumns)
    FROM messages m LEFT JOIN instances i ON i.id = m.instance_id
      LEFT JOIN message_sync_state s ON s.instance_id = m.instance_id
    """

  /// The message in a row of ``pageColumns``, read by position (in that order): a page of 50
  /// reads 750 values, and finding each by name compared column names a hundred times a row.
  static func message(_ row: Row) throws -> ArchivedMessage {
    var message = ArchivedMessage(
      id: try row.at(0), instanceID: try row.at(1), instanceName: try row.at(2),
      direction: try row.at(3), peer: try row.at(4), peerKey: try row.at(5), body: try row.at(6),
      deviceAt: try row.at(7), deviceTimestamp: try row.at(8), status: try row.at(9),
      upstreamID: try row.optionalAt(10), syncedAt: try row.at(11), repaired: try row.at(12),
      code: try row.optionalAt(13), simNumber: try row.optionalAt(14))
    message.timeApproximate = try row.at(15)
    message.seenAfter = try row.optionalAt(16)
    return message
  }

  /// The SQL conditions of `filter`. A search term is matched through its index (the trigram
  /// one for three or more characters, the bigram one for one or two) plus a `LIKE` scan of
  /// the messages above the index's watermark.
  func conditions(_ filter: MessageFilter) throws -> (
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
    if !filter.instanceIDs.isEmpty {
      sql.append(
        "m.instance_id IN ("
          + Array(repeating: "?", count: filter.instanceIDs.count)
          .joined(separator: ",") + ")")
      values += filter.instanceIDs as [any SQLiteBindable]
    }
    if filter.hasCode { sql.append("m.code IS NOT NULL") }
    if let syncedSince = filter.syncedSince {
      sql.append("m.synced_at >= ?")
      values.append(syncedSince)
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
    if let term = SearchTerm(filter.search) {
      sql.append(
        "m.id IN (SELECT rowid FROM \(term.table) WHERE \(term.table) MATCH ? "
          + "UNION ALL SELECT id FROM messages WHERE id > ? "
          + "AND (body \(term.likeOperator)) <> 0)")
      values += [term.match, try indexWatermark(), term.like]
      if term.table == "messages_fts" {
        // The trigram tokenizer folds the case of every letter (É finds é), `LIKE` only
        // ASCII's: its matches are narrowed to `LIKE`'s, so a search finds the same rows
        // whether they wait for the index or not, and whether it walks or not.
        // (Compared with 0, as in `newest`: SQLite would prepare it again at every binding.)
        sql.append("(m.body \(term.likeOperator)) <> 0")
        values.append(term.like)
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
    try list(filter: filter, after: cursor, limit: limit, strategy: .standard)
  }

  /// How a search term's page is found (see ``list(filter:after:limit:strategy:)``).
  struct SearchStrategy {
    /// A term with fewer index matches than this (counting the messages waiting for the
    /// index as matches) is answered by the index alone.
    var indexBelow: Int = 0
    /// How many messages (of those the other filters keep) the newest-first walk reads at
    /// most before the index answers the rest; 0: the index answers all.
    var budget: Int
    /// The walk reads at least this many messages per message of the page (so a page of an
    /// export, 1,000, walks as far for its term as a page of 50 does).
    var perMessage: Int = 0
    /// How many messages (at least a page's worth) the walk reads before the index is asked
    /// anything: a page of a very common term (验证) lies within them, and when too few of
    /// them match to fill a page within the budget at that rate, the index counts the term's
    /// matches.
    var firstWalk: Int = 256

    /// The strategy `msa` uses: a term the index finds in fewer than 64 messages (a code, a
    /// name) goes straight to the index; the first page of a common one (验证, 快递, Telegram
    /// in the benchmark's archive) lies within the newest 2,300 messages.
    static let standard = SearchStrategy(indexBelow: 64, budget: 6_000, perMessage: 120)

    /// The walk's budget for a page of `limit`.
    func budget(limit: Int) -> Int {
      let (product, overflow) = limit.multipliedReportingOverflow(by: perMessage)
      return overflow ? .max : max(budget, product)
    }
  }

  /// Messages matching `filter`, newest first.
  ///
  /// A common word (`验证`, `Telegram`) matches tens of thousands of messages: an index would
  /// hand all of them over to be sorted for the newest page, while reading the messages
  /// newest first (through the time, sender or instance index, as the other filters allow)
  /// reaches a page after a few hundred or thousand of them, the way the `LIKE` scan does;
  /// a rare term (a code) is the opposite. So a term is first matched by `LIKE` while reading
  /// the newest `firstWalk` messages (a very common term's page ends there, with no other
  /// query); when too few of them match for the walk to fill a page within its budget at that
  /// rate (none, or a rare term's one recent match) and the index finds fewer than
  /// `indexBelow` matches,
  /// the index answers; otherwise the walk goes on to at most `budget` messages newest first,
  /// and when that found less than a page, the index answers the rest, older than the last
  /// message read. Both match the same substrings (those of `LIKE`: case-insensitively for
  /// ASCII letters), and the whole search reads one snapshot of the archive, so the page is
  /// the one `LIKE` alone would give.
  func list(
    filter: MessageFilter, after cursor: MessageCursor?, limit: Int, strategy: SearchStrategy
  ) throws -> [ArchivedMessage] {
    if filter.hasCode { try refreshCodes() }
    guard let term = SearchTerm(filter.search), limit > 0, strategy.budget > 0 else {
      return try listThroughIndex(filter, after: cursor, limit: limit)
    }
    let budget = strategy.budget(limit: limit)
    let first = min(budget, max(strategy.firstWalk, limit))
    return try database.savepoint("search") {
      var others = filter
      others.search = nil
      // The newest `first` messages, matched by one statement shaped like the `LIKE` scan
      // itself, bounded by the time of the last of them (a subquery of the same statement).
      let found = try newest(term, others, after: cursor, within: first, limit: limit)
      if found.count == limit { return found }
      guard let top = try position(others, after: cursor, offset: first - 1) else {
        // Fewer messages than that: the statement matched them all.
        return found
      }
      // Too few among the newest for the walk to fill a page within its budget at that rate
      // (none, or one that happens to be recent): the index counts the term's matches, and
      // a rare one is answered by the index alone.
      if Double(found.count) * Double(budget) / Double(first) < Double(limit),
        try indexMatches(term, below: strategy.indexBelow) < strategy.indexBelow
      {
        return try listThroughIndex(filter, after: cursor, limit: limit)
      }
      // Everything older than the time of the first walk's last message.
      let older = MessageCursor(deviceAtMilliseconds: top.deviceAtMilliseconds, id: .min)
      var page = found
      var last = older
      if first < budget {
        page += try walk(
          term, others, after: older, reading: budget - first, limit: limit - page.count)
        if page.count == limit { return page }
        // Fewer messages than the walk's budget: it read them all.
        guard let end = try position(others, after: older, offset: budget - first - 1) else {
          return page
        }
        last = end
      }
      return page + (try listThroughIndex(filter, after: last, limit: limit - page.count))
    }
  }

  /// The messages among the `within` newest that `others` keeps (after `cursor`; and those
  /// at the same time as the last of them) whose body contains `term`, newest first, at most
  /// `limit`: the `LIKE` scan's own statement, with the term's bigram mask tested on the time
  /// index first (``maskCondition(_:)``). The `LIKE`
  /// is compared with 0 so that SQLite does not take its bound pattern for one the `LIKE`
  /// optimisation could use, which would make it prepare the statement again at every new
  /// binding (a fifth of the cost of 验证's page).
  private func newest(
    _ term: SearchTerm, _ others: MessageFilter, after cursor: MessageCursor?, within: Int,
    limit: Int
  ) throws -> [ArchivedMessage] {
    var (sql, values) = try conditions(others)
    Self.append(cursor, to: &sql, &values)
    // At or after the time of the `within`-th of those messages (all of them when there are
    // fewer): `position`'s query as a subquery, run once (it does not depend on the row).
    let bound = try positionQuery(others, after: cursor, offset: within - 1, columns: "m.device_at")
    sql.append("m.device_at >= COALESCE((\(bound.sql)), -9223372036854775808)")
    values += bound.values
    if let mask = Self.maskCondition(term) {
      sql.append(mask.sql)
      values += mask.values
    }
    sql.append("(m.body \(term.likeOperator)) <> 0")
    values += [term.like, limit]
    return try database.query(
      Self.selectColumns + " WHERE " + sql.joined(separator: " AND ")
        + " ORDER BY m.device_at DESC, m.id DESC LIMIT ?", values
    ).map(Self.message)
  }

  /// The messages among the `reading` newest that `others` keeps (after `cursor`) whose body
  /// contains `term` (by `LIKE`), newest first, at most `limit`. The inner query reads the
  /// messages newest first, tests `LIKE` on each and stops after `reading`; the outer one
  /// reads the whole rows of the matches, in that order, and stops at `limit`.
  private func walk(
    _ term: SearchTerm, _ others: MessageFilter, after cursor: MessageCursor?, reading: Int,
    limit: Int
  ) throws -> [ArchivedMessage] {
    var (sql, values) = try conditions(others)
    Self.append(cursor, to: &sql, &values)
    let whereClause = sql.isEmpty ? "" : " WHERE " + sql.joined(separator: " AND ")
    // A message whose mask lacks a bit of the term's is passed over on the index (CASE
    // evaluates its branches lazily, so its row is never read).
    let mask = Self.maskCondition(term)
    let hit =
      mask.map { "CASE WHEN \($0.sql) THEN m.body \(term.likeOperator) ELSE 0 END" }
      ?? "m.body \(term.likeOperator)"
    return try database.query(
      """
      SELECT \(Self.pageColumns)
      FROM (SELECT m.id, \(hit) AS hit FROM messages m\(whereClause)
          ORDER BY m.device_at DESC, m.id DESC LIMIT ?) AS w
        CROSS JOIN messages m ON m.id = w.id
        LEFT JOIN instances i ON i.id = m.instance_id
        LEFT JOIN message_sync_state s ON s.instance_id = m.instance_id
      WHERE w.hit LIMIT ?
      """, (mask?.values ?? []) + [term.like] + values + [reading, limit]
    ).map(Self.message)
  }

  /// What a message's stored bigram mask says of `term`, to be tested before its body is
  /// read: a row of `messages_by_time` holds the mask beside the time and the id, so a walk
  /// through it reads (and matches by `LIKE`) only the messages whose mask has every bit of
  /// the term's. A message without a mask (archived before masks were kept) is always read.
  /// Nil when the term's mask is empty (one character): nothing to test.
  static func maskCondition(_ term: SearchTerm) -> (sql: String, values: [any SQLiteBindable])? {
    var parts: [String] = []
    var values: [any SQLiteBindable] = []
    for (column, bits) in [("grams_low", term.mask.low), ("grams_high", term.mask.high)]
    where bits != 0 {
      parts.append("(m.\(column) & ?) = ?")
      values += [Int64(bitPattern: bits), Int64(bitPattern: bits)]
    }
    guard !parts.isEmpty else { return nil }
    return ("(m.grams_low IS NULL OR (" + parts.joined(separator: " AND ") + "))", values)
  }

  /// The position of the message `offset` places after `cursor` (0: the first) among those
  /// `others` keeps, newest first; nil when there are not that many. One index-only query.
  private func position(_ others: MessageFilter, after cursor: MessageCursor?, offset: Int)
    throws -> MessageCursor?
  {
    let query = try positionQuery(others, after: cursor, offset: offset)
    guard let row = try database.queryOne(query.sql, query.values) else { return nil }
    return MessageCursor(deviceAtMilliseconds: try row.int64("device_at"), id: try row.int64("id"))
  }

  /// ``position(_:after:offset:)``'s statement: `columns` (the time and id) of that message.
  private func positionQuery(
    _ others: MessageFilter, after cursor: MessageCursor?, offset: Int,
    columns: String = "m.device_at, m.id"
  ) throws -> (sql: String, values: [any SQLiteBindable]) {
    var (sql, values) = try conditions(others)
    Self.append(cursor, to: &sql, &values)
    let whereClause = sql.isEmpty ? "" : " WHERE " + sql.joined(separator: " AND ")
    return (
      """
      SELECT \(columns) FROM messages m\(whereClause)
      ORDER BY m.device_at DESC, m.id DESC LIMIT 1 OFFSET ?
      """, values + [offset]
    )
  }

  /// How many messages the index matches for `term` plus how many of those waiting for the
  /// index hold it (matched by `LIKE`: a later sync leaves its new rows waiting, and counting
  /// them all as matches sent a rare term on the long walk after every sync), each counted up
  /// to `below`.
  func indexMatches(_ term: SearchTerm, below: Int) throws -> Int {
    guard below > 0 else { return 0 }
    return try database.queryOne(
      """
      SELECT (SELECT count(*) FROM (SELECT rowid FROM \(term.table)
          WHERE \(term.table) MATCH ? LIMIT ?))
        + (SELECT count(*) FROM (SELECT 1 FROM messages WHERE id >
          (SELECT watermark FROM message_index_state WHERE id = 1)
          AND (body \(term.likeOperator)) <> 0 LIMIT ?)) AS n
      """, [term.match, below, term.like, below])?.int("n") ?? 0
  }

  /// Messages matching `filter` (a search term through its index), newest first.
  private func listThroughIndex(_ filter: MessageFilter, after cursor: MessageCursor?, limit: Int)
    throws -> [ArchivedMessage]
  {
    var (sql, values) = try conditions(filter)
    Self.append(cursor, to: &sql, &values)
    let whereClause = sql.isEmpty ? "" : " WHERE " + sql.joined(separator: " AND ")
    values.append(limit)
    return try database.query(
      Self.selectColumns + whereClause + " ORDER BY m.device_at DESC, m.id DESC LIMIT ?", values
    ).map(Self.message)
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
    let (sql, values) = try conditions(filter)
    let whereClause = sql.isEmpty ? "" : " WHERE " + sql.joined(separator: " AND ")
    return try database.queryOne("SELECT count(*) AS n FROM messages m" + whereClause, values)?
      .int("n") ?? 0
  }

  /// Conversations by normalized peer, the most recent first.
  public func conversations(filter: MessageFilter = MessageFilter(), limit: Int = 200) throws
    -> [Conversation]
  {
    let (sql, values) = try conditions(filter)
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
    let now = store.clock.now()
    return try database.transaction { database in
      var deleted = 0
      for chunk in stride(from: 0, to: ids.count, by: 500) {
        let slice = Array(ids[chunk..<min(chunk + 500, ids.count)])
        let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
        // Remembered by device id and identity key: a later sync leaves them out (``stage``).
        try database.run(
          """
          INSERT OR IGNORE INTO message_tombstones (instance_id, upstream_id, dedupe_key, deleted_at)
          SELECT instance_id, upstream_id, dedupe_key, ? FROM messages
          WHERE id IN (\(marks)) AND upstream_id IS NOT NULL
          """, [now] + slice)
        try removeGrams(ids: slice, in: database)
        deleted += try database.run("DELETE FROM messages WHERE id IN (\(marks))", slice)
      }
      return deleted
    }
  }

  // MARK: - Sync state

  /// Whether the archive holds any message of `instanceID` (one index seek).
  public func holdsMessages(instanceID: String) throws -> Bool {
    try database.queryOne(
      "SELECT 1 AS found FROM messages WHERE instance_id = ? LIMIT 1", [instanceID])
      != nil
  }

  /// What the archive knows about syncing `instanceID`; nil before its first sync.
  public func syncState(instanceID: String) throws -> SyncState? {
    guard
      let row = try database.queryOne(
        "SELECT \(Self.syncStateColumns) FROM message_sync_state WHERE instance_id = ?",
        [instanceID])
    else { return nil }
    return try Self.syncState(row)
  }

  /// The sync states of every instance synced before, by instance id, in one read (what
  /// ``syncState(instanceID:)`` gives for each).
  public func syncStates() throws -> [String: SyncState] {
    var states: [String: SyncState] = [:]
    for row in try database.query(
      "SELECT instance_id, \(Self.syncStateColumns) FROM message_sync_state")
    {
      states[try row.string("instance_id")] = try Self.syncState(row)
    }
    return states
  }

  static let syncStateColumns = """
    history_complete, in_progress, id_epoch, accounted, accounted_outgoing, newest_id, top_id,
      allowance, reported_total, reported_at, last_deep_at, page_size, read_on, ids_repeat
    """

  private static func syncState(_ row: Row) throws -> SyncState {
    // A resume point that does not decode (written by another version) is no resume point:
    // the read starts over, which is always safe.
    let readOn = try row.optionalString("read_on").flatMap {
      try? JSONDecoder().decode(SyncResume.self, from: Data($0.utf8))
    }
    return SyncState(
      historyComplete: try row.bool("history_complete"), inProgress: try row.bool("in_progress"),
      epoch: try row.int64("id_epoch"), accounted: try row.optionalInt("accounted"),
      accountedOutgoing: try row.optionalInt("accounted_outgoing"),
      newestID: try row.optionalInt64("newest_id"), topID: try row.optionalInt64("top_id"),
      allowance: try row.int("allowance"),
      reportedTotal: try row.optionalInt("reported_total"),
      reportedAt: try row.optionalDate("reported_at"),
      lastDeepAt: try row.optionalDate("last_deep_at"), pageSize: try row.optionalInt("page_size"),
      readOn: readOn, idsRepeat: try row.bool("ids_repeat"))
  }

  /// Records how `instanceID`'s device pages: the page size that works (nil: the size asked
  /// for) and whether its ids repeat on different rows.
  public func recordPaging(instanceID: String, pageSize: Int?, idsRepeat: Bool) throws {
    try store.requireWritable()
    try database.run(
      "UPDATE message_sync_state SET page_size = ?, ids_repeat = ? WHERE instance_id = ?",
      [pageSize, idsRepeat, instanceID])
  }

  /// Records that a sync of `instanceID` stopped before the device's oldest row: at the
  /// per-device ceiling (`readOn`: where the next sync goes on; `error` nil), or because the
  /// device repeats its pages (`error` says so; no resume point). The sync stays unfinished, so
  /// the next one reads on (or reads every row again).
  public func syncStopped(instanceID: String, at: Date, readOn: SyncResume?, error: String?)
    throws
  {
    try store.requireWritable()
    let text = try readOn.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
    try database.run(
      """
      UPDATE message_sync_state SET read_on = ?, last_error = ?, last_finished_at = ?
      WHERE instance_id = ?
      """, [text, error, at, instanceID])
  }

  /// Starts a new id epoch for `instanceID`: its device's ids were renumbered (or went back).
  public func startNewEpoch(instanceID: String, instanceName: String) throws {
    try store.requireWritable()
    try database.run(
      """
      INSERT INTO message_sync_state (instance_id, instance_name, id_epoch) VALUES (?, ?, 1)
      ON CONFLICT(instance_id) DO UPDATE SET id_epoch = id_epoch + 1
      """, [instanceID, instanceName])
  }

  /// Records what a finished sync established: how many device rows are accounted for (and
  /// how many of them are outgoing) and the newest device id among them (nil: unknown, so the
  /// next sync reads everything), the total the device reported (nil: no `/api/sms/stats`),
  /// and whether every row was read.
  public func recordCheck(
    instanceID: String, accounted: Int?, accountedOutgoing: Int? = nil, newestID: Int64?,
    topID: Int64?, allowance: Int, reportedTotal: Int?, deep: Bool, at: Date
  ) throws {
    try store.requireWritable()
    try database.run(
      """
      UPDATE message_sync_state SET accounted = ?, accounted_outgoing = ?, newest_id = ?,
        top_id = ?, allowance = ?, reported_total = ?, reported_at = ?,
        last_deep_at = CASE WHEN ? THEN ? ELSE last_deep_at END, read_on = NULL
      WHERE instance_id = ?
      """,
      [
        accounted, accountedOutgoing, newestID, topID, allowance, reportedTotal, at, deep, at,
        instanceID,
      ])
  }

  /// Marks a sync of `instanceID` as started (an interrupted one leaves the mark behind).
  public func syncStarted(instanceID: String, instanceName: String, at: Date) throws {
    try store.requireWritable()
    try Self.markStarted(database, instanceID: instanceID, instanceName: instanceName, at: at)
  }

  /// ``syncStarted(instanceID:instanceName:at:)`` for every one of `instances` (id, name), in
  /// one transaction: a single commit instead of one per instance.
  public func syncStarted(_ instances: [(id: String, name: String)], at: Date) throws {
    try store.requireWritable()
    try database.transaction { database in
      for instance in instances {
        try Self.markStarted(database, instanceID: instance.id, instanceName: instance.name, at: at)
      }
    }
  }

  private static func markStarted(
    _ database: SQLiteDatabase, instanceID: String, instanceName: String, at: Date
  ) throws {
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
          last_finished_at = ?, last_ok_at = last_started_at WHERE instance_id = ?
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
        COALESCE(s.history_complete, 0) AS complete, s.last_finished_at, s.reported_total,
        s.accounted
      FROM messages m LEFT JOIN instances i ON i.id = m.instance_id
        LEFT JOIN message_sync_state s ON s.instance_id = m.instance_id
      GROUP BY m.instance_id ORDER BY name
      """
    ).map { row in
      ArchiveStats.PerInstance(
        instanceID: try row.string("instance_id"), instanceName: try row.string("name"),
        count: try row.int("n"), historyComplete: try row.bool("complete"),
        lastSyncedAt: try row.optionalDate("last_finished_at"),
        deviceReported: try row.optionalInt("reported_total"),
        onDevice: try row.optionalInt("accounted"))
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
      instances: perInstance, outbox: outbox, waitingForIndex: try waitingForIndex())
  }
}

extension Row {
  /// The value in column `index` (in result order) as `T`; throws, as the by-name accessors
  /// do, when there is no such column or it holds another type.
  fileprivate func at<T: SQLiteBindable>(_ index: Int) throws(SQLiteError) -> T {
    guard values.indices.contains(index) else {
      throw SQLiteError(
        code: SQLiteError.misuseCode, message: "no column \(index) in the result")
    }
    guard let typed = T.fromSQLite(values[index]) else {
      throw SQLiteError(
        code: SQLiteError.mismatchCode,
        message: "column \(columns[index]) holds \(values[index].typeName), not \(T.self)")
    }
    return typed
  }

  /// ``at(_:)`` for a column that may be NULL; spelled out rather than through `Optional`'s
  /// conditional conformance, which looked up generic metadata for every value (a page of
  /// 50 reads 150 of them).
  fileprivate func optionalAt<T: SQLiteBindable>(_ index: Int) throws(SQLiteError) -> T? {
    if values.indices.contains(index), case .null = values[index] { return nil }
    return try at(index) as T
  }
}
