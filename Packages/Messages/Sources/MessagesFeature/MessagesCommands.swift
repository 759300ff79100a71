import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminClient
import ViewKit

/// The commands of the messages feature and what they print with `--json`.
enum MessagesCommands {
  // MARK: - Payloads

  /// The fields of each `--json` row, for `--fields` (the app's tests hold them to
  /// docs/json and to what the rows encode).
  enum RowFields {
    static let message = [
      "id", "instanceID", "instanceName", "direction", "peer", "peerKey", "at",
      "deviceTimestamp", "status", "upstreamID", "body", "bodyMasked", "repaired", "code",
      "simNumber", "timeApproximate", "firstSeenAt",
    ]
    static let conversation = ["peerKey", "peer", "count", "instances", "latest"]
    static let sync = [
      "instanceID", "instanceName", "inserted", "read", "pages", "completed", "unreadable",
      "deepRead", "readOn", "failureKey", "failure", "reason", "stopped",
    ]
    static let delete = ["instanceID", "instanceName", "deviceDeleted", "localDeleted", "failure"]
    static let stats = [
      "instanceID", "instanceName", "count", "historyComplete", "lastSyncedAt", "deviceReported",
      "onDevice",
    ]
    static let outbox = [
      "id", "instanceID", "instanceName", "peer", "body", "state", "reason", "createdAt",
      "updatedAt", "expiresAt", "sentAt", "attempts",
    ]
  }

  struct ListedMessage: Encodable, Sendable {
    var id: Int64
    var instanceID: String
    var instanceName: String
    var direction: String
    var peer: String
    var peerKey: String
    var at: Date
    var deviceTimestamp: String
    var status: String
    var upstreamID: Int64?
    var body: String
    var bodyMasked: Bool
    /// The device sent invalid UTF-8 here; U+FFFD stands in for it.
    var repaired: Bool
    /// Its verification code (masked like the body unless bodies are shown), nil: none.
    var code: String?
    /// The SIM number that received (or sent) it, nil when unknown when it was archived.
    var simNumber: String?
    /// The device's timestamp named no believable time: `at` is when msa first archived it.
    var timeApproximate: Bool
    /// When msa first archived it (what "recent" means for `msa code`).
    var firstSeenAt: Date

    init(_ message: ArchivedMessage, showBody: Bool) {
      timeApproximate = message.timeApproximate
      firstSeenAt = message.syncedAt
      code = message.code.map { showBody ? $0 : CodeText.masked($0) }
      simNumber = message.simNumber
      id = message.id
      instanceID = message.instanceID
      instanceName = message.instanceName
      direction = message.direction
      peer = message.peer
      peerKey = message.peerKey
      at = message.deviceAt
      deviceTimestamp = message.deviceTimestamp
      status = message.status
      upstreamID = message.upstreamID
      body = showBody ? message.body : Redactor.maskBody(message.body)
      bodyMasked = !showBody
      repaired = message.repaired
    }
  }

  struct ListPayload: Encodable, Sendable {
    var messages: [ListedMessage]
    var nextCursor: String?
  }

  struct ConversationPayload: Encodable, Sendable {
    var peerKey: String
    var peer: String
    var count: Int
    var instances: [String]
    var latest: ListedMessage
  }

  struct SyncPayload: Encodable, Sendable {
    var instances: [InstanceSyncResult]
    var outbox: [OutboxEntry]?
  }

  struct DeleteRow: Encodable, Sendable {
    var instanceID: String
    var instanceName: String
    var deviceDeleted: Int?
    var localDeleted: Int
    var failure: String?
  }

  struct ExportPayload: Encodable, Sendable {
    var path: String
    var format: String
    var count: Int
    var bodiesIncluded: Bool
  }

  // MARK: - Shared

  static func store(_ environment: AppEnvironment) throws -> Store {
    try environment.services.resolve(Store.self)
  }

  static func connector(_ environment: AppEnvironment) throws -> SimAdminConnector {
    try environment.services.resolve(SimAdminConnector.self)
  }

  /// How many instances an outbox flush works on at once: 8, fewer when the open-file limit
  /// does not allow it (said on stderr), as for sync.
  static func outboxWidth(_ environment: AppEnvironment) -> (Int) -> Int {
    { environment.cappedConcurrency(8, total: $0, descriptorsEach: 8) }
  }

  static func filterOptions() -> [OptionSpec] {
    [
      .option(
        "direction", valueName: "DIR", help: MessagesStrings.string("help.direction"),
        allowed: ["in", "out"]),
      .option("instance", valueName: "REF", help: MessagesStrings.string("help.instance"))
        .completing(.instance),
      .option("peer", valueName: "P", help: MessagesStrings.string("help.peer")).completing(.peer),
      .option("since", valueName: "D", help: MessagesStrings.string("help.since")).takingTime(),
      .option("until", valueName: "D", help: MessagesStrings.string("help.until")).takingTime(),
      .option("search", valueName: "Q", help: MessagesStrings.string("help.search")),
      .flag("has-code", help: MessagesStrings.string("help.hasCode")),
    ]
  }

  /// Reads the filter options; everything is checked before anything runs.
  static func filter(_ parsed: ParsedCommand, _ environment: AppEnvironment, store: Store) throws
    -> MessageFilter
  {
    let zone = MessagesDisplay.resolve(environment).timeZone
    var filter = MessageFilter()
    switch parsed.optionalString("direction") {
    case "in": filter.direction = "incoming"
    case "out": filter.direction = "outgoing"
    default: break
    }
    if let ref = parsed.optionalString("instance") {
      filter.instanceID = try InstanceRepository(store: store).resolve(reference: ref).id
    }
    if let peer = parsed.optionalString("peer") { filter.peerKey = PeerNumber.key(peer) }
    if let since = parsed.optionalString("since") {
      filter.since = try DateArgument.parse(
        since, option: "--since", endOfDay: false, timeZone: zone, now: environment.clock.now())
    }
    if let until = parsed.optionalString("until") {
      filter.until = try DateArgument.parse(
        until, option: "--until", endOfDay: true, timeZone: zone, now: environment.clock.now())
    }
    filter.search = parsed.optionalString("search")
    filter.hasCode = parsed.flag("has-code")
    return filter
  }

  // MARK: - Declarations

  static var messages: FeatureCommand {
    FeatureCommand(
      CommandSpec("messages", aliases: ["sms"], abstract: MessagesStrings.string("help.messages")),
      subcommands: [sync, list, conversations, show, send, delete, export, stats, watch])
  }

  static var sync: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "sync", abstract: MessagesStrings.string("help.sync"),
        arguments: [
          ArgumentSpec(
            "REF", help: MessagesStrings.string("help.syncRefs"), optional: true, repeating: true
          )
          .completing(.instance)
        ],
        options: [
          .option(
            "page-size", valueName: "N", help: MessagesStrings.string("help.pageSize"),
            default: "1000"),
          .option(
            "max-per-device", valueName: "N", help: MessagesStrings.string("help.maxPerDevice"),
            default: String(MessageSyncer.defaultMaxPerDevice)),
          .flag("flush", help: MessagesStrings.string("help.flush")),
          .flag("full", help: MessagesStrings.string("help.full")),
        ]
      ).listing("instances", fields: RowFields.sync)
    ) { invocation in
      let environment = invocation.environment
      let parsed = invocation.parsed
      let store = try store(environment)
      let pageSize = try parsed.int("page-size", range: 2...10_000)
      let ceiling = try parsed.int("max-per-device", range: 1...1_000_000_000)
      let registry = InstanceRepository(store: store)
      let refs = parsed.argumentList("REF")
      let instances = try refs.isEmpty ? registry.list() : refs.map(registry.resolve(reference:))
      let archive = MessageArchive(store: store)
      // A first sync writes hundreds of thousands of rows into seven indexes and two search
      // indexes: a page cache of 64 MiB (for this process) keeps their pages in memory instead
      // of reading them back from the file at every transaction (SQLite's default is 2 MiB).
      try store.database.execute("PRAGMA cache_size = -65536")
      // And a WAL of up to 64 MiB before each automatic checkpoint (SQLite's default is 4 MiB):
      // the index pages every transaction touches are copied into the file once per
      // checkpoint, so fewer checkpoints write fewer pages (and sync the file less often). A
      // crash keeps what every committed transaction wrote, as before: only the copying into
      // the main file comes later.
      try store.database.execute("PRAGMA wal_autocheckpoint = 16384")
      // On a terminal, a long read shows its devices and rows so far in place (stderr).
      let status = SyncProgressLine(environment)
      let syncer = MessageSyncer(
        archive: archive, connector: try connector(environment), pageSize: pageSize,
        width: try syncWidth(instances, archive, environment),
        clock: environment.clock, full: parsed.flag("full"), maxPerDevice: ceiling,
        reading: status.map { line in { @Sendable reading in line.update(reading) } })
      let results = await syncer.sync(instances) { done, total, result in
        // The database's own failure is said once, when the command stops with it.
        guard result.failureKey != MessageSyncer.localFailureKey else { return }
        let line = progressLine(result, environment.language)
        if let status {
          status.above { environment.progress(done, of: total, line) }
        } else {
          environment.progress(done, of: total, line)
        }
      }
      status?.finish()
      if let failure = syncer.localFailure.current { throw failure }
      MessagesLog.synced(results, environment)
      // The search index catches up with what the sync stored (and with what an interrupted
      // run left); searches are exact meanwhile. After a later sync of every instance, a few
      // new rows (up to MessageSyncer.indexBacklog) wait for the next sync, which indexes them
      // while its requests are out (docs/decisions/025-search-index-watermark.md).
      if try !MessageSyncer.leavesIndexBacklog(results, waiting: archive.waitingForIndex()) {
        try archive.catchUpIndex { waiting in
          environment.streams.writeError(
            MessagesStrings.text(
              "progress.indexing", environment.language, ["count": String(waiting)]) + "\n")
          return true
        }
      }
      var outbox: [OutboxEntry]?
      if parsed.flag("flush") {
        outbox = try await OutboxProcessor(
          outbox: OutboxRepository(store: store), connector: try connector(environment)
        ).flush(width: outboxWidth(environment))
        MessagesLog.sends(outbox ?? [], environment)
      }
      let failed = results.contains { $0.failure != nil }
      return CommandResult(
        view: syncView(results, outbox: outbox, environment.language),
        payload: SyncPayload(instances: results, outbox: outbox),
        exitCode: failed ? .failure : .success)
    }
  }

  /// How many devices a sync reads at once. A first sync reads many full pages per device:
  /// 8 at a time keep the archive's writer busy without holding more pages in memory. When
  /// every instance has been read through before, a sync is one or two small requests per
  /// device: as wide as the fleet (up to 256), bounded silently by the open-file limit.
  static func syncWidth(
    _ instances: [Instance], _ archive: MessageArchive, _ environment: AppEnvironment
  ) throws -> Int {
    let states = try archive.syncStates()
    let later = instances.allSatisfy { states[$0.id]?.historyComplete == true }
    guard later else {
      return environment.cappedConcurrency(8, total: instances.count, descriptorsEach: 8)
    }
    return ProcessLimits.concurrency(
      max(1, min(instances.count, 256)), descriptorsEach: 8, limit: ProcessLimits.openFileLimit)
  }

  /// The `[n/N]` line of one finished instance.
  static func progressLine(_ result: InstanceSyncResult, _ language: AppLanguage) -> String {
    if let failure = result.failureText(language) {
      return MessagesStrings.text(
        "progress.syncFailed", language, ["name": result.instanceName, "reason": failure])
    }
    return MessagesStrings.text(
      result.stopped == .ceiling ? "progress.syncedStopped" : "progress.synced", language,
      ["name": result.instanceName, "count": String(result.inserted)])
  }

  /// The Result cell of one instance: how its read ended, in words, with the rows it could
  /// not read.
  static func resultCell(_ result: InstanceSyncResult, _ language: AppLanguage) -> TableCell {
    var text: String
    let tone: Tone
    if let failure = result.failureText(language) {
      (text, tone) = (failure, .danger)
    } else if let stopped = result.stoppedText(language) {
      (text, tone) = (stopped, .warning)
    } else {
      let reason = result.deepRead.map { MessagesStrings.text("deep." + $0, language) }
      text =
        reason.map {
          MessagesStrings.text(
            result.readOn ? "sync.okReadOn" : "sync.okDeep", language, ["reason": $0])
        } ?? MessagesStrings.text("sync.ok", language)
      tone = result.unreadable > 0 ? .warning : .success
    }
    if result.unreadable > 0 {
      text +=
        " · "
        + MessagesStrings.text("sync.unreadable", language, ["count": String(result.unreadable)])
    }
    return TableCell(text, tone: tone)
  }

  static func syncView(
    _ results: [InstanceSyncResult], outbox: [OutboxEntry]?, _ language: AppLanguage
  ) -> ViewNode {
    let table = Table(
      columns: [
        TableColumn(
          id: "instance", title: MessagesStrings.text("column.instance", language), minWidth: 8),
        // The counts are kept whole (a cut "25…" says nothing); the words take the rest.
        TableColumn(
          id: "result", title: MessagesStrings.text("column.result", language), minWidth: 10,
          priority: 2, sizing: .fill),
        TableColumn(
          id: "new", title: MessagesStrings.text("column.new", language), minWidth: 3, priority: 1,
          alignment: .trailing, sizing: .whole),
        TableColumn(
          id: "read", title: MessagesStrings.text("column.read", language), minWidth: 3,
          alignment: .trailing, sizing: .whole),
      ],
      rows: results.map { result in
        TableRow(
          id: result.instanceID,
          cells: [
            TableCell(result.instanceName),
            resultCell(result, language),
            TableCell(String(result.inserted)),
            TableCell(String(result.read)),
          ])
      })
    var children: [ViewNode] = [.table(table)]
    if let outbox, !outbox.isEmpty {
      children.append(
        .text(
          Text(
            MessagesStrings.text(
              "sync.outbox", language,
              [
                "sent": String(outbox.count { $0.state == .sent }),
                "waiting": String(
                  outbox.count { $0.state != .sent && $0.state != .unknown && $0.state != .sending }
                ),
              ]))))
      let unknown = outbox.filter { $0.state == .unknown || $0.state == .sending }
      if let first = unknown.first {
        children.append(
          .text(
            Text(
              MessagesStrings.text(
                "sync.outboxUnknown", language,
                ["count": String(unknown.count), "id": String(first.id)]), style: .muted)))
      }
    }
    return .screen(
      Screen(title: MessagesStrings.text("view.sync.title", language), children: children))
  }

  static var list: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "list", aliases: ["ls"], abstract: MessagesStrings.string("help.list"),
        options: filterOptions() + [
          .option(
            "limit", valueName: "N", help: MessagesStrings.string("help.limit"), default: "50"),
          .option("after", valueName: "CURSOR", help: MessagesStrings.string("help.after")),
          .flag("show-bodies", help: MessagesStrings.string("help.showBodies")),
        ]
      ).listing("messages", fields: RowFields.message)
    ) { invocation in
      let environment = invocation.environment
      let parsed = invocation.parsed
      let store = try store(environment)
      let filter = try filter(parsed, environment, store: store)
      let limit = try parsed.int("limit", range: 1...1000)
      var cursor: MessageCursor?
      if let token = parsed.optionalString("after") {
        guard let value = MessageCursor(token: token) else {
          throw MessagesFailure("error.badCursor", ["value": token])
        }
        cursor = value
      }
      let messages = try MessageArchive(store: store).list(
        filter: filter, after: cursor, limit: limit)
      let next =
        messages.count == limit ? messages.last.map { MessageCursor(after: $0).token } : nil
      let show = parsed.flag("show-bodies")
      var state = MessageListState(
        messages: messages, showBodies: show, nextCursor: next,
        timeZone: MessagesDisplay.resolve(environment).timeZone)
      state.isFiltered = filter != MessageFilter() || cursor != nil
      return CommandResult(
        view: MessagesViews.list(state, language: environment.language),
        payload: ListPayload(
          messages: messages.map { ListedMessage($0, showBody: show) }, nextCursor: next))
    }
  }

  static var conversations: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "conversations", aliases: ["threads"],
        abstract: MessagesStrings.string("help.conversations"),
        options: [
          .option(
            "limit", valueName: "N", help: MessagesStrings.string("help.limit"), default: "100")
        ]
      ).listing("conversations", fields: RowFields.conversation)
    ) { invocation in
      let environment = invocation.environment
      let store = try store(environment)
      let limit = try invocation.parsed.int("limit", range: 1...10_000)
      let items = try MessageArchive(store: store).conversations(limit: limit)
      let state = ConversationsState(
        conversations: items, timeZone: MessagesDisplay.resolve(environment).timeZone)
      return CommandResult(
        view: MessagesViews.conversations(state, language: environment.language),
        payload: ConversationsPayload(
          conversations: items.map {
            ConversationPayload(
              peerKey: $0.peerKey, peer: $0.peer, count: $0.count, instances: $0.instanceNames,
              latest: ListedMessage($0.latest, showBody: false))
          }))
    }
  }

  static var show: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "show", abstract: MessagesStrings.string("help.show"),
        arguments: [
          ArgumentSpec("PEER", help: MessagesStrings.string("help.peer")).completing(.peer)
        ],
        options: [
          .option(
            "limit", valueName: "N", help: MessagesStrings.string("help.limit"), default: "200")
        ]
      ).listing("messages", fields: RowFields.message)
    ) { invocation in
      let environment = invocation.environment
      let peer = try invocation.parsed.argument("PEER")
      let limit = try invocation.parsed.int("limit", range: 1...10_000)
      let state = try loadThread(peer: peer, limit: limit, environment)
      return CommandResult(
        view: MessagesViews.thread(state, language: environment.language),
        payload: ThreadPayload(
          peer: peer, messages: state.messages.map { ListedMessage($0, showBody: true) }))
    }
  }

  static func loadThread(peer: String, limit: Int, _ environment: AppEnvironment) throws
    -> ThreadState
  {
    let messages = try MessageArchive(store: store(environment)).list(
      filter: MessageFilter(peerKey: PeerNumber.key(peer)), limit: limit)
    return ThreadState(
      peer: peer, messages: messages, timeZone: MessagesDisplay.resolve(environment).timeZone)
  }

  // MARK: - Sending

  static var send: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "send", abstract: MessagesStrings.string("help.send"),
        options: [
          .option(
            "from", valueName: "REF", help: MessagesStrings.string("help.from"), required: true
          )
          .completing(.instance),
          .option(
            "to", valueName: "NUMBER", help: MessagesStrings.string("help.to"), required: true
          )
          .completing(.peer),
          .option("text", valueName: "T", help: MessagesStrings.string("help.text")),
          .flag("text-stdin", help: MessagesStrings.string("help.textStdin")),
          .option(
            "expires-in", valueName: "DURATION", help: MessagesStrings.string("help.expiresIn")
          ).takingDuration(),
          sendTimeoutOption,
        ])
    ) { invocation in
      let environment = invocation.environment
      let parsed = invocation.parsed
      let body: String
      switch (parsed.optionalString("text"), parsed.flag("text-stdin")) {
      case (.some, true), (nil, false):
        throw UsageFailure(MessagesFailure("error.textChoice"))
      case (.some(let value), false):
        body = value
      case (nil, true):
        body = (environment.streams.readInput() ?? "").trimmingCharacters(in: .newlines)
      }
      // A malformed number is a malformed value of the command line (exit 64); the number
      // sent is the normalized one (spaces and dashes removed, `+` kept).
      let given = try parsed.string("to")
      let number: String
      do { number = try SendText.normalized(number: given) } catch let failure as MessagesFailure {
        throw UsageFailure(failure)
      }
      try SendText.validate(body)
      let expiry = try parsed.optionalString("expires-in").map(parseDuration)
      let store = try store(environment)
      let instance = try InstanceRepository(store: store).resolve(reference: parsed.string("from"))
      let connector = try connector(environment)
      let outbox = OutboxRepository(store: store)
      let entry = try outbox.enqueue(
        instance: instance, to: number, body: body,
        expiresAt: expiry.map { environment.clock.now().addingTimeInterval($0) })
      let touched = try await OutboxProcessor(
        outbox: outbox, connector: connector, sendTimeout: sendTimeout(parsed)
      ).flush(width: outboxWidth(environment))
      MessagesLog.sends(touched, environment)
      let now = touched.first { $0.id == entry.id } ?? entry
      let language = environment.language
      var children: [ViewNode] = [.banner(sendBanner(now, language))]
      if let note = unknownNote(now, language) { children.append(note) }
      return CommandResult(
        view: .stack(children), payload: now,
        exitCode: now.state == .sent ? .success : .failure)
    }
  }

  /// `--timeout SECONDS`: how long a send waits for the device (its modem).
  static var sendTimeoutOption: OptionSpec {
    .option(
      "timeout", valueName: "SECONDS", help: MessagesStrings.string("help.sendTimeout"),
      default: String(Int(OutboxProcessor.defaultSendTimeout)))
  }

  static func sendTimeout(_ parsed: ParsedCommand) throws -> TimeInterval {
    TimeInterval(try parsed.int("timeout", range: 1...3_600))
  }

  /// The one line a send ends with: sent, not sent, waiting (nothing sent yet), or outcome
  /// unknown — never "sent" for a message that is not known to be.
  static func sendBanner(_ entry: OutboxEntry, _ language: AppLanguage) -> Banner {
    let reason = entry.reason?.text(language) ?? ""
    switch entry.state {
    case .sent:
      return Banner(
        MessagesStrings.text(
          "send.sent", language, ["peer": entry.peer, "instance": entry.instanceName]),
        tone: .success)
    case .failed, .cancelled:
      return Banner(
        MessagesStrings.text("send.failed", language, ["reason": reason]), tone: .danger)
    case .queued:
      return Banner(
        MessagesStrings.text("send.queued", language, ["id": String(entry.id), "reason": reason]),
        tone: .warning)
    case .sending, .unknown:
      return Banner(
        MessagesStrings.text(
          "send.unknown", language,
          ["id": String(entry.id), "instance": entry.instanceName, "reason": reason]),
        tone: .warning)
    }
  }

  /// For an entry whose outcome is unknown: how it gets settled, and the explicit way to send
  /// it again (never "flush": a flush does not send it).
  static func unknownNote(_ entry: OutboxEntry, _ language: AppLanguage) -> ViewNode? {
    guard entry.state == .unknown || entry.state == .sending else { return nil }
    return .text(
      Text(
        MessagesStrings.text("send.unknownNext", language, ["id": String(entry.id)]),
        style: .muted))
  }

  /// `90`, `90s`, `30m`, `2h`, `1d` → seconds.
  static func parseDuration(_ text: String) throws -> TimeInterval {
    guard let seconds = TimeArgument.seconds(text), seconds > 0 else {
      throw UsageFailure(MessagesFailure("error.badDuration", ["value": text]))
    }
    return seconds
  }

  static var outbox: FeatureCommand {
    let idArgument = ArgumentSpec("ID", help: MessagesStrings.string("help.outboxID"))
    return FeatureCommand(
      CommandSpec(
        "outbox", abstract: MessagesStrings.string("help.outbox"), defaultSubcommand: "list"),
      subcommands: [
        FeatureCommand(
          CommandSpec("list", abstract: MessagesStrings.string("help.outboxList"))
            .listing("entries", fields: RowFields.outbox)
        ) { invocation in
          try outboxResult(invocation.environment, entries: nil)
        },
        FeatureCommand(
          CommandSpec(
            "flush", abstract: MessagesStrings.string("help.outboxFlush"),
            options: [sendTimeoutOption]
          )
          .listing("entries", fields: RowFields.outbox)
        ) { invocation in
          let environment = invocation.environment
          let store = try store(environment)
          let touched = try await OutboxProcessor(
            outbox: OutboxRepository(store: store), connector: try connector(environment),
            sendTimeout: try sendTimeout(invocation.parsed)
          ).flush(width: outboxWidth(environment))
          MessagesLog.sends(touched, environment)
          return try outboxResult(environment, entries: touched)
        },
        FeatureCommand(
          CommandSpec(
            "check", abstract: MessagesStrings.string("help.outboxCheck"),
            arguments: [
              ArgumentSpec(
                "ID", help: MessagesStrings.string("help.outboxCheckIDs"), optional: true,
                repeating: true)
            ]
          )
          .listing("entries", fields: RowFields.outbox)
        ) { invocation in
          let environment = invocation.environment
          let ids = try invocation.parsed.argumentList("ID").map(entryID)
          let store = try store(environment)
          let outbox = OutboxRepository(store: store)
          for id in ids where try outbox.entry(id: id) == nil {
            throw OutboxError.notFound(id: String(id))
          }
          let touched = try await OutboxProcessor(
            outbox: outbox, connector: try connector(environment)
          ).check(only: ids.isEmpty ? nil : Set(ids), width: outboxWidth(environment))
          MessagesLog.sends(touched, environment)
          // Entries named that had nothing to settle are shown as they stand.
          let shown = ids.isEmpty ? touched : try ids.compactMap { try outbox.entry(id: $0) }
          return try outboxResult(environment, entries: shown)
        },
        FeatureCommand(
          CommandSpec(
            "retry", abstract: MessagesStrings.string("help.outboxRetry"), arguments: [idArgument],
            options: [
              .flag("send-again", help: MessagesStrings.string("help.sendAgain")),
              .flag("yes", short: "y", help: MessagesStrings.string("help.yes")),
              sendTimeoutOption,
            ]
          )
          .listing("entries", fields: RowFields.outbox)
        ) { invocation in
          let environment = invocation.environment
          let parsed = invocation.parsed
          let id = try entryID(parsed)
          let store = try store(environment)
          let outbox = OutboxRepository(store: store)
          guard let entry = try outbox.entry(id: id) else {
            throw OutboxError.notFound(id: String(id))
          }
          let processor = OutboxProcessor(
            outbox: outbox, connector: try connector(environment),
            sendTimeout: try sendTimeout(parsed))
          let unknown = entry.state == .unknown || entry.state == .sending
          if unknown, !parsed.flag("send-again") {
            // Settled first, never sent again blindly: a retry of an unknown outcome checks
            // the device's sent messages, and says how to send it again when not found.
            let touched = try await processor.check(only: [id], width: outboxWidth(environment))
            MessagesLog.sends(touched, environment)
            return try outboxResult(environment, entries: touched)
          }
          if unknown, !parsed.flag("yes") {
            throw MessagesFailure(
              "error.confirmSendAgain",
              [
                "id": String(id), "peer": entry.peer, "instance": entry.instanceName,
              ])
          }
          if unknown {
            // The user's explicit choice, told it may arrive twice; one last look first, so a
            // message the device has meanwhile stored is not sent again after all.
            let checked = try await processor.check(only: [id], width: outboxWidth(environment))
            if let settled = checked.first, settled.state == .sent {
              MessagesLog.sends(checked, environment)
              return try outboxResult(environment, entries: checked)
            }
          }
          _ = try outbox.retry(id: id, sendAgain: unknown)
          let touched = try await processor.flush(only: [id], width: outboxWidth(environment))
          MessagesLog.sends(touched, environment)
          return try outboxResult(environment, entries: touched)
        },
        FeatureCommand(
          CommandSpec(
            "cancel", abstract: MessagesStrings.string("help.outboxCancel"), arguments: [idArgument]
          )
          .listing("entries", fields: RowFields.outbox)
        ) { invocation in
          let environment = invocation.environment
          let id = try entryID(invocation.parsed)
          let entry = try OutboxRepository(store: store(environment)).cancel(id: id)
          MessagesLog.sends([entry], environment)
          return try outboxResult(environment, entries: [entry])
        },
      ])
  }

  static func entryID(_ text: String) throws -> Int64 {
    guard let id = Int64(text.trimmingCharacters(in: CharacterSet(charactersIn: "# "))) else {
      throw OutboxError.notFound(id: text)
    }
    return id
  }

  static func entryID(_ parsed: ParsedCommand) throws -> Int64 {
    try entryID(try parsed.argument("ID"))
  }

  static func outboxResult(_ environment: AppEnvironment, entries: [OutboxEntry]?) throws
    -> CommandResult
  {
    let all = try entries ?? OutboxRepository(store: store(environment)).list()
    let state = OutboxViewState(
      entries: all, timeZone: MessagesDisplay.resolve(environment).timeZone)
    let failed =
      entries != nil
      && all.contains { [.failed, .queued, .unknown, .sending].contains($0.state) }
    var view = MessagesViews.outbox(state, language: environment.language)
    // A command that touched entries whose outcome is unknown says how they are settled.
    if entries != nil, let unknown = all.first(where: { $0.state == .unknown }),
      let note = unknownNote(unknown, environment.language)
    {
      view = .stack([view, note])
    }
    return CommandResult(
      view: view, payload: OutboxPayload(entries: all), exitCode: failed ? .failure : .success)
  }

  // MARK: - Delete, export, stats

  static var delete: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "delete", aliases: ["rm"], abstract: MessagesStrings.string("help.delete"),
        arguments: [
          ArgumentSpec(
            "ID", help: MessagesStrings.string("help.deleteIDs"), optional: true, repeating: true)
        ],
        options: [
          .option("peer", valueName: "P", help: MessagesStrings.string("help.deletePeer"))
            .completing(.peer),
          .option("instance", valueName: "REF", help: MessagesStrings.string("help.instance"))
            .completing(.instance),
          .flag("all", help: MessagesStrings.string("help.deleteAll")),
          .option(
            "scope", valueName: "SCOPE", help: MessagesStrings.string("help.scope"),
            default: "both",
            allowed: ["both", "device", "local"]),
          .flag("yes", short: "y", help: MessagesStrings.string("help.yes")),
        ]
      ).listing("instances", fields: RowFields.delete)
    ) { invocation in
      try await MessageDeletion.run(invocation)
    }
  }

  static var export: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "export", abstract: MessagesStrings.string("help.export"),
        options: [
          .option(
            "format", valueName: "FORMAT", help: MessagesStrings.string("help.format"),
            required: true,
            allowed: ExportFormat.allCases.map(\.rawValue)),
          .option(
            "output", short: "o", valueName: "FILE", help: MessagesStrings.string("help.output")
          )
          .completing(.file),
          .flag("force", help: MessagesStrings.string("help.force")),
          .flag("include-bodies", help: MessagesStrings.string("help.includeBodies")),
        ] + filterOptions())
    ) { invocation in
      let environment = invocation.environment
      let parsed = invocation.parsed
      let formatText = try parsed.string("format")
      guard let format = ExportFormat(rawValue: formatText) else {
        throw MessagesFailure("error.badFormat", ["value": formatText])
      }
      // `-o -` is standard output, as Unix tools read it; `--json` would write there too.
      let toStandardOutput = parsed.optionalString("output") == "-"
      if toStandardOutput && environment.output.json {
        throw UsageFailure(MessagesFailure("error.outputStandardJSON"))
      }
      let store = try store(environment)
      let filter = try filter(parsed, environment, store: store)
      if toStandardOutput {
        return try exportToStandardOutput(
          filter, format: format, includeBodies: parsed.flag("include-bodies"), store: store,
          environment)
      }
      let destination: URL
      let existing: AtomicFile.Existing
      if let output = parsed.optionalString("output") {
        destination = URL(fileURLWithPath: output)
        existing = parsed.flag("force") ? .replace : .refuse
      } else {
        let folder = environment.dataDirectory.appendingPathComponent("exports")
        try DataDirectory.createPrivateDirectory(folder)
        let stamp = ISO8601DateFormatter().string(from: environment.clock.now())
          .replacingOccurrences(of: ":", with: "")
        destination = folder.appendingPathComponent("messages-\(stamp).\(format.rawValue)")
        existing = .number
      }
      let include = parsed.flag("include-bodies")
      let (count, written) = try MessageExporter(archive: MessageArchive(store: store)).export(
        filter: filter, format: format, includeBodies: include, to: destination,
        existing: existing)
      environment.logger.labeled("msa.messages").notice(
        "messages.exported",
        metadata: [
          "count": String(count), "format": format.rawValue, "path": written.path,
          "bodies_included": String(include),
        ])
      let language = environment.language
      return CommandResult(
        view: .banner(
          Banner(
            MessagesStrings.text(
              include ? "export.doneWithBodies" : "export.done", language,
              ["count": String(count), "path": written.path]), tone: .success)),
        payload: ExportPayload(
          path: written.path, format: format.rawValue, count: count, bodiesIncluded: include))
    }
  }

  /// `msa messages export -o -`: the lines on standard output, a page at a time, and the
  /// count on standard error.
  static func exportToStandardOutput(
    _ filter: MessageFilter, format: ExportFormat, includeBodies: Bool, store: Store,
    _ environment: AppEnvironment
  ) throws -> CommandResult {
    let count = try MessageExporter(archive: MessageArchive(store: store)).export(
      filter: filter, format: format, includeBodies: includeBodies
    ) { environment.streams.writeExport(String(decoding: $0, as: UTF8.self)) }
    environment.logger.labeled("msa.messages").notice(
      "messages.exported",
      metadata: [
        "count": String(count), "format": format.rawValue, "path": "-",
        "bodies_included": String(includeBodies),
      ])
    environment.streams.writeError(
      MessagesStrings.text(
        includeBodies ? "export.doneStandardWithBodies" : "export.doneStandard",
        environment.language, ["count": String(count)]) + "\n")
    return .written()
  }

  static var stats: FeatureCommand {
    FeatureCommand(
      CommandSpec("stats", abstract: MessagesStrings.string("help.stats"))
        .listing("instances", fields: RowFields.stats)
    ) { invocation in
      let environment = invocation.environment
      let stats = try MessageArchive(store: store(environment)).stats()
      let language = environment.language
      let display = MessagesDisplay.resolve(environment)
      var rows: [ViewNode] = [
        .keyValue(
          KeyValue(key: MessagesStrings.text("stats.total", language), value: String(stats.total))),
        .keyValue(
          KeyValue(
            key: MessagesStrings.text("stats.incoming", language), value: String(stats.incoming))),
        .keyValue(
          KeyValue(
            key: MessagesStrings.text("stats.outgoing", language), value: String(stats.outgoing))),
        .keyValue(
          KeyValue(
            key: MessagesStrings.text("stats.conversations", language),
            value: String(stats.conversations))),
      ]
      if let oldest = stats.oldest, let newest = stats.newest {
        rows.append(
          .keyValue(
            KeyValue(
              key: MessagesStrings.text("stats.range", language),
              value: "\(display.format(oldest)) – \(display.format(newest))")))
      }
      if stats.waitingForIndex > 0 {
        rows.append(
          .keyValue(
            KeyValue(
              key: MessagesStrings.text("stats.searchIndex", language),
              value: MessagesStrings.text(
                "stats.indexing", language, ["count": String(stats.waitingForIndex)]))))
      }
      for state in OutboxState.allCases {
        if let count = stats.outbox[state.rawValue] {
          rows.append(
            .keyValue(
              KeyValue(
                key: MessagesStrings.text(
                  "stats.outbox", language,
                  ["state": MessagesStrings.text("state." + state.rawValue, language)]),
                value: String(count))))
        }
      }
      let table = Table(
        columns: [
          TableColumn(
            id: "instance", title: MessagesStrings.text("column.instance", language), minWidth: 8),
          TableColumn(
            id: "device", title: MessagesStrings.text("column.deviceReported", language),
            minWidth: 5,
            alignment: .trailing),
          TableColumn(
            id: "count", title: MessagesStrings.text("column.archived", language), minWidth: 5,
            alignment: .trailing),
          TableColumn(
            id: "synced", title: MessagesStrings.text("column.synced", language), minWidth: 16),
        ],
        rows: stats.instances.map { item in
          TableRow(
            id: item.instanceID,
            cells: [
              TableCell(item.instanceName),
              TableCell(item.deviceReported.map(String.init) ?? "—"),
              TableCell(String(item.count)),
              TableCell(item.lastSyncedAt.map(display.format) ?? "—", tone: .muted),
            ])
        })
      return CommandResult(
        view: .screen(
          Screen(
            title: MessagesStrings.text("view.stats.title", language),
            children: [.section(Section(children: rows)), .table(table)])),
        payload: stats)
    }
  }
}
