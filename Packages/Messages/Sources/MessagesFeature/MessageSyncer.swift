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
  /// The failure's catalogue key in SimAdminClient's catalogue, nil on success.
  public var failureKey: String?
  /// The failure in English (device text untranslated), nil on success.
  public var failure: String?
  /// The failure in every language, keyed by language code (a device's own text stays as
  /// it was sent); made when the failure happens, so views and progress lines show it in
  /// theirs with every placeholder filled.
  public var failureTexts: [String: String]? = nil

  enum CodingKeys: String, CodingKey {
    case instanceID, instanceName, inserted, read, pages, completed, failureKey, failure
  }

  enum ReasonKeys: String, CodingKey {
    case reason, code, message
  }

  /// Encodes the fields and, for a failure, `reason`: `{"code": "timeout", "message": …}`
  /// with the message in the output's language.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(instanceID, forKey: .instanceID)
    try container.encode(instanceName, forKey: .instanceName)
    try container.encode(inserted, forKey: .inserted)
    try container.encode(read, forKey: .read)
    try container.encode(pages, forKey: .pages)
    try container.encode(completed, forKey: .completed)
    try container.encodeIfPresent(failureKey, forKey: .failureKey)
    try container.encodeIfPresent(failure, forKey: .failure)
    if let message = failureText(AppLanguage.of(encoder)) {
      var outer = encoder.container(keyedBy: ReasonKeys.self)
      var reason = outer.nestedContainer(keyedBy: ReasonKeys.self, forKey: .reason)
      try reason.encode(MessagesLog.reasonCode(failureKey), forKey: .code)
      try reason.encode(message, forKey: .message)
    }
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

/// Pulls every instance's SMS into the archive.
///
/// Each instance is paged newest first with `limit`/`offset`. Consecutive pages overlap by
/// ``overlap`` messages; the oldest message of one page (the anchor) must reappear in, or be
/// newer than the start of, the next page, otherwise messages were deleted between pages and
/// the offset moved past some: the syncer steps back and reads again (after repeated misses
/// it starts over from offset 0, which is safe because archiving is idempotent). New messages
/// arriving between pages only push older ones to later offsets, which re-reads a few known
/// messages. A first sync (or any sync after an interrupted one) reads to the end in pages of
/// ``pageSize``. A later sync starts with a page of ``laterFirstPage`` and stops at the first
/// page that ends with ``depth`` already archived messages in a row (a whole page of them when
/// pages are shorter than that): the new messages sit above the archived ones, and a late
/// message (a device stamps messages it picks up late with the network's older time) is still
/// found among the newest `depth` archived ones.
///
/// The instances' pages go into the archive through one ``IngestQueue``, so the concurrent
/// syncs share transactions instead of committing a page each.
public struct MessageSyncer: Sendable {
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

  /// A syncer.
  public init(
    archive: MessageArchive, connector: SimAdminConnector, pageSize: Int = 1000, width: Int = 8,
    clock: AppClock
  ) {
    self.archive = archive
    self.connector = connector
    self.pageSize = max(2, pageSize)
    self.width = max(1, width)
    self.clock = clock
  }

  /// Messages each page re-reads from the previous one: a tenth of a page, at most 20.
  public var overlap: Int { min(20, max(1, pageSize / 10)) }

  /// The first page of a later sync: at most 50, since most later syncs find a few new ones.
  public var laterFirstPage: Int { min(50, pageSize) }

  /// Archived messages in a row at the end of a page that end a later sync (at most a page).
  public var depth: Int { 20 }

  /// Syncs `instances` concurrently (at most ``width`` at a time); `progress` is called as
  /// each finishes with (finished count, total, result). Results come back in input order.
  public func sync(
    _ instances: [Instance],
    progress: @escaping @Sendable (Int, Int, InstanceSyncResult) -> Void = { _, _, _ in }
  ) async -> [InstanceSyncResult] {
    var results = [InstanceSyncResult?](repeating: nil, count: instances.count)
    let queue = IngestQueue(archive: archive)
    await withTaskGroup(of: (Int, InstanceSyncResult).self) { group in
      var next = 0
      var finished = 0
      func launch() {
        let index = next
        let instance = instances[index]
        group.addTask { (index, await syncOne(instance, through: queue)) }
        next += 1
      }
      while next < min(width, instances.count) { launch() }
      for await (index, result) in group {
        results[index] = result
        finished += 1
        progress(finished, instances.count, result)
        if next < instances.count { launch() }
      }
    }
    return results.compactMap { $0 }
  }

  /// Syncs one instance; failures are reported in the result, never thrown.
  public func syncOne(_ instance: Instance) async -> InstanceSyncResult {
    await syncOne(instance, through: IngestQueue(archive: archive))
  }

  private func syncOne(_ instance: Instance, through queue: IngestQueue) async
    -> InstanceSyncResult
  {
    var result = InstanceSyncResult(
      instanceID: instance.id, instanceName: instance.name, inserted: 0, read: 0, pages: 0,
      completed: false, failureKey: nil, failure: nil)
    do {
      let stopEarly = try archive.canStopEarly(instanceID: instance.id)
      // The sync state keeps the instance's latest name, which its messages show once the
      // instance is deleted; no message row is rewritten for a rename.
      try archive.syncStarted(
        instanceID: instance.id, instanceName: instance.name, at: clock.now())
      let session = connector.session(
        for: instance.id, name: instance.name, origin: instance.origin.url)
      try await page(session, instance, stopEarly: stopEarly, queue: queue, into: &result)
      result.completed = true
      try archive.syncFinished(instanceID: instance.id, at: clock.now(), error: nil)
    } catch let failure as SimAdminFailure {
      result.fail(key: failure.reasonKey, failure.error.localizedMessage)
      try? archive.syncFinished(instanceID: instance.id, at: clock.now(), error: result.failure)
    } catch {
      result.fail(key: "error.other") { UserFacingMessage.of(error, $0) }
      try? archive.syncFinished(instanceID: instance.id, at: clock.now(), error: result.failure)
    }
    return result
  }

  /// Reads the instance's pages. On a first sync the next page is requested while the
  /// previous one is being written (a page's write decides nothing there); a later sync waits
  /// for each write, since the archived messages it finds decide where it stops.
  private func page(
    _ session: SimAdminSession, _ instance: Instance, stopEarly: Bool, queue: IngestQueue,
    into result: inout InstanceSyncResult
  ) async throws {
    var offset = 0
    var limit = stopEarly ? laterFirstPage : pageSize
    var advance = pageSize - overlap
    var anchor: SmsMessage?
    var misses = 0
    var restarts = 0
    var writing: Task<IngestResult, any Error>?
    while true {
      let messages = try await session.smsList(limit: limit, offset: offset)
      result.pages += 1
      result.read += messages.count
      let page = IngestPage(
        messages: messages, instanceID: instance.id, instanceName: instance.name,
        syncedAt: clock.now(), hashingNow: !stopEarly)
      let write = Task { try await queue.ingest(page) }
      if let previous = writing {
        result.inserted += try await previous.value.inserted
      }
      writing = write
      if let current = anchor, !Self.continues(messages, after: current), restarts < 3 {
        // Deletions moved the offset past unread messages: step back and read again.
        misses += 1
        offset = max(0, offset - advance)
        if misses > 8 {
          offset = 0
          restarts += 1
        }
        if offset == 0 {
          anchor = nil
          misses = 0
        }
        continue
      }
      misses = 0
      if messages.count < limit || stopEarly {
        writing = nil
        let ingest = try await write.value
        result.inserted += ingest.inserted
        if messages.count < limit { return }
        if ingest.knownTail >= min(depth, limit) { return }
      }
      anchor = messages.last
      advance = limit - overlap
      offset += advance
      limit = pageSize
    }
  }

  /// Whether `page` (read after a page ending at `anchor`) leaves no gap: its first message
  /// is the anchor or newer in the device's order (timestamp, then id).
  static func continues(_ page: [SmsMessage], after anchor: SmsMessage) -> Bool {
    guard let first = page.first else { return false }
    return (first.timestamp, first.id) >= (anchor.timestamp, anchor.id)
  }
}
