import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminClient

/// How one instance's sync ended.
public struct InstanceSyncResult: Sendable, Equatable, Codable {
  /// The instance id.
  public var instanceID: String
  /// The instance name.
  public var instanceName: String
  /// Messages newly archived.
  public var inserted: Int
  /// Messages read from the device.
  public var read: Int
  /// Pages requested.
  public var pages: Int
  /// Whether this run read back to the oldest message (or stopped at known ones).
  public var completed: Bool
  /// The failure's catalogue key in SimAdminClient's catalogue (or Messages' own
  /// `sync.repeatsPages`: the device repeats its pages), nil on success.
  public var failureKey: String?
  /// The failure in English (device text untranslated), nil on success.
  public var failure: String?
  /// Why every device row was read this time (``MessageSyncer/DeepRead``), nil when the
  /// completeness check found everything accounted for after the newest page.
  public var deepRead: String? = nil
  /// The total the device reported (`/api/sms/stats`), nil where it has no such route.
  public var reportedTotal: Int? = nil
  /// Entries of the device's list this sync could not read (not an object, no id that is an
  /// integer in Int64, or a single row over the response limit); they are counted as device
  /// rows, never archived.
  public var unreadable: Int = 0
  /// Why the read stopped before the device's oldest row without failing (``Stop``), nil
  /// when it did not.
  public var stopped: Stop? = nil
  /// Whether this sync went on with a read an earlier sync stopped at the ceiling.
  public var readOn: Bool = false

  /// Why a read stopped early without failing.
  public enum Stop: String, Sendable, Codable {
    /// The per-device ceiling (`--max-per-device`): what was read is kept, the next sync
    /// reads on from there.
    case ceiling
  }

  /// The ceiling the read stopped at (with ``Stop/ceiling``).
  public var ceiling: Int? = nil

  /// The failure in every language, keyed by language code (a device's own text stays as
  /// it was sent); made when the failure happens, so views and progress lines show it in
  /// theirs with every placeholder filled.
  public var failureTexts: [String: String]? = nil

  enum CodingKeys: String, CodingKey {
    case instanceID, instanceName, inserted, read, pages, completed, failureKey, failure
    case deepRead, reportedTotal, unreadable, stopped, readOn, ceiling
  }

  enum ReasonKeys: String, CodingKey {
    case reason, code, message
  }

  /// Encodes the fields; for a failure, `reason`: `{"code": "timeout", "message": …}`, and for
  /// a read stopped at the ceiling, `stopped`: `{"code": "ceiling", "message": …}`, each
  /// message in the output's language.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(instanceID, forKey: .instanceID)
    try container.encode(instanceName, forKey: .instanceName)
    try container.encode(inserted, forKey: .inserted)
    try container.encode(read, forKey: .read)
    try container.encode(pages, forKey: .pages)
    try container.encode(completed, forKey: .completed)
    try container.encode(unreadable, forKey: .unreadable)
    try container.encodeIfPresent(deepRead, forKey: .deepRead)
    if readOn { try container.encode(readOn, forKey: .readOn) }
    try container.encodeIfPresent(failureKey, forKey: .failureKey)
    try container.encodeIfPresent(failure, forKey: .failure)
    let language = AppLanguage.of(encoder)
    if let message = failureText(language) {
      var outer = encoder.container(keyedBy: ReasonKeys.self)
      var reason = outer.nestedContainer(keyedBy: ReasonKeys.self, forKey: .reason)
      try reason.encode(MessagesLog.reasonCode(failureKey), forKey: .code)
      try reason.encode(message, forKey: .message)
    }
    if let stopped, let message = stoppedText(language) {
      var stop = container.nestedContainer(keyedBy: ReasonKeys.self, forKey: .stopped)
      try stop.encode(stopped.rawValue, forKey: .code)
      try stop.encode(message, forKey: .message)
    }
  }

  /// Why the read stopped early, in `language`; nil when it did not.
  public func stoppedText(_ language: AppLanguage) -> String? {
    guard stopped == .ceiling else { return nil }
    return MessagesStrings.text(
      "sync.stoppedCeiling", language,
      ["count": String(read), "ceiling": String(ceiling ?? read)])
  }

  /// The failure in `language`, nil on success.
  public func failureText(_ language: AppLanguage) -> String? {
    failureTexts?[language.rawValue] ?? failure
  }

  mutating func fail(key: String, _ message: (AppLanguage) -> String) {
    failureKey = key
    failure = message(.english)
    var texts: [String: String] = [:]
    for language in AppLanguage.allCases { texts[language.rawValue] = message(language) }
    failureTexts = texts
  }
}

/// Pulls every instance's SMS into the archive, every device row exactly once.
///
/// Each instance is paged newest first with `limit`/`offset`. Consecutive pages overlap by
/// ``overlap`` messages; the oldest message of one page (the anchor) must reappear in, or be
/// newer than the start of, the next page, otherwise messages were deleted between pages and
/// the offset moved past some: the syncer steps back and reads again (after repeated misses
/// it starts over from offset 0, which is safe because archiving is idempotent). New messages
/// arriving between pages only push older ones to later offsets, which re-reads a few known
/// messages.
///
/// **Completeness.** A *deep read* reads every row of the device, in pages of ``pageSize``:
/// on the first sync, after an interrupted one, with ``full``, and whenever the check below
/// finds a device row unaccounted for. Otherwise a later sync sends `GET /api/sms/stats` and a
/// first page of ``laterFirstPage`` together (one round trip), pages on only while every row
/// is new, and then checks, against what the last sync accounted for (`accounted` rows, the
/// newest device id `M` among them):
///
/// 1. *ids*: SimAdmin's ids only grow until a reset, so every id between `M` and the newest id
///    read must have been read; a missing one is a row stamped older than the newest page (a
///    late or clock-reset message) or one deleted right after it arrived → deep read. A newest
///    id below `M`, or an id that comes back with other content, means the ids were renumbered
///    → new id epoch, deep read.
/// 2. *count*, in all and per direction: the device's `total`, its `outgoing` and its
///    incoming rows (`total − outgoing`: the stats' own `incoming` counts only status
///    `received`, and a row's direction never changes while a status might) must not exceed
///    what the last sync accounted for plus the rows this sync found, in the same class; more
///    in any class means a row the pages did not show (so a late incoming message hides no
///    longer behind an outgoing one deleted in the same interval), or one that arrived after
///    the page was answered: the first page is read once more, and what is still unaccounted
///    for → deep read. Fewer in some class means rows were deleted on the device (kept in the
///    archive) or rows arrived between the two answers: the counts are asked once more, after
///    the pages (a second round trip, only then), so they count every row the pages showed;
///    what is still short was deleted: accepted, `accounted` becomes those counts. Only when
///    that second answer fails (or a re-read page found more) does the next sync allow the
///    shortfall (at most the rows found this time) as having been counted late — an allowance
///    that could hide a late message.
/// 3. *time*: every row is read at least every ``deepReadInterval`` (every
///    ``deepReadIntervalWithoutStats`` on a device without `/api/sms/stats`), which bounds the
///    one case no cheap signal shows: a row deleted and a late message of the same direction
///    that sorts below the first page, in the same interval — every count and every id the
///    pages show is as expected; the next message after it exposes it by rule 1.
///
/// A device without `/api/sms/stats` (plain-text 404 on old versions, or any failure of that
/// call) is checked by rules 1 and 3.
///
/// **Bounds** (issue 36: a device's answers are untrusted). A read of one device ends, besides
/// at a short page:
///
/// - when a full page brings no row new in this sync (a device that ignores `offset` and
///   answers its first page again and again): the row fails with "repeats the same page",
///   what was read is kept;
/// - at ``maxPerDevice`` entries (a device that invents rows forever, or a history larger
///   than the ceiling): what was read is kept, the row says it stopped at the ceiling, and
///   the next sync first reads the rows that came meanwhile and then reads on from where it
///   stopped (``SyncResume``), accounting the device only once it has reached the oldest row.
///
/// A page too large for the response limit is asked again at half the size until it fits (a
/// single row too large is skipped and counted unreadable); the size that worked is kept for
/// the device. Entries that cannot be read (not an object, no id that is an integer in Int64)
/// count towards a page's length and the device's rows, never as a short page. A device that
/// lists one id on rows of different content is marked so: its rows are matched by content
/// and its ids prove nothing (rule 1 is skipped), so it is not taken for renumbered at every
/// sync.
///
/// The instances' pages go into the archive through one ``IngestQueue``, so the concurrent
/// syncs share transactions instead of committing a page each.
public struct MessageSyncer: Sendable {
  /// Why a sync read every row of a device.
  public enum DeepRead: String, Sendable, Codable {
    /// Never synced completely before.
    case first
    /// The last sync was interrupted or failed.
    case interrupted
    /// Asked for (`messages sync --full`).
    case full
    /// More rows than accounted for, or a device id not read (rules 1 and 2).
    case unaccounted
    /// The device's ids were renumbered or went back.
    case renumbered
    /// The last deep read is older than the interval (rule 3).
    case periodic
  }

  /// Where messages go.
  public let archive: MessageArchive
  /// The device sessions.
  public let connector: SimAdminConnector
  /// Messages per page (`limit`), default 1,000 (what SimAdmin's own web page asks for).
  public let pageSize: Int
  /// How many instances sync at once.
  public let width: Int
  /// The clock stamping `synced_at`.
  public let clock: AppClock
  /// Whether every sync reads every row (`messages sync --full`).
  public let full: Bool
  /// The first failure of the database file itself (damaged, read-only, full) a sync met:
  /// this computer's, not a device's. The instance's result says so; the command stops
  /// with it, once (``SQLiteError/isFileFailure``).
  public let localFailure = Locked<SQLiteError?>(nil)
  /// How many entries of its list one sync reads from one device at most
  /// (`--max-per-device`); a read that reaches it keeps what it read and the next sync reads
  /// on from there.
  public let maxPerDevice: Int
  /// Told after every page of every instance (and once when its read ends): what a progress
  /// line shows.
  public let reading: (@Sendable (Reading) -> Void)?

  /// The default ceiling: far above any real device's history (a SimAdmin device keeps its
  /// SMS in SQLite on a small board; a first sync of 200,000 rows takes minutes).
  public static let defaultMaxPerDevice = 200_000

  /// How far one instance's read has got.
  public struct Reading: Sendable, Equatable {
    /// The instance id.
    public var instanceID: String
    /// The instance name.
    public var instanceName: String
    /// Entries of the device's list read so far.
    public var rows: Int
    /// Whether the read of this instance has ended.
    public var finished: Bool
  }

  /// A syncer.
  public init(
    archive: MessageArchive, connector: SimAdminConnector, pageSize: Int = 1000, width: Int = 8,
    clock: AppClock, full: Bool = false, maxPerDevice: Int = MessageSyncer.defaultMaxPerDevice,
    reading: (@Sendable (Reading) -> Void)? = nil
  ) {
    self.archive = archive
    self.connector = connector
    self.pageSize = max(2, pageSize)
    self.width = max(1, width)
    self.clock = clock
    self.full = full
    self.maxPerDevice = max(1, maxPerDevice)
    self.reading = reading
  }

  /// The failure key of an instance's result when the database file failed.
  public static let localFailureKey = "error.localStore"

  /// Messages each page re-reads from the previous one: a tenth of a page, at most 20.
  public var overlap: Int { min(20, max(1, pageSize / 10)) }

  /// The first page of a later sync: at most 20, since most later syncs find a few new ones
  /// (a device with more pages on in pages of ``pageSize``; every row the check needs is read
  /// either way). Every row of it is decoded and matched, so a smaller page is less work.
  public var laterFirstPage: Int { min(20, pageSize) }

  /// How many stored messages a sync may leave waiting for the search index: a later sync's
  /// few new rows wait (searches scan them, `messages stats` counts them) and the next sync
  /// indexes them while its requests are out; more than this are indexed before it ends.
  public static let indexBacklog = 5_000

  /// Whether a sync that ended with `results` may leave the `waiting` messages for the next
  /// sync to index: only after a later sync of every instance (no deep read: a first sync
  /// indexes everything before it ends), and only up to ``indexBacklog``.
  public static func leavesIndexBacklog(_ results: [InstanceSyncResult], waiting: Int) -> Bool {
    waiting <= indexBacklog && results.allSatisfy { $0.deepRead == nil }
  }

  /// How often every row of a device with `/api/sms/stats` is read at the latest: a day.
  public static let deepReadInterval: TimeInterval = 86_400

  /// The same for a device without it: an hour.
  public static let deepReadIntervalWithoutStats: TimeInterval = 3_600

  /// Syncs `instances` concurrently (at most ``width`` at a time); `progress` is called as
  /// each finishes with (finished count, total, result). Results come back in input order.
  public func sync(
    _ instances: [Instance],
    progress: @escaping @Sendable (Int, Int, InstanceSyncResult) -> Void = { _, _, _ in }
  ) async -> [InstanceSyncResult] {
    var results = [InstanceSyncResult?](repeating: nil, count: instances.count)
    // The writer indexes what it stored while it waits for pages (see IngestQueue).
    let queue = IngestQueue(archive: archive, followingIndex: !archive.store.isReadOnly)
    let writer = SyncStateWriter(archive: archive)
    let prepared = prepare(instances)
    // Once the first instances' requests are out, the writer indexes what earlier syncs left
    // waiting for the search index (``indexBacklog``) while the devices answer.
    let backlog = Locked<Task<Void, Never>?>(nil)
    let backlogTop =
      archive.store.isReadOnly
      ? nil : try? archive.database.queryOne("SELECT max(id) AS top FROM messages")?.int64("top")
    let firstWave = min(width, instances.count)
    let requested = Locked(0)
    let requestsOut: @Sendable () -> Void = {
      guard let backlogTop else { return }
      let all = requested.withLock { count -> Bool in
        count += 1
        return count == firstWave
      }
      if all { backlog.withLock { $0 = Task.detached { queue.indexWaiting(through: backlogTop) } } }
    }
    await withTaskGroup(of: (Int, InstanceSyncResult).self) { group in
      var next = 0
      var finished = 0
      func launch() {
        let index = next
        let instance = instances[index]
        let ready = prepared?[instance.id]
        group.addTask {
          (
            index,
            await syncOne(
              instance, through: queue, writer: writer, prepared: ready,
              requestsOut: index < firstWave ? requestsOut : {})
          )
        }
        next += 1
      }
      while next < firstWave { launch() }
      for await (index, result) in group {
        results[index] = result
        finished += 1
        progress(finished, instances.count, result)
        if next < instances.count { launch() }
      }
    }
    await backlog.withLock { $0 }?.value
    return results.compactMap { $0 }
  }

  /// Syncs one instance; failures are reported in the result, never thrown.
  public func syncOne(_ instance: Instance) async -> InstanceSyncResult {
    await syncOne(
      instance, through: IngestQueue(archive: archive),
      writer: SyncStateWriter(archive: archive), prepared: nil, requestsOut: {})
  }

  /// What a sync knows of an instance before it sends anything: its sync state (nil: never
  /// synced) and its SIM number, read for every instance at once, and the mark that its sync
  /// started already written.
  struct Prepared: Sendable {
    var state: SyncState?
    var simNumber: String?
  }

  /// Reads every instance's sync state and SIM number and marks every sync as started, in one
  /// read and one transaction, so that no instance's requests wait behind the others'
  /// database work: a later sync sends the whole fleet's first requests at once. Nil when any
  /// of it fails: each instance then does it on its own, and a failure stays on its row.
  func prepare(_ instances: [Instance]) -> [String: Prepared]? {
    guard !instances.isEmpty, !archive.store.isReadOnly else { return nil }
    do {
      let states = try archive.syncStates()
      var prepared: [String: Prepared] = [:]
      for instance in instances {
        prepared[instance.id] = Prepared(
          state: states[instance.id],
          simNumber: try archive.knownSIMNumber(instanceID: instance.id))
      }
      // The sync state keeps the instance's latest name, which its messages show once the
      // instance is deleted; no message row is rewritten for a rename.
      try archive.syncStarted(instances.map { ($0.id, $0.name) }, at: clock.now())
      return prepared
    } catch {
      return nil
    }
  }

  /// What one sync has read: the ids, and how many rows were new to the archive's accounting.
  struct Tally {
    var ids = Set<Int64>()
    /// The outgoing ones among ``ids``.
    var outgoingIDs = Set<Int64>()
    var found = 0
    /// The outgoing ones among ``found``.
    var foundOutgoing = 0
    var renumbered = false
    /// Whether the pages read reached the end of the device's list (a page shorter than
    /// asked for): every row was read.
    var reachedEnd = false
    /// The newest id among the first page's (offset 0) first `window` entries: the rows a
    /// later sync's first page holds.
    var top: Int64?

    /// Counts `page`, read at `offset`. Only the first `window` entries of the first page
    /// (``MessageSyncer/laterFirstPage`` at the page size) make ``top``: a late message stamped
    /// below them has the newest id, and a later sync's first page, which cannot show it, must
    /// not take its smaller newest id for a renumbering.
    mutating func add(_ page: Fetched, offset: Int, window: Int) {
      for message in page.messages {
        ids.insert(message.id)
        if message.isOutgoing { outgoingIDs.insert(message.id) }
      }
      guard offset == 0 else { return }
      let shown = page.messages.indices.lazy
        .filter { page.position(ofMessage: $0) < window }
        .map { page.messages[$0].id }
      top = max(top ?? 0, shown.max() ?? 0)
    }

    mutating func add(_ ingest: IngestResult) {
      found += ingest.inserted + ingest.claimed
      foundOutgoing += ingest.foundOutgoing
      renumbered = renumbered || ingest.renumbered
    }

    /// Unreadable entries among the new rows (above the first archived one): device rows too,
    /// of no known direction or id.
    var foundUnreadable = 0

    /// What the archive expects the device to count now: what the last sync accounted for
    /// plus what this one found, per direction where the last sync recorded it (and no new
    /// row was unreadable, whose direction is unknown).
    func expected(accounted: Int, outgoing: Int?) -> DeviceCounts {
      DeviceCounts(
        total: accounted + found + foundUnreadable,
        outgoing: foundUnreadable > 0 ? nil : outgoing.map { $0 + foundOutgoing })
    }
  }

  /// Row counts of one device: all rows, and the outgoing ones (nil: not known). The incoming
  /// ones are the rest: `/api/sms/stats`' own `incoming` counts only status `received`, so a
  /// status change (SimAdmin never makes one, a later version might mark rows read) would
  /// look like a row gone and another come; a row's direction never changes.
  struct DeviceCounts: Equatable {
    var total: Int
    var outgoing: Int?
    var incoming: Int? { outgoing.map { total - $0 } }

    /// From `/api/sms/stats`; the outgoing count only when it is consistent with the total.
    init(_ stats: SmsStats) {
      total = Int(clamping: stats.total)
      let outgoing = Int(clamping: stats.outgoing)
      self.outgoing = outgoing >= 0 && outgoing <= total ? outgoing : nil
    }

    init(total: Int, outgoing: Int?) {
      self.total = total
      self.outgoing = outgoing
    }

    /// Whether the device counts more rows than `expected` allows in any class (all rows,
    /// incoming, outgoing; a class either side does not know is skipped).
    func exceeds(_ expected: DeviceCounts, allowance: Int) -> Bool {
      if total > expected.total + allowance { return true }
      guard let outgoing, let incoming, let expectedOutgoing = expected.outgoing,
        let expectedIncoming = expected.incoming
      else { return false }
      return outgoing > expectedOutgoing + allowance || incoming > expectedIncoming + allowance
    }

    /// Whether the device counts fewer rows than `expected` in any class.
    func short(of expected: DeviceCounts, allowance: Int) -> Bool {
      if total < expected.total + allowance { return true }
      guard let outgoing, let incoming, let expectedOutgoing = expected.outgoing,
        let expectedIncoming = expected.incoming
      else { return false }
      return outgoing < expectedOutgoing + allowance || incoming < expectedIncoming + allowance
    }
  }

  /// How a later sync's newest pages ended.
  enum NewestEnd: Equatable {
    /// At known rows or the device's end: the check decides.
    case done
    /// The pages themselves show a reason to read every row.
    case deep(DeepRead)
    /// A full page brought nothing new in this sync.
    case repeats
    /// The ceiling: the next page would start at `offset` (below `anchor`).
    case ceiling(offset: Int, anchor: Anchor?)
  }

  /// How a read of every row ended.
  enum DeepEnd: Equatable {
    /// At the device's oldest row.
    case complete
    /// A full page brought nothing new in this sync.
    case repeats
    /// The ceiling: the next page would start at `offset` (below `anchor`).
    case ceiling(offset: Int, anchor: Anchor?)
  }

  /// Where a read of every row starts: at the top, or where an earlier sync stopped (rows
  /// older than `below` are the ones that earlier sync did not account for).
  struct Start {
    var offset = 0
    var anchor: Anchor?
    var below: Anchor?
  }

  /// What a read that goes on from a resume point finds beyond what the resume point holds.
  struct Beyond {
    var rows = 0
    var outgoing = 0
  }

  private func syncOne(
    _ instance: Instance, through queue: IngestQueue, writer: SyncStateWriter,
    prepared: Prepared?, requestsOut: @Sendable () -> Void
  ) async -> InstanceSyncResult {
    var told = false
    defer { if !told { requestsOut() } }
    var result = InstanceSyncResult(
      instanceID: instance.id, instanceName: instance.name, inserted: 0, read: 0, pages: 0,
      completed: false, failureKey: nil, failure: nil)
    let archive = archive
    let instanceID = instance.id
    var ending: [SyncStateWriter.Write] = []
    var pass = Pass(repeatsIDs: false)
    let folded = Locked(0)
    var startedAt: Date?
    defer {
      reading?(
        Reading(
          instanceID: instance.id, instanceName: instance.name, rows: result.read, finished: true))
    }
    do {
      let state = try prepared.map(\.state) ?? archive.syncState(instanceID: instance.id)
      if prepared == nil {
        // The sync state keeps the instance's latest name, which its messages show once the
        // instance is deleted; no message row is rewritten for a rename.
        try archive.syncStarted(
          instanceID: instance.id, instanceName: instance.name, at: clock.now())
      }
      let session = connector.session(
        for: instance.id, name: instance.name, origin: instance.origin.url)
      startedAt = clock.now()
      let sizing = PageSizing(size: pageSize, remembered: state?.pageSize)
      pass.repeatsIDs = state?.idsRepeat ?? false
      // A read an earlier sync stopped at the ceiling goes on (unless every row is asked for).
      let resume = full ? nil : state?.readOn
      var reason = resume.map { DeepRead(rawValue: $0.reason) ?? .interrupted } ?? deepReason(state)
      if reason == .first, let state, !state.historyComplete,
        try archive.holdsMessages(instanceID: instance.id)
      {
        // Never read through, but an earlier sync read some of it and stopped (a failure, a
        // device that repeats its pages): this read is that one again, not a first sync.
        reason = .interrupted
      }
      // A later sync's two requests go out together, before any database work.
      async let statsCall = Self.counts(session)
      let later = reason == nil
      let firstLimit = min(laterFirstPage, sizing.size)
      async let firstPage: Fetched? =
        later ? Self.fetch(session, limit: firstLimit, offset: 0, sizing: sizing) : nil
      told = true
      requestsOut()
      // The SIM's number as the instance's status knows it; a first (or unfinished) sync of
      // an instance never probed reads it from the device once and keeps it.
      var simNumber =
        try prepared.map(\.simNumber) ?? archive.knownSIMNumber(instanceID: instance.id)
      if simNumber == nil, state?.historyComplete != true {
        simNumber = (try? await session.sim())?.phoneNumbers.first { !$0.isEmpty }
        try archive.recordSIMNumber(instanceID: instance.id, number: simNumber, at: clock.now())
      }
      let target = SyncTarget(
        instance: instance, simNumber: simNumber, detector: archive.detector)
      var tally = Tally()
      // How the read stopped early (nil: it did not).
      var stop: DeepEnd?
      if reason == nil, let state, let accounted = state.accounted,
        let newest = state.newestID
      {
        let newestEnd = try await newestPages(
          session, target, newest: newest, top: state.topID, first: try await firstPage,
          queue: queue, tally: &tally, pass: &pass, sizing: sizing, into: &result)
        switch newestEnd {
        case .done: break
        case .deep(let why): reason = why
        case .repeats: stop = .repeats
        case .ceiling(let offset, let anchor): stop = .ceiling(offset: offset, anchor: anchor)
        }
        if stop == nil {
          let outgoing = state.accountedOutgoing
          var counts = await statsCall
          // Whether `counts` were asked after the pages were read (not together with them).
          var settled = false
          if reason == nil, let counted = counts,
            counted.short(
              of: tally.expected(accounted: accounted, outgoing: outgoing),
              allowance: state.allowance)
          {
            // Fewer rows than expected in some direction: rows deleted on the device, or rows
            // that came between the two answers sent together. Asked again now that the pages
            // are read, the counts include every row they showed, so what is still short was
            // deleted, and nothing is left to allow next time (an allowance there would hide a
            // late message).
            if let again = await Self.counts(session) {
              counts = again
              settled = true
            }
          }
          result.reportedTotal = counts?.total
          var reread = false
          if reason == nil, let counts,
            counts.exceeds(
              tally.expected(accounted: accounted, outgoing: outgoing),
              allowance: state.allowance)
          {
            // More rows than accounted for (in all, or in one direction: a late message and a
            // delete in the other direction): first re-read the newest page, now that the
            // counts are known, for messages that arrived after the first page was answered.
            reread = true
            pass = pass.restarted()
            switch try await newestPages(
              session, target, newest: newest, top: nil, queue: queue, tally: &tally,
              pass: &pass, sizing: sizing, into: &result)
            {
            case .done: break
            case .deep(let why): reason = why
            case .repeats: stop = .repeats
            case .ceiling(let offset, let anchor): stop = .ceiling(offset: offset, anchor: anchor)
            }
          }
          if reason == nil, stop == nil {
            reason = Self.check(
              tally, accounted: accounted, outgoing: outgoing, newest: newest, counts: counts,
              allowance: state.allowance, trustsIDs: !pass.repeatsIDs)
          }
          if reason == nil, stop == nil {
            result.completed = true
            let expected = tally.expected(accounted: accounted, outgoing: outgoing)
            let shortfall = counts.map { expected.total - $0.total } ?? 0
            let allowance = settled && !reread ? 0 : min(max(0, shortfall), tally.found)
            let accountedNow = counts?.total ?? expected.total
            let outgoingNow =
              tally.foundUnreadable > 0 ? nil : counts.map(\.outgoing) ?? expected.outgoing
            let newestNow = max(newest, tally.ids.max() ?? newest)
            let (top, reported, now) = (tally.top, counts?.total, clock.now())
            if tally.reachedEnd, !tally.renumbered, !pass.repeatsIDs {
              // Every row was read: rows back under new ids (a restored backup) are folded.
              let seen = tally.ids
              ending.append { archive in
                let count = try archive.settleReappearances(
                  instanceID: instanceID, seen: seen, newestBefore: newest)
                folded.withLock { $0 = count }
              }
            }
            ending.append { archive in
              try archive.recordCheck(
                instanceID: instanceID, accounted: accountedNow, accountedOutgoing: outgoingNow,
                newestID: newestNow, topID: top, allowance: allowance, reportedTotal: reported,
                deep: false, at: now)
            }
          }
        }
      }
      // A later sync that stopped at the ceiling reads every row from where it stopped.
      var readOn: SyncResume?
      if case .ceiling(let offset, let anchor) = stop {
        readOn = resumePoint(
          .unaccounted, offset: offset, anchor: anchor, tally: tally, pass: pass, from: nil,
          beyond: Beyond(), unreadableBeyond: pass.unreadable,
          settleBelow: tally.renumbered ? nil : state?.newestID)
      }
      if stop == nil, let reason {
        result.deepRead = reason.rawValue
        tally = Tally()
        pass = pass.restarted()
        var start = Start()
        // A read that goes on: first the rows that came at the top meanwhile (until a page
        // holds archived rows), then on from where it stopped, moved down by them.
        var topFound = (rows: 0, outgoing: 0, unreadable: 0)
        if let resume {
          result.readOn = true
          let topEnd = try await newestPages(
            session, target, newest: nil, top: nil, queue: queue, tally: &tally, pass: &pass,
            sizing: sizing, into: &result)
          topFound = (tally.found, tally.foundOutgoing, tally.foundUnreadable)
          switch topEnd {
          case .done
          where resume.anchorID != nil && resume.anchorTimestamp != nil:
            let anchor = Anchor(
              timestamp: resume.anchorTimestamp ?? "", id: resume.anchorID ?? 0)
            start = Start(offset: resume.offset + topFound.rows, anchor: anchor, below: anchor)
          case .done, .deep:
            // A gap among the newest pages: read every row from the top.
            result.readOn = false
            tally = Tally()
            pass = pass.restarted()
          case .repeats: stop = .repeats
          case .ceiling(let offset, let anchor):
            // Still more new rows than the ceiling: the point read on from moves down by them.
            stop = .ceiling(offset: offset, anchor: anchor)
            readOn = resume
            readOn?.offset += topFound.rows
            readOn?.accounted += topFound.rows + topFound.unreadable
            readOn?.outgoing += topFound.outgoing
            readOn?.unreadable += topFound.unreadable
            if let seen = resume.seen, resume.settleBelow != nil, !pass.repeatsIDs {
              readOn?.seen = SyncResume.ranges(adding: tally.ids, to: seen)
            } else {
              readOn?.settleBelow = nil
              readOn?.seen = nil
            }
          }
        }
        if stop == nil {
          let (end, beyond, fromTop) = try await deepRead(
            session, target, hashing: state?.historyComplete != true, queue: queue,
            tally: &tally, pass: &pass, sizing: sizing, from: start, into: &result)
          let startedBelow = fromTop ? nil : resume
          if fromTop { result.readOn = false }
          let unreadableBeyond =
            startedBelow == nil
            ? pass.unreadable
            : topFound.unreadable
              + pass.unreadableOffsets.count {
                $0 >= start.offset + Self.overlap(for: sizing.size)
              }
          var journey = beyond
          if startedBelow != nil {
            journey.rows += topFound.rows
            journey.outgoing += topFound.outgoing
          }
          switch end {
          case .complete:
            let total = await statsCall?.total
            result.reportedTotal = total
            result.completed = true
            let point = resumePoint(
              reason, offset: 0, anchor: nil, tally: tally, pass: pass, from: startedBelow,
              beyond: journey, unreadableBeyond: unreadableBeyond)
            // A renumbering met during the read mixes two epochs' ids: account again next
            // time.
            let renumbered = point.renumbered
            let (now, sawRepeat) = (clock.now(), pass.sawRepeatedID)
            let outgoing = point.unreadable > 0 ? nil : point.outgoing
            ending = []
            if !renumbered, startedBelow == nil, !pass.repeatsIDs,
              state?.historyComplete == true, let before = state?.newestID
            {
              // Rows that came back under new ids (a backup restored on the device) are
              // folded into the archived messages they were
              // (``MessageArchive/settleReappearances``).
              let seen = tally.ids
              ending.append { archive in
                let count = try archive.settleReappearances(
                  instanceID: instanceID, seen: seen, newestBefore: before)
                folded.withLock { $0 = count }
              }
            } else if !renumbered, startedBelow != nil, !pass.repeatsIDs,
              let before = point.settleBelow, let ranges = point.seen,
              let seen = SyncResume.ids(in: ranges)
            {
              // A read that went on over several syncs folds them too, against the ids every
              // one of those syncs saw (kept with the resume point) and the newest id
              // accounted for before it began.
              ending.append { archive in
                let count = try archive.settleReappearances(
                  instanceID: instanceID, seen: seen, newestBefore: before)
                folded.withLock { $0 = count }
              }
            }
            ending += [
              { archive in
                try archive.recordCheck(
                  instanceID: instanceID, accounted: renumbered ? nil : point.accounted,
                  accountedOutgoing: renumbered ? nil : outgoing,
                  newestID: renumbered ? nil : point.newestID ?? 0, topID: point.topID,
                  allowance: 0, reportedTotal: total, deep: true, at: now)
              }
            ]
            // A read of every row that met no repeated id clears the mark.
            if !sawRepeat { pass.repeatsIDs = false }
          case .repeats:
            stop = .repeats
          case .ceiling(let offset, let anchor):
            stop = .ceiling(offset: offset, anchor: anchor)
            readOn = resumePoint(
              reason, offset: offset, anchor: anchor, tally: tally, pass: pass,
              from: startedBelow, beyond: journey, unreadableBeyond: unreadableBeyond,
              settleBelow: state?.historyComplete == true && !tally.renumbered
                ? state?.newestID : nil)
          }
        }
      }
      result.unreadable = pass.unreadable
      let now = clock.now()
      switch stop {
      case nil:
        ending.append { try $0.syncFinished(instanceID: instanceID, at: now, error: nil) }
      case .repeats?:
        // What was read is kept; the next sync reads every row again (and stops again).
        result.completed = false
        let (count, new) = (result.read, result.inserted)
        result.fail(key: "sync.repeatsPages") {
          MessagesStrings.text(
            "sync.repeatsPages", $0, ["count": String(count), "new": String(new)])
        }
        let text = result.failure
        ending = [
          { try $0.syncStopped(instanceID: instanceID, at: now, readOn: nil, error: text) }
        ]
      case .ceiling?, .complete?:  // (`.complete` is never a stop)
        result.completed = false
        result.stopped = .ceiling
        result.ceiling = maxPerDevice
        let point = readOn
        ending = [
          { try $0.syncStopped(instanceID: instanceID, at: now, readOn: point, error: nil) }
        ]
      }
      let remembered = sizing.remembered
      let idsRepeat = pass.repeatsIDs
      if remembered != state?.pageSize || idsRepeat != (state?.idsRepeat ?? false) {
        ending.append {
          try $0.recordPaging(instanceID: instanceID, pageSize: remembered, idsRepeat: idsRepeat)
        }
      }
      // The check and the end are written together, with other instances' (one commit).
      try await writer.write(ending)
      result.inserted -= folded.withLock { $0 }
      if result.inserted > 0, let startedAt {
        await refreshSIMNumber(session, instance: instance, since: startedAt)
      }
    } catch let failure as SimAdminFailure {
      result.unreadable = pass.unreadable
      result.fail(key: failure.reasonKey, failure.error.localizedMessage)
      await failed(instanceID, result.failure, writer)
    } catch let error as SQLiteError where error.isFileFailure {
      // The database failed, not the device: nothing is recorded against the instance.
      localFailure.withLock { $0 = $0 ?? error }
      result.fail(key: Self.localFailureKey, error.localizedMessage)
    } catch {
      result.unreadable = pass.unreadable
      result.fail(key: "error.other") { UserFacingMessage.of(error, $0) }
      await failed(instanceID, result.failure, writer)
    }
    return result
  }

  /// What a read of every row has accounted for when it stops at `offset` (or, with offset 0
  /// and no anchor, when it ends): the rows of this pass, or, for a read that went on from
  /// `from`, what that point held plus the rows beyond it.
  ///
  /// `settleBelow` (a read that begins here, of a device read through before: the newest id
  /// the last complete read accounted for) lets the read, once it reaches the oldest row, fold
  /// the rows a restored backup brought back under new ids (``SyncResume/settleBelow``); the
  /// ids seen so far go with it. A read that goes on carries both on.
  func resumePoint(
    _ reason: DeepRead, offset: Int, anchor: Anchor?, tally: Tally, pass: Pass,
    from earlier: SyncResume?, beyond: Beyond, unreadableBeyond: Int, settleBelow: Int64? = nil
  ) -> SyncResume {
    let newest = tally.ids.max()
    guard let earlier else {
      let rows = pass.repeatsIDs ? pass.rows.count : tally.ids.count
      let outgoing = pass.repeatsIDs ? pass.outgoingRows : tally.outgoingIDs.count
      var point = SyncResume(
        reason: reason.rawValue, offset: offset, anchorTimestamp: anchor?.timestamp,
        anchorID: anchor?.id, accounted: rows + unreadableBeyond, outgoing: outgoing,
        unreadable: unreadableBeyond, newestID: newest, topID: tally.top,
        renumbered: tally.renumbered)
      if let settleBelow, !pass.repeatsIDs, offset > 0 {
        point.settleBelow = settleBelow
        point.seen = SyncResume.ranges(adding: tally.ids, to: [])
      }
      return point
    }
    var point = SyncResume(
      reason: earlier.reason, offset: offset, anchorTimestamp: anchor?.timestamp,
      anchorID: anchor?.id, accounted: earlier.accounted + beyond.rows + unreadableBeyond,
      outgoing: earlier.outgoing + beyond.outgoing,
      unreadable: earlier.unreadable + unreadableBeyond,
      newestID: [earlier.newestID, newest].compactMap { $0 }.max(),
      topID: tally.top ?? earlier.topID, renumbered: earlier.renumbered || tally.renumbered)
    if let below = earlier.settleBelow, let seen = earlier.seen, !pass.repeatsIDs {
      point.settleBelow = below
      point.seen = SyncResume.ranges(adding: tally.ids, to: seen)
    }
    return point
  }

  /// How old the SIM number msa knows for an instance may be when a sync archives new
  /// messages before the sync reads it from the device again (`/api/sim`): ten minutes.
  public static let simNumberFreshness: TimeInterval = 600

  /// After a sync that archived new messages: when the SIM number they were stamped with is
  /// older than ``simNumberFreshness``, reads it from the device once; a different number
  /// (a SIM swap) is given to the messages this sync first archived and kept for the next
  /// (issue 29 point 8). Best effort: a failure keeps what was stamped.
  private func refreshSIMNumber(_ session: SimAdminSession, instance: Instance, since: Date) async {
    guard !archive.store.isReadOnly,
      let known = try? archive.simNumberKnowledge(instanceID: instance.id),
      clock.now().timeIntervalSince(known.at ?? .distantPast) > Self.simNumberFreshness,
      let sim = try? await session.sim()
    else { return }
    let now = clock.now()
    guard let number = sim.phoneNumbers.first(where: { !$0.isEmpty }) else {
      try? archive.recordSIMNumber(instanceID: instance.id, number: known.number, at: now)
      return
    }
    _ = try? archive.restampSIMNumber(
      instanceID: instance.id, number: number, since: since, at: now)
  }

  /// Records that the sync of `instanceID` failed with `error` (best effort: the sync's own
  /// failure is what the result reports).
  private func failed(_ instanceID: String, _ error: String?, _ writer: SyncStateWriter) async {
    let now = clock.now()
    try? await writer.write([
      { try $0.syncFinished(instanceID: instanceID, at: now, error: error) }
    ])
  }

  /// The instance being synced and what its new messages keep of it.
  struct SyncTarget {
    var instance: Instance
    var simNumber: String?
    /// The archive's code detector (a page hashed when read has its codes extracted too).
    var detector: CodeDetector
    var id: String { instance.id }
    var name: String { instance.name }

    func page(
      _ messages: [SmsMessage], at date: Date, hashingNow: Bool = false, trustsIDs: Bool = true
    ) -> IngestPage {
      var page = IngestPage(
        messages: messages, instanceID: instance.id, instanceName: instance.name, syncedAt: date,
        simNumber: simNumber, hashingNow: hashingNow, detector: detector)
      page.trustsIDs = trustsIDs
      return page
    }
  }

  /// Why this sync must read every row before it sends anything, or nil.
  func deepReason(_ state: SyncState?) -> DeepRead? {
    guard let state, state.historyComplete, state.accounted != nil, state.newestID != nil
    else { return .first }
    if state.inProgress { return .interrupted }
    if full { return .full }
    let interval =
      state.reportedTotal == nil ? Self.deepReadIntervalWithoutStats : Self.deepReadInterval
    guard let last = state.lastDeepAt, clock.now().timeIntervalSince(last) < interval else {
      return .periodic
    }
    return nil
  }

  /// Rules 1 and 2 (see the type's documentation) after the newest pages; rule 1 only for a
  /// device whose ids tell its rows apart, and allowing as many missing ids as new rows were
  /// unreadable.
  static func check(
    _ tally: Tally, accounted: Int, outgoing: Int? = nil, newest: Int64, counts: DeviceCounts?,
    allowance: Int = 0, trustsIDs: Bool = true
  ) -> DeepRead? {
    if tally.renumbered { return .renumbered }
    if trustsIDs, let top = tally.ids.max(), top > newest {
      let between = tally.ids.count { $0 > newest }
      if top - newest > Int64(between + tally.foundUnreadable) { return .unaccounted }
    }
    if let counts,
      counts.exceeds(tally.expected(accounted: accounted, outgoing: outgoing), allowance: allowance)
    {
      return .unaccounted
    }
    return nil
  }

  /// The device's `/api/sms/stats` counts, nil where the call fails (old versions answer a
  /// plain-text 404): the check then goes by ids and time alone.
  static func counts(_ session: SimAdminSession) async -> DeviceCounts? {
    guard let stats = try? await session.smsStats() else { return nil }
    return DeviceCounts(stats)
  }

  /// Tells ``reading`` how far the read of `instance` has got.
  private func report(_ instance: SyncTarget, _ result: InstanceSyncResult) {
    reading?(
      Reading(
        instanceID: instance.id, instanceName: instance.name, rows: result.read, finished: false))
  }

  /// A later sync's newest pages: a first page of ``laterFirstPage``, then pages of
  /// ``pageSize`` while every row is newer than `newest` (the newest accounted id). Returns a
  /// reason to read deep when the pages themselves show one; a first page whose newest id is
  /// below the last sync's (`top`) starts a new id epoch before anything is matched.
  ///
  /// With `newest` nil (a read that goes on from where it stopped), or for a device whose ids
  /// repeat, the pages go on while no row is archived yet instead. The read also ends at a
  /// full page with nothing new in this sync (``NewestEnd/repeats``) and at the ceiling.
  private func newestPages(
    _ session: SimAdminSession, _ instance: SyncTarget, newest: Int64?, top: Int64?,
    first: Fetched? = nil, queue: IngestQueue, tally: inout Tally, pass: inout Pass,
    sizing: PageSizing, into result: inout InstanceSyncResult
  ) async throws -> NewestEnd {
    var offset = 0
    var limit = min(laterFirstPage, sizing.size)
    var anchor: Anchor?
    var sent = first
    // How many entries at the start of the next page the previous one has read already.
    var reread = 0
    while true {
      let left = maxPerDevice - pass.entries
      guard left > 0 else { return .ceiling(offset: offset, anchor: anchor) }
      let page: Fetched
      if let fetched = sent {
        // The first page, already asked for together with the counts.
        page = fetched
        sent = nil
      } else {
        page = try await Self.fetch(
          session, limit: min(limit, left), offset: offset, sizing: sizing)
      }
      let messages = page.messages
      result.pages += 1
      result.read += page.entries
      let fresh = pass.note(page, offset: offset)
      report(instance, result)
      if let current = anchor, page.entries == 0 || !messages.isEmpty,
        !Self.continues(messages, after: current)
      {
        return .deep(.unaccounted)
      }
      let byID = newest != nil && !pass.repeatsIDs
      if byID, offset == 0, let top, let first = messages.map(\.id).max(), first < top {
        // The ids went back: renumbered (or the newest row deleted) before any is matched.
        try archive.startNewEpoch(instanceID: instance.id, instanceName: instance.name)
        return .deep(.renumbered)
      }
      let ingest = try await queue.ingest(
        instance.page(messages, at: clock.now(), trustsIDs: !pass.repeatsIDs))
      result.inserted += ingest.inserted
      tally.add(page, offset: offset, window: min(laterFirstPage, sizing.size))
      tally.add(ingest)
      if ingest.renumbered { return .deep(.renumbered) }
      // The first archived row on the page (nil: none): the unreadable entries above it are
      // new rows too.
      let known: Int?
      if byID, let newest {
        known = messages.firstIndex { $0.id <= newest }
      } else {
        known = ingest.knownTail > 0 ? messages.count - ingest.knownTail : nil
      }
      let edge = known.map { page.position(ofMessage: $0) } ?? page.entries
      tally.foundUnreadable +=
        page.unreadablePositions.count { $0 < edge } + (page.skipped && known == nil ? 1 : 0)
      if page.isLast { tally.reachedEnd = true }
      if page.isLast || known != nil { return .done }
      if fresh.isEmpty, !messages.isEmpty, page.entries > reread { return .repeats }
      let overlap = Self.overlap(for: page.limit)
      anchor = Self.anchor(page, overlap: overlap)
      offset += page.limit - overlap
      reread = overlap
      limit = sizing.size
    }
  }

  /// The anchor the page after `page` must reach: its last readable row when that row is among
  /// the `overlap` entries the next page re-reads; nil (no check) otherwise.
  static func anchor(_ page: Fetched, overlap: Int) -> Anchor? {
    guard overlap > 0, let last = page.messages.last,
      page.position(ofMessage: page.messages.count - 1) >= page.entries - overlap
    else { return nil }
    return Anchor(last)
  }

  /// Reads every row from `start` (the top, or where an earlier sync stopped). The next page
  /// is requested while the previous one is being written (a page's write decides nothing
  /// here); `hashing` computes identity keys with the read (worth it when most messages are
  /// new, as in a first sync). Returns how the read ended and, for a read that went on from
  /// an earlier point, the rows it found older than that point's anchor.
  private func deepRead(
    _ session: SimAdminSession, _ instance: SyncTarget, hashing: Bool, queue: IngestQueue,
    tally: inout Tally, pass: inout Pass, sizing: PageSizing, from start: Start,
    into result: inout InstanceSyncResult
  ) async throws -> (DeepEnd, Beyond, fromTop: Bool) {
    var offset = start.offset
    var anchor = start.anchor
    var fromTop = start.below == nil
    var misses = 0
    var restarts = 0
    var beyond = Beyond()
    // How many entries at the start of the next page were read already: the previous page's
    // overlap (a read that goes on re-reads its anchor's), all of it after a step back.
    var reread = start.anchor == nil ? 0 : Self.overlap(for: sizing.size)
    var writing: Task<IngestResult, any Error>?
    func settle(_ write: Task<IngestResult, any Error>) async throws {
      let ingest = try await write.value
      result.inserted += ingest.inserted
      tally.add(ingest)
    }
    func finish() async throws {
      if let pending = writing {
        writing = nil
        try await settle(pending)
      }
    }
    while true {
      let left = maxPerDevice - pass.entries
      guard left > 0 else {
        try await finish()
        return (.ceiling(offset: offset, anchor: anchor), beyond, fromTop)
      }
      let page = try await Self.fetch(
        session, limit: min(sizing.size, left), offset: offset, sizing: sizing)
      let messages = page.messages
      result.pages += 1
      result.read += page.entries
      tally.add(page, offset: offset, window: min(laterFirstPage, sizing.size))
      let fresh = pass.note(page, offset: offset)
      report(instance, result)
      if !fromTop, let below = start.below {
        for index in fresh where below.isNewer(than: messages[index]) {
          beyond.rows += 1
          if messages[index].isOutgoing { beyond.outgoing += 1 }
        }
      }
      let ingestPage = instance.page(
        messages, at: clock.now(), hashingNow: hashing, trustsIDs: !pass.repeatsIDs)
      let write = Task { try await queue.ingest(ingestPage) }
      if let previous = writing { try await settle(previous) }
      writing = write
      let overlap = Self.overlap(for: page.limit)
      let advance = max(1, page.limit - overlap)
      if let current = anchor, page.entries == 0 || !messages.isEmpty,
        !Self.continues(messages, after: current), restarts < 3
      {
        // Deletions moved the offset past unread messages: step back and read again.
        misses += 1
        offset = max(0, offset - advance)
        if misses > 8 {
          offset = 0
          restarts += 1
        }
        if offset == 0 {
          // From the top again: a new pass, accounted as a read of every row.
          anchor = nil
          misses = 0
          try await finish()
          tally = Tally()
          pass = pass.restarted()
          beyond = Beyond()
          fromTop = true
        }
        reread = offset == 0 ? 0 : .max
        continue
      }
      misses = 0
      if page.isLast {
        try await finish()
        return (.complete, beyond, fromTop)
      }
      if fresh.isEmpty, !messages.isEmpty, page.entries > reread {
        try await finish()
        return (.repeats, beyond, fromTop)
      }
      anchor = Self.anchor(page, overlap: overlap)
      offset += advance
      reread = overlap
    }
  }

  /// Whether `page` (read after a page ending at `anchor`) leaves no gap: its first message
  /// is the anchor or newer in the device's order (timestamp, then id).
  static func continues(_ page: [SmsMessage], after anchor: SmsMessage) -> Bool {
    continues(page, after: Anchor(anchor))
  }

  /// ``continues(_:after:)`` for an anchor kept as its timestamp and id.
  static func continues(_ page: [SmsMessage], after anchor: Anchor) -> Bool {
    guard let first = page.first else { return false }
    return (first.timestamp, first.id) >= (anchor.timestamp, anchor.id)
  }
}

extension SmsMessage {
  /// Whether the device sent it (what `/api/sms/stats` counts as `outgoing`).
  var isOutgoing: Bool { direction == SmsDirection.outgoing.rawValue }
}
