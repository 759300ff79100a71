import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import LocalStore
import ViewKit

/// `msa data …`: local data summary, check, compact, backup, restore and registry transfer.
enum DataCommands {
  static var command: FeatureCommand {
    FeatureCommand(
      CommandSpec("data", abstract: LogCenterStrings.string("command.data")),
      subcommands: [
        info, check, compact, backup, restore, exportRegistry, importRegistry,
      ])
  }

  static func fileArgument() -> ArgumentSpec {
    ArgumentSpec("FILE", help: LogCenterStrings.string("argument.file")).completing(.file)
  }

  static func banner(
    _ key: String, _ language: AppLanguage, _ arguments: [String: String], tone: Tone = .success
  ) -> ViewNode {
    .banner(Banner(LogCenterStrings.text(key, language, arguments), tone: tone))
  }

  // MARK: - info / check / compact

  static var info: FeatureCommand {
    FeatureCommand(
      CommandSpec("info", abstract: LogCenterStrings.string("command.data.info"))
        .listing("tables", fields: ["table", "rows"])
    ) { invocation in
      let environment = invocation.environment
      let store = try CommandSupport.store(environment)
      let summary = try LocalData(store: store, clock: environment.clock).summary()
      return CommandResult(
        view: DataViews.localData(summary, language: environment.language), payload: summary)
    }
  }

  /// The JSON payload of `msa data check`.
  struct CheckPayload: Encodable, Sendable {
    let ok: Bool
    /// Integrity-check problems (or why the database cannot be opened).
    let problems: [String]
    /// Files around the database: leftovers, loose modes, orphaned passwords.
    let findings: [HomeFinding]
    /// What `--fix` repaired.
    let fixed: [HomeFinding]
  }

  static var check: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "check", abstract: LogCenterStrings.string("command.data.check"),
        discussion: LogCenterStrings.string("command.data.check.discussion"),
        options: [.flag("fix", help: LogCenterStrings.string("option.fix"))])
    ) { invocation in
      let environment = invocation.environment
      let language = environment.language
      var integrity: [String] = []
      var names: [String] = []
      var collisions: [String] = []
      var sameOrigins: [String] = []
      var instanceIDs: Set<String>?
      var instanceNames: [String: String] = [:]
      var credentials: any CredentialStore = FileCredentialStore(
        directory: environment.dataDirectory)
      var databasePath = environment.dataDirectory.appendingPathComponent(Store.databaseFileName)
        .path
      do {
        let store = try CommandSupport.store(environment)
        databasePath = store.databaseURL.path
        credentials = store.credentials
        integrity = LocalData(store: store, clock: environment.clock).check()
        names = try LocalData.nameProblems(store: store, language: language)
        collisions = try LocalData.nameCollisions(store: store, language: language)
        let instances = (try? InstanceRepository(store: store).list()) ?? []
        sameOrigins = try LocalData.originCollisions(store: store, language: language)
        instanceIDs = Set(instances.map(\.id))
        instanceNames = Dictionary(instances.map { ($0.id, $0.name) }) { first, _ in first }
      } catch let error as StoreError {
        guard case .damaged = error else { throw error }
        integrity = [error.localizedMessage(language)]
      }
      let problems = integrity + names + collisions + sameOrigins
      var findings = HomeInspection.findings(
        in: environment.dataDirectory, credentials: credentials, instanceIDs: instanceIDs)
      var fixed: [HomeFinding] = []
      if invocation.parsed.flag("fix") {
        fixed = HomeInspection.fix(
          findings, credentials: credentials, instanceNames: instanceNames,
          now: environment.clock.now())
        // What is left is what a new look finds (a file kept aside is no longer there).
        findings = HomeInspection.findings(
          in: environment.dataDirectory, credentials: credentials, instanceIDs: instanceIDs)
      }
      // A file msa may not write keeps every change out: the check fails with it.
      let blocked = findings.contains { $0.kind.blocks }
      var lines: [ViewNode] = []
      if problems.isEmpty && !blocked {
        lines.append(banner("data.check.ok", language, ["path": databasePath]))
      }
      if !integrity.isEmpty {
        lines.append(
          banner("data.check.failed", language, ["count": String(integrity.count)], tone: .danger))
        lines += integrity.map { .text(Text($0, style: .code)) }
      }
      if !names.isEmpty {
        lines.append(
          banner("data.check.controls", language, ["count": String(names.count)], tone: .warning))
        lines += names.map { .text(Text($0)) }
      }
      if !collisions.isEmpty {
        lines.append(
          banner(
            "data.check.collisions", language, ["count": String(collisions.count)],
            tone: .warning))
        lines += collisions.map { .text(Text($0)) }
      }
      if !sameOrigins.isEmpty {
        lines.append(
          banner(
            "data.check.sameOrigins", language, ["count": String(sameOrigins.count)],
            tone: .warning))
        lines += sameOrigins.map { .text(Text($0)) }
      }
      lines += findings.map {
        .banner(
          Banner(
            $0.describe(language),
            tone: $0.kind == .inUse ? .info : $0.kind.blocks ? .danger : .warning))
      }
      lines += fixed.map { .text(Text($0.describeFix(language), style: .muted)) }
      return CommandResult(
        view: .stack(lines),
        payload: CheckPayload(
          ok: problems.isEmpty && !blocked, problems: problems, findings: findings, fixed: fixed),
        exitCode: problems.isEmpty && !blocked ? .success : .failure)
    }
  }

  static var compact: FeatureCommand {
    FeatureCommand(
      CommandSpec("compact", abstract: LogCenterStrings.string("command.data.compact"))
    ) { invocation in
      let environment = invocation.environment
      let store = try CommandSupport.store(environment)
      let report = try LocalData(store: store, clock: environment.clock).compact()
      environment.logger.labeled("msa.data").info("data.compacted")
      return CommandResult(
        view: banner(
          "data.compacted", environment.language,
          [
            "before": CommandSupport.byteCount(report.bytesBefore),
            "after": CommandSupport.byteCount(report.bytesAfter),
          ]), payload: report)
    }
  }

  // MARK: - backup / restore

  /// The JSON payload of `msa data backup`.
  struct BackupPayload: Encodable, Sendable {
    let path: String
    let bytes: Int64
  }

  static var backup: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "backup", abstract: LogCenterStrings.string("command.data.backup"),
        arguments: [fileArgument()],
        options: [.flag("force", help: LogCenterStrings.string("option.force.backup"))])
    ) { invocation in
      let environment = invocation.environment
      let url = CommandSupport.fileURL(try invocation.parsed.argument("FILE"))
      let store = try CommandSupport.store(environment)
      let bytes = try LocalData(store: store, clock: environment.clock)
        .backup(to: url, force: invocation.parsed.flag("force"))
      environment.logger.labeled("msa.data").notice("data.backup", metadata: ["path": url.path])
      return CommandResult(
        view: banner(
          "data.backedUp", environment.language,
          ["path": url.path, "size": CommandSupport.byteCount(bytes)]),
        payload: BackupPayload(path: url.path, bytes: bytes))
    }
  }

  static var restore: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "restore", abstract: LogCenterStrings.string("command.data.restore"),
        discussion: LogCenterStrings.string("command.data.restore.discussion"),
        arguments: [fileArgument()],
        options: [.flag("yes", short: "y", help: LogCenterStrings.string("option.yes"))])
    ) { invocation in
      let environment = invocation.environment
      let url = CommandSupport.fileURL(try invocation.parsed.argument("FILE"))
      // Check the file before asking for confirmation: a bad file is refused either way.
      try LocalData.validateHeader(url)
      let store: Store
      do {
        store = try CommandSupport.store(environment)
      } catch let error as StoreError {
        guard case .damaged(let path, _, _) = error else { throw error }
        return try restoreIntoDamagedHome(invocation, from: url, databasePath: path)
      }
      if !invocation.parsed.flag("yes") {
        let rows = try LocalData(store: store, clock: environment.clock).summary().tables
          .filter { $0.table != "schema_versions" }.reduce(0) { $0 + $1.rows }
        throw LogCenterError.confirmationRequired(
          action: "restore", target: store.databaseURL.path, count: rows)
      }
      let report = try LocalData(store: store, clock: environment.clock).restore(from: url)
      // Logged after the restore, so the record is kept in the restored data.
      environment.logger.labeled("msa.data").notice(
        "data.restored", metadata: ["path": report.source, "backup": report.safetyCopy])
      return CommandResult(
        view: banner(
          "data.restored", environment.language,
          ["path": report.source, "backup": report.safetyCopy]), payload: report)
    }
  }

  /// `msa data restore` when the database cannot be opened: with `--yes`, the damaged file
  /// is moved aside (never deleted) and the backup takes its place.
  static func restoreIntoDamagedHome(
    _ invocation: CommandInvocation, from url: URL, databasePath: String
  ) throws -> CommandResult {
    let environment = invocation.environment
    guard invocation.parsed.flag("yes") else {
      throw LogCenterError.confirmationRequired(
        action: "restoreDamaged", target: databasePath, count: 0)
    }
    let report = try LocalData.restoreIntoDamagedHome(
      directory: environment.dataDirectory, databaseURL: URL(fileURLWithPath: databasePath),
      from: url, clock: environment.clock)
    let view =
      report.safetyCopy.isEmpty
      ? banner("data.restored.missing", environment.language, ["path": report.source])
      : banner(
        "data.restored.damaged", environment.language,
        ["path": report.source, "aside": report.safetyCopy])
    return CommandResult(view: view, payload: report)
  }

  // MARK: - registry

  static var exportRegistry: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "export-registry", abstract: LogCenterStrings.string("command.data.exportRegistry"),
        discussion: LogCenterStrings.string("command.data.exportRegistry.discussion"),
        arguments: [fileArgument()],
        options: [
          .flag("include-passwords", help: LogCenterStrings.string("option.includePasswords")),
          .flag("force", help: LogCenterStrings.string("option.force")),
        ])
    ) { invocation in
      let environment = invocation.environment
      let parsed = invocation.parsed
      let url = CommandSupport.fileURL(try parsed.argument("FILE"))
      let store = try CommandSupport.store(environment)
      let report = try RegistryTransfer(store: store, clock: environment.clock).export(
        to: url, includePasswords: parsed.flag("include-passwords"),
        overwrite: parsed.flag("force"))
      let key =
        report.includesPasswords ? "data.registryExported.passwords" : "data.registryExported"
      environment.logger.labeled("msa.data").notice(
        report.includesPasswords
          ? "data.registryExportedWithPasswords" : "data.registryExported",
        metadata: ["path": report.path, "count": String(report.instances)])
      return CommandResult(
        view: banner(
          key, environment.language,
          [
            "path": report.path, "instances": String(report.instances),
            "groups": String(report.groups),
          ], tone: report.includesPasswords ? .warning : .success),
        payload: report)
    }
  }

  static var importRegistry: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "import-registry", abstract: LogCenterStrings.string("command.data.importRegistry"),
        arguments: [fileArgument()],
        options: [.flag("dry-run", help: LogCenterStrings.string("option.dryRun"))])
    ) { invocation in
      let environment = invocation.environment
      let parsed = invocation.parsed
      let url = CommandSupport.fileURL(try parsed.argument("FILE"))
      let store = try CommandSupport.store(environment)
      let report = try RegistryTransfer(store: store, clock: environment.clock).importRegistry(
        from: url, dryRun: parsed.flag("dry-run"))
      let language = environment.language
      if !report.dryRun {
        environment.logger.labeled("msa.data").notice(
          "data.registryImported",
          metadata: ["path": url.path, "count": String(report.added.count)])
      }
      var lines: [ViewNode] = [
        banner(
          report.dryRun ? "data.imported.dryRun" : "data.imported", language,
          [
            "added": String(report.added.count), "skipped": String(report.skipped.count),
            "groups": String(report.groupsCreated.count),
          ], tone: report.dryRun ? .info : .success)
      ]
      if !report.skipped.isEmpty {
        lines.append(
          .text(
            Text(
              LogCenterStrings.text(
                "data.imported.skipped", language,
                ["names": report.skipped.joined(separator: ", ")]), style: .muted)))
      }
      return CommandResult(view: .stack(lines), payload: report)
    }
  }
}
