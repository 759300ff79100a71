import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminClient
import ViewKit

/// The `msa fleet …` commands.
enum FleetCommands {
  static func string(_ key: String) -> LocalizedString { FleetStrings.string(key) }

  static var command: FeatureCommand {
    FeatureCommand(
      CommandSpec("fleet", abstract: string("cmd.fleet"), defaultSubcommand: "list"),
      subcommands: [list, add, edit, remove, test, show, login, logout])
  }

  // MARK: - list

  static var list: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "list", aliases: ["ls"], abstract: string("cmd.list"),
        options: [
          .option("group", valueName: "GROUP", help: string("opt.group.filter")).completing(.group),
          .option("tag", valueName: "TAG", help: string("opt.tag.filter")).completing(.tag),
          .option(
            "status", valueName: "STATUS", help: string("opt.status"),
            allowed: InstanceStatus.allCases.map(\.rawValue)),
          .option("search", valueName: "TEXT", help: string("opt.search")),
        ]
      ).listing("instances", fields: FleetRow.jsonFields)
    ) { invocation in
      let context = try FleetContext(invocation.environment)
      let parsed = invocation.parsed
      var filter = InstanceFilter()
      if let group = parsed.optionalString("group") {
        filter.group = .id(try context.registry.resolveGroup(reference: group).id)
      }
      filter.tag = parsed.optionalString("tag")
      var rows = try FleetRow.load(context.registry.list(filter: filter), store: context.store)
      if let status = parsed.optionalString("status").flatMap(InstanceStatus.init(rawValue:)) {
        rows = rows.filter { $0.status == status }
      }
      if let search = parsed.optionalString("search") {
        rows = rows.filter { $0.matches(search: search) }
      }
      let isFiltered = ["group", "tag", "status", "search"].contains {
        parsed.optionalString($0) != nil
      }
      let payload = InstancesPayload(instances: rows)
      // `--json` prints only the payload: the workbench view is not built for it.
      guard !context.environment.output.json else {
        return CommandResult(view: .stack([]), payload: payload)
      }
      let state = WorkbenchState(
        rows: rows, now: context.environment.clock.now(), isFiltered: isFiltered)
      return CommandResult(
        view: WorkbenchView.view(state, language: context.language), payload: payload)
    }
  }

  // MARK: - add

  static var add: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "add", abstract: string("cmd.add"),
        options: [
          .option("name", valueName: "NAME", help: string("opt.name"), required: true),
          .option("url", valueName: "URL", help: string("opt.url"), required: true),
          .option("tag", valueName: "TAG", help: string("opt.tag"), repeating: true)
            .completing(.tag),
          .option("group", valueName: "GROUP", help: string("opt.group")).completing(.group),
          .flag("password-stdin", help: string("opt.passwordStdin")),
        ])
    ) { invocation in
      let context = try FleetContext(invocation.environment)
      let parsed = invocation.parsed
      try context.store.requireWritable()
      let name = try parsed.string("name")
      let origin = try InstanceOrigin(parsing: try parsed.string("url"))
      let groupID = try parsed.optionalString("group").map {
        try context.registry.resolveGroup(reference: $0).id
      }
      var password: String?
      if parsed.flag("password-stdin") {
        try context.requireCredentials()
        password = try context.readPassword(for: name)
      }
      // Both or neither: the password is stored inside the transaction that adds the
      // instance, so a failure rolls the instance back; a kill between the two leaves only a
      // password for an id that does not exist, which `msa data check --fix` forgets, and a
      // re-add works.
      var storedFor: String?
      let instance: Instance
      do {
        instance = try context.store.database.transaction { _ in
          let instance = try context.registry.add(
            name: name, origin: origin, tags: parsed.strings("tag"), groupID: groupID)
          if let password {
            try context.store.credentials.setPassword(password, for: instance.id)
            storedFor = instance.id
          }
          return instance
        }
      } catch {
        // The commit failed after the password was stored: forget it again.
        if let storedFor { try? context.store.credentials.removePassword(for: storedFor) }
        throw error
      }
      context.environment.logger.labeled("msa.fleet").info(
        "fleet.instanceAdded",
        metadata: ["instance_id": instance.id, "instance_name": instance.name])
      let row = try context.row(instance)
      return CommandResult(
        view: written(row, key: "result.added", context),
        payload: WrittenPayload(instance: row, action: "added"))
    }
  }

  static func written(_ row: FleetRow, key: String, _ context: FleetContext) -> ViewNode {
    .stack([
      .banner(Banner(context.text(key, ["name": row.name, "id": row.id]), tone: .success)),
      InstanceDetailView.view(
        row, now: context.environment.clock.now(), language: context.language),
    ])
  }

  // MARK: - edit

  static var edit: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "edit", abstract: string("cmd.edit"),
        arguments: [ArgumentSpec("REF", help: string("arg.ref")).completing(.instance)],
        options: [
          .option("name", valueName: "NAME", help: string("opt.name")),
          .option("url", valueName: "URL", help: string("opt.url")),
          .option("tag", valueName: "TAG", help: string("opt.tag"), repeating: true)
            .completing(.tag),
          .option("untag", valueName: "TAG", help: string("opt.untag"), repeating: true)
            .completing(.tag),
          .option("group", valueName: "GROUP", help: string("opt.group")).completing(.group),
          .flag("no-group", help: string("opt.noGroup")),
          .flag("password-stdin", help: string("opt.passwordStdin")),
          .flag("clear-password", help: string("opt.clearPassword")),
          .option("revision", valueName: "N", help: string("opt.revision")),
        ])
    ) { invocation in
      let context = try FleetContext(invocation.environment)
      let parsed = invocation.parsed
      if parsed.optionalString("group") != nil, parsed.flag("no-group") {
        throw CommandFailure(string("error.groupAndNoGroup"), exitCode: .usage)
      }
      if parsed.flag("password-stdin"), parsed.flag("clear-password") {
        throw CommandFailure(string("error.passwordAndClear"), exitCode: .usage)
      }
      try context.store.requireWritable()
      let instance = try context.registry.resolve(reference: try parsed.argument("REF"))
      let revision = try parsed.optionalInt("revision", range: 1...Int(Int32.max))
      var changes = InstanceChanges(
        name: parsed.optionalString("name"), addTags: parsed.strings("tag"),
        removeTags: parsed.strings("untag"))
      if let url = parsed.optionalString("url") {
        changes.origin = try InstanceOrigin(parsing: url)
      }
      if let group = parsed.optionalString("group") {
        changes.group = .group(try context.registry.resolveGroup(reference: group).id)
      } else if parsed.flag("no-group") {
        changes.group = .ungrouped
      }
      let passwordChange = parsed.flag("password-stdin") || parsed.flag("clear-password")
      let hasChange =
        changes.name != nil || changes.origin != nil || changes.group != nil
        || !changes.addTags.isEmpty || !changes.removeTags.isEmpty || passwordChange
      guard hasChange else {
        throw CommandFailure(string("error.nothingToChange"), exitCode: .usage)
      }
      if let revision, revision != instance.revision {
        throw RegistryError.conflict(expected: revision, current: instance)
      }
      var password: String?
      if passwordChange { try context.requireCredentials() }
      if parsed.flag("password-stdin") {
        password = try context.readPassword(for: changes.name ?? instance.name)
      }
      let updated = try context.registry.update(
        id: instance.id, expectedRevision: revision ?? instance.revision, changes: changes)
      if updated.origin != instance.origin { context.forgetSession(instance.id) }
      if let password {
        try context.store.credentials.setPassword(password, for: instance.id)
      } else if parsed.flag("clear-password") {
        try context.store.credentials.removePassword(for: instance.id)
        context.forgetSession(instance.id)
      }
      let row = try context.row(updated)
      return CommandResult(
        view: written(row, key: "result.updated", context),
        payload: WrittenPayload(instance: row, action: "updated"))
    }
  }

  // MARK: - remove

  static var remove: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "remove", aliases: ["rm"], abstract: string("cmd.remove"),
        arguments: [
          ArgumentSpec("REF", help: string("arg.refs"), repeating: true).completing(.instance)
        ],
        options: [
          .flag("yes", short: "y", help: string("opt.yes")),
          .flag("release-hub", help: string("opt.releaseHub")),
          .flag("force", help: string("opt.force")),
        ]
      ).listing("removals", fields: RemovalReport.jsonFields)
    ) { invocation in
      let context = try FleetContext(invocation.environment)
      let parsed = invocation.parsed
      let references = parsed.argumentList("REF")
      guard !references.isEmpty else {
        throw UsageError(.missingArgument, path: parsed.path, subject: "<ref>")
      }
      try context.store.requireWritable()
      let instances = try context.resolve(references)
      let releaseHub = parsed.flag("release-hub")
      let remover = InstanceRemover(store: context.store, connector: try context.connector())
      guard parsed.flag("yes") else {
        guard releaseHub else {
          // Removal alone changes nothing on the devices: nothing to read before asking.
          throw FleetFailure(
            "error.confirmRemove",
            [
              "count": String(instances.count),
              "targets": instances.map(\.name).joined(separator: ", "),
            ])
        }
        // Releasing writes to each device: the question names each one's Hub, as read now.
        try context.requireCredentials()
        var targets: [String] = []
        for instance in instances {
          let reading = await remover.hubReading(instance)
          targets.append(
            context.text(
              "confirm.releaseTarget",
              ["name": instance.name, "hub": hubText(reading, context)]))
        }
        throw FleetFailure(
          "error.confirmRelease",
          ["count": String(instances.count), "targets": targets.joined(separator: "; ")])
      }
      try context.requireCredentials()
      var reports: [RemovalReport] = []
      for (index, instance) in instances.enumerated() {
        let report = try await remover.remove(
          instance, force: parsed.flag("force"), releaseHub: releaseHub)
        reports.append(report)
        if instances.count > 1 {
          context.environment.progress(
            index + 1, of: instances.count,
            context.text(
              report.deleted ? "progress.removed" : "progress.kept",
              ["name": instance.name, "release": hubCell(report, context).text]))
        }
        if report.deleted {
          context.environment.logger.labeled("msa.fleet").info(
            "fleet.instanceRemoved",
            metadata: [
              "instance_id": instance.id, "instance_name": instance.name,
              "release": report.release.rawValue, "hub": report.hub?.rawValue ?? "",
            ])
        }
      }
      let failed = reports.contains { !$0.deleted }
      return CommandResult(
        view: removalView(reports, context), payload: RemovePayload(removals: reports),
        exitCode: failed ? .failure : .success)
    }
  }

  /// What a device's Hub binding was read as, in words: "bound to http://…", "standalone"…
  static func hubText(_ reading: HubReading, _ context: FleetContext) -> String {
    switch reading {
    case .bound(let url, _): context.text("hub.bound", ["hub": url])
    case .standalone: context.text("hub.standalone")
    case .waiting: context.text("hub.waiting")
    case .notSupported: context.text("hub.notSupported")
    case .unreadable(let error):
      context.text("hub.unreadable", ["reason": error.localizedMessage(context.language)])
    }
  }

  /// The report's Hub cell: what the device is left as, or what the release did.
  static func hubCell(_ report: RemovalReport, _ context: FleetContext) -> TableCell {
    let found: String
    switch report.hub {
    case .bound?: found = context.text("hub.bound", ["hub": report.hubURL ?? ""])
    case .standalone?: found = context.text("hub.standalone")
    case .waiting?: found = context.text("hub.waiting")
    case .notSupported?: found = context.text("hub.notSupported")
    case .unreadable?, nil:
      found = context.text(
        "hub.unreadable",
        ["reason": report.hubFailure?.localizedMessage(context.language) ?? report.hubReason ?? ""])
    }
    let reason = report.failure?.localizedMessage(context.language) ?? report.detail ?? ""
    switch report.release {
    case .leftAsIs:
      let tone: Tone = report.hub == .bound || report.hub == .waiting ? .warning : .muted
      return TableCell(
        report.hub == .bound || report.hub == .waiting
          ? context.text("release.leftAsIs", ["hub": found]) : found, tone: tone)
    case .released:
      return TableCell(
        context.text("release.released", ["hub": report.hubURL ?? ""]), tone: .success)
    case .nothingToRelease:
      return TableCell(context.text("release.nothingToRelease", ["hub": found]), tone: .muted)
    case .failed where report.hub == .unreadable || report.hub == nil:
      // The binding could not even be read: that is the reason.
      return TableCell(context.text("release.unreadable", ["hub": found]), tone: .danger)
    case .failed:
      return TableCell(
        context.text("release.failed", ["hub": found, "reason": reason]), tone: .danger)
    case .unanswered:
      return TableCell(
        context.text(
          "release.unanswered",
          ["hub": report.hubURL ?? "", "seconds": SnapshotParts.seconds(5)]), tone: .warning)
    }
  }

  static func removalView(_ reports: [RemovalReport], _ context: FleetContext) -> ViewNode {
    let rows = reports.map { report in
      let outcome =
        report.deleted
        ? TableCell(context.text("result.deleted"), tone: .success)
        : TableCell(context.text("result.kept"), tone: .danger)
      return TableRow(
        id: report.id,
        cells: [TableCell(report.name), hubCell(report, context), outcome])
    }
    var children: [ViewNode] = [
      .table(
        Table(
          columns: [
            TableColumn(id: "name", title: context.text("column.name"), priority: 3),
            TableColumn(
              id: "release", title: context.text("column.release"), minWidth: 8, priority: 2,
              sizing: .fill),
            TableColumn(id: "result", title: context.text("column.result"), priority: 1),
          ], rows: rows))
    ]
    if reports.contains(where: { !$0.deleted }) {
      children.append(.banner(Banner(context.text("remove.hintForce"), tone: .warning)))
    }
    let forced = reports.filter(\.mayStillBeBound).map(\.name)
    if !forced.isEmpty {
      children.append(
        .banner(
          Banner(
            context.text("remove.mayStillBeBound", ["names": forced.joined(separator: ", ")]),
            tone: .warning)))
    }
    // Bound devices left as they are: still their Hub's; how to release one, if wanted.
    let bound = reports.filter { $0.deleted && $0.release == .leftAsIs && $0.hub == .bound }
    if !bound.isEmpty {
      children.append(
        .text(
          Text(
            context.text("remove.boundLeft", ["names": bound.map(\.name).joined(separator: ", ")]),
            style: .muted)))
    }
    return .stack(children)
  }

  // MARK: - test

  static var test: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "test", abstract: string("cmd.test"),
        arguments: [
          ArgumentSpec("REF", help: string("arg.refs"), optional: true, repeating: true)
            .completing(.instance)
        ],
        options: [
          .flag("all", help: string("opt.all")),
          .option("group", valueName: "GROUP", help: string("opt.group.test"))
            .completing(.group),
          .option("tag", valueName: "TAG", help: string("opt.tag.test")).completing(.tag),
          .option(
            "status", valueName: "STATUS", help: string("opt.status.test"),
            allowed: InstanceStatus.allCases.map(\.rawValue)),
          .option("timeout", valueName: "SECONDS", help: string("opt.timeout"), default: "5"),
          .option("concurrency", valueName: "N", help: string("opt.concurrency"), default: "32"),
        ]
      ).listing("results", fields: ProbeResult.jsonFields)
    ) { invocation in
      let context = try FleetContext(invocation.environment)
      let parsed = invocation.parsed
      let references = parsed.argumentList("REF")
      let group = parsed.optionalString("group")
      let tag = parsed.optionalString("tag")
      let status = parsed.optionalString("status").flatMap(InstanceStatus.init(rawValue:))
      let filtered = group != nil || tag != nil || status != nil
      // Exactly one way to choose: references, --all, or filters (--all with filters is the
      // same as the filters).
      if references.isEmpty == !(parsed.flag("all") || filtered) {
        throw CommandFailure(string("error.testTargets"), exitCode: .usage)
      }
      let timeoutText = try parsed.string("timeout")
      guard let timeout = Double(timeoutText), timeout > 0, timeout <= 600 else {
        throw UsageError(
          .invalidValue, path: parsed.path, subject: "--timeout <SECONDS>", value: timeoutText,
          problem: .outOfRange(lower: 1, upper: 600))
      }
      let width = try parsed.int("concurrency", range: 1...1024)
      try context.store.requireWritable()
      var instances: [Instance]
      if references.isEmpty {
        var filter = InstanceFilter()
        if let group { filter.group = .id(try context.registry.resolveGroup(reference: group).id) }
        filter.tag = tag
        instances = try context.registry.list(filter: filter)
        if let status {
          let current = try FleetRow.load(instances, store: context.store)
          let wanted = Set(current.filter { $0.status == status }.map(\.id))
          instances = instances.filter { wanted.contains($0.id) }
        }
      } else {
        instances = try context.resolve(references)
      }
      var prober = Prober(
        connector: try context.connector(), credentials: context.store.credentials,
        clock: context.environment.clock, timeout: timeout)
      prober.noModemBefore = try StatusRepository(store: context.store).details(
        withReason: StatusReason.noModem.rawValue)
      let recorder = StatusRecorder(store: context.store, logger: context.environment.logger)
      var done = 0
      var snapshotTexts: [String: String] = [:]
      var held: [String: (text: String, snapshot: DeviceSnapshot)] = [:]
      // Each probe may hold as many connections as the client opens per device.
      let allowed = context.environment.cappedConcurrency(
        width, total: instances.count, descriptorsEach: 8)
      let results = await prober.probe(instances, width: allowed) { result in
        done += 1
        // Encoded now, while other devices answer, not after the last one; a snapshot whose
        // text reads back as itself is shown as held, not decoded again after the write.
        if let snapshot = result.snapshot {
          let (text, readsBack) = snapshot.storedText()
          snapshotTexts[result.instanceID] = text
          if let text, readsBack { held[result.instanceID] = (text, snapshot) }
        }
        if instances.count > 1 {
          context.environment.progress(
            done, of: instances.count,
            context.text(
              result.reason == nil ? "progress.tested" : "progress.testedReason",
              [
                "name": result.instanceName, "status": result.status.label(context.language),
                "reason": result.reason?.text(context.language, detail: result.detail) ?? "",
              ]))
        }
      }
      // A WAL of up to 64 MiB before SQLite's automatic checkpoint (its default is 4 MiB,
      // which a refresh of 1,000 devices passes on most runs): the same status pages,
      // rewritten by every refresh, are copied into the database file once per checkpoint
      // instead of inside most refreshes' commits; and the WAL file is cut back to 64 MiB
      // after a checkpoint instead of keeping its largest size. Committed refreshes survive
      // a crash as before (docs/decisions/009-wal-and-durability.md).
      try context.store.database.execute(
        "PRAGMA wal_autocheckpoint = 16384; PRAGMA journal_size_limit = 67108864")
      // The batch's status rows in one transaction (one commit, not one per device).
      try recorder.record(results, snapshotTexts: snapshotTexts)
      let rows = try FleetRow.load(instances, store: context.store, held: held)
      let state = WorkbenchState(rows: rows, now: context.environment.clock.now())
      let allOnline = results.allSatisfy { $0.status == .online }
      return CommandResult(
        view: WorkbenchView.view(state, language: context.language),
        payload: TestPayload(results: results), exitCode: allOnline ? .success : .failure)
    }
  }

  // MARK: - show

  static var show: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "show", abstract: string("cmd.show"),
        arguments: [ArgumentSpec("REF", help: string("arg.ref")).completing(.instance)]
      ).listing("instances", fields: FleetRow.jsonFields)
    ) { invocation in
      let context = try FleetContext(invocation.environment)
      let instance = try context.registry.resolve(reference: try invocation.parsed.argument("REF"))
      let row = try context.row(instance)
      return CommandResult(
        view: InstanceDetailView.view(
          row, now: context.environment.clock.now(), language: context.language),
        payload: InstancesPayload(instances: [row]))
    }
  }

  // MARK: - login / logout

  static var login: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "login", abstract: string("cmd.login"),
        arguments: [ArgumentSpec("REF", help: string("arg.ref")).completing(.instance)],
        options: [.flag("password-stdin", help: string("opt.passwordStdin"))])
    ) { invocation in
      let context = try FleetContext(invocation.environment)
      let instance = try context.registry.resolve(reference: try invocation.parsed.argument("REF"))
      try context.requireCredentials()
      let typed =
        invocation.parsed.flag("password-stdin")
        ? try context.readPassword(for: instance.name) : nil
      guard let password = try typed ?? context.store.credentials.password(for: instance.id) else {
        throw FleetFailure("error.noPasswordStored", ["name": instance.name])
      }
      // A stored password this device refused is not tried again (the device alerts its
      // owner after 5 failed logins in 5 minutes); a new one comes with --password-stdin.
      if typed == nil,
        case .refused(let refusal) = context.store.credentials.loginPassword(
          for: instance.id, origin: instance.origin.url.absoluteString)
      {
        throw FleetFailure(
          "error.passwordRefused",
          [
            "name": instance.name,
            "time": CivilTime(refusal.at, offsetSeconds: TimeZone.current.secondsFromGMT()).text(),
          ])
      }
      let session = try context.connector().session(
        for: instance.id, name: instance.name, origin: instance.origin.url)
      // A SimAdminFailure explains itself, naming the instance and the endpoint; a password
      // just typed and refused is not "the stored password" (nothing was stored).
      do {
        try await session.login(password: password)
      } catch let failure as SimAdminFailure where typed != nil && failure.error == .wrongPassword {
        throw FleetFailure("error.enteredPasswordRefused", ["name": instance.name])
      }
      if let typed { try context.store.credentials.setPassword(typed, for: instance.id) }
      return CommandResult(
        view: .banner(
          Banner(context.text("result.loggedIn", ["name": instance.name]), tone: .success)),
        payload: SessionPayload(id: instance.id, name: instance.name, state: "loggedIn"))
    }
  }

  static var logout: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "logout", abstract: string("cmd.logout"),
        arguments: [ArgumentSpec("REF", help: string("arg.ref")).completing(.instance)])
    ) { invocation in
      let context = try FleetContext(invocation.environment)
      let instance = try context.registry.resolve(reference: try invocation.parsed.argument("REF"))
      let session = try context.connector().session(
        for: instance.id, name: instance.name, origin: instance.origin.url)
      try await session.logout()
      return CommandResult(
        view: .banner(
          Banner(context.text("result.loggedOut", ["name": instance.name]), tone: .success)),
        payload: SessionPayload(id: instance.id, name: instance.name, state: "loggedOut"))
    }
  }
}
