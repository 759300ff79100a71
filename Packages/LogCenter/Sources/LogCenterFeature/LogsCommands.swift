import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import LocalStore
import ViewKit

/// `msa logs …`: list, show, trim, clear and export the two logs.
enum LogsCommands {
  static let defaultLimit = 200

  static var command: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "logs", abstract: LogCenterStrings.string("command.logs"),
        discussion: LogCenterStrings.string("command.logs.discussion"),
        options: CommandSupport.filterOptions + [
          .option(
            "limit", valueName: "N", help: LogCenterStrings.string("option.limit"),
            default: String(defaultLimit))
        ]
      ).listing(
        "records",
        fields: [
          "id", "kind", "date", "level", "source", "instanceID", "instanceName", "code",
          "message", "metadata", "probe",
        ]),
      subcommands: [show, trim, clear, export],
      run: list)
  }

  // MARK: - list

  /// The JSON payload of `msa logs`: `{count, records: [LogItem]}`.
  struct ListPayload: Encodable, Sendable {
    let count: Int
    let records: [LogItem]
  }

  @Sendable static func list(_ invocation: CommandInvocation) async throws -> CommandResult {
    let environment = invocation.environment
    let store = try CommandSupport.store(environment)
    let limit = try invocation.parsed.optionalInt("limit", range: 1...1_000_000)
    let filter = try CommandSupport.filter(
      invocation.parsed, environment: environment, store: store, limit: limit)
    let items = try LogBook(store: store).entries(filter).map {
      $0.localized(environment.language)
    }
    return CommandResult(
      view: LogViews.list(items, language: environment.language),
      payload: ListPayload(count: items.count, records: items))
  }

  // MARK: - show

  static var show: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "show", abstract: LogCenterStrings.string("command.logs.show"),
        arguments: [ArgumentSpec("ID", help: LogCenterStrings.string("argument.recordID"))])
    ) { invocation in
      let environment = invocation.environment
      let text = try invocation.parsed.argument("ID")
      guard let id = LogRecordID(text) else { throw LogCenterError.invalidRecordID(text) }
      let store = try CommandSupport.store(environment)
      guard let item = try LogBook(store: store).entry(id)?.localized(environment.language)
      else { throw LogCenterError.recordNotFound(id.description) }
      return CommandResult(
        view: LogViews.detail(item, language: environment.language), payload: item)
    }
  }

  // MARK: - trim

  /// The JSON payload of `msa logs trim`.
  struct TrimPayload: Encodable, Sendable {
    let olderThanDays: Int?
    let keep: Int?
    let removed: LogRemoval
  }

  static var trim: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "trim", abstract: LogCenterStrings.string("command.logs.trim"),
        options: [
          .option(
            "older-than", valueName: "DAYS", help: LogCenterStrings.string("option.olderThan")),
          .option("keep", valueName: "N", help: LogCenterStrings.string("option.keep")),
          .option(
            "kind", valueName: "KIND", help: LogCenterStrings.string("option.kind"),
            allowed: LogKind.allCases.map(\.rawValue)),
        ])
    ) { invocation in
      let parsed = invocation.parsed
      let environment = invocation.environment
      // Validate everything before touching the store.
      let days = try parsed.optionalInt("older-than", range: 0...100_000)
      let keep = try parsed.optionalInt("keep", range: 0...100_000_000)
      guard (days == nil) != (keep == nil) else {
        throw CommandFailure(LogCenterStrings.string("error.trimModeRequired"), exitCode: .usage)
      }
      let store = try CommandSupport.store(environment)
      let book = LogBook(store: store)
      let kinds = CommandSupport.kinds(parsed)
      let removed: LogRemoval
      if let days {
        let cutoff = environment.clock.now().addingTimeInterval(-Double(days) * 86_400)
        removed = try book.trim(olderThan: cutoff, kinds: kinds)
      } else {
        removed = try book.trim(keepingNewest: keep ?? 0, kinds: kinds)
      }
      environment.logger.labeled("msa.logs").notice(
        "logs.trimmed", metadata: ["count": String(removed.total)])
      return CommandResult(
        view: removalView(removed, key: "logs.trimmed", language: environment.language),
        payload: TrimPayload(olderThanDays: days, keep: keep, removed: removed))
    }
  }

  // MARK: - clear

  /// The JSON payload of `msa logs clear`.
  struct ClearPayload: Encodable, Sendable {
    let removed: LogRemoval
  }

  static var clear: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "clear", abstract: LogCenterStrings.string("command.logs.clear"),
        options: [
          .option(
            "kind", valueName: "KIND", help: LogCenterStrings.string("option.kind"),
            allowed: LogKind.allCases.map(\.rawValue)),
          .flag("yes", short: "y", help: LogCenterStrings.string("option.yes")),
        ])
    ) { invocation in
      let environment = invocation.environment
      let store = try CommandSupport.store(environment)
      let book = LogBook(store: store)
      let kinds = CommandSupport.kinds(invocation.parsed)
      let counts = try book.counts(kinds)
      if counts.total > 0, !invocation.parsed.flag("yes") {
        let target = kinds.map { $0.title(environment.language) }.joined(separator: ", ")
        throw LogCenterError.confirmationRequired(
          action: "clear", target: target, count: counts.total)
      }
      let removed = try book.clear(kinds: kinds)
      // Logged after clearing, so the clear itself is on record.
      environment.logger.labeled("msa.logs").notice(
        "logs.cleared", metadata: ["count": String(removed.total)])
      return CommandResult(
        view: removalView(removed, key: "logs.cleared", language: environment.language),
        payload: ClearPayload(removed: removed))
    }
  }

  static func removalView(_ removal: LogRemoval, key: String, language: AppLanguage) -> ViewNode {
    .banner(
      Banner(
        LogCenterStrings.text(
          key, language,
          [
            "total": String(removal.total), "runtime": String(removal.runtime),
            "connection": String(removal.connection),
          ]), tone: .success))
  }

  // MARK: - export

  /// The JSON payload of `msa logs export`: the file written, or the records themselves
  /// when no `--output` was given.
  struct ExportPayload: Encodable, Sendable {
    let format: LogExportFormat
    let count: Int
    let path: String?
    let records: [LogItem]?
  }

  static var export: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "export", abstract: LogCenterStrings.string("command.logs.export"),
        options: [
          .option(
            "format", valueName: "FORMAT", help: LogCenterStrings.string("option.format"),
            default: "jsonl", allowed: LogExportFormat.allCases.map(\.rawValue)),
          .option(
            "output", short: "o", valueName: "FILE",
            help: LogCenterStrings.string("option.output")
          )
          .completing(.file),
          .flag("force", help: LogCenterStrings.string("option.force")),
        ] + CommandSupport.filterOptions)
    ) { invocation in
      let parsed = invocation.parsed
      let environment = invocation.environment
      let format = LogExportFormat(rawValue: try parsed.string("format")) ?? .jsonl
      let store = try CommandSupport.store(environment)
      let filter = try CommandSupport.filter(
        parsed, environment: environment, store: store, limit: nil)
      let items = try LogBook(store: store).entries(filter).map {
        $0.localized(environment.language)
      }
      let data = LogExporter.render(items, format: format)
      // `-o -` is standard output, as Unix tools read it: the same as no `--output`.
      guard let output = parsed.optionalString("output"), output != "-" else {
        if environment.output.json {
          return CommandResult(
            view: .stack([]),
            payload: ExportPayload(format: format, count: items.count, path: nil, records: items))
        }
        // Raw lines on stdout, byte for byte: the text renderer would wrap long records.
        environment.streams.writeExport(String(decoding: data, as: UTF8.self))
        return .written()
      }
      let url = CommandSupport.fileURL(output)
      let overwrite = parsed.flag("force")
      try AtomicFile.write(data, to: url, mode: 0o600, existing: overwrite ? .replace : .refuse)
      environment.logger.labeled("msa.logs").notice(
        "logs.exported",
        metadata: ["path": url.path, "count": String(items.count), "format": format.rawValue])
      let message = LogCenterStrings.text(
        "logs.exported", environment.language,
        ["count": String(items.count), "path": url.path, "format": format.rawValue])
      return CommandResult(
        view: .banner(Banner(message, tone: .success)),
        payload: ExportPayload(format: format, count: items.count, path: url.path, records: nil))
    }
  }
}
