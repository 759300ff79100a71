import CommandLineApp
import Essentials
import EssentialsTesting
import FeatureKit
import Foundation
import MSAApp
import SimAdminSimulator
import Testing

/// Every command's `--json` output against its schema in `docs/json/`, run against a
/// simulated fleet over real HTTP and a real data directory.
///
/// With `JSON_SCHEMA_SAMPLES=DIR` in the environment the outputs are also written to DIR (a
/// help for writing a new command's schema).
@Suite(.serialized) struct JSONSchemaTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let folder = root.appendingPathComponent("docs/json")

  /// Runs msa in-process with `home` as its data directory.
  static func run(_ arguments: [String], home: URL, input: String? = nil) async throws -> Run {
    let output = Captured()
    let error = Captured()
    let context = ProcessContext(
      environment: ["MSA_HOME": home.path, "LANG": "en_US.UTF-8"],
      streams: StandardStreams(
        writeError: { text in error.text.withLock { $0 += text } }, readInput: { input }),
      writeOutput: { text in output.text.withLock { $0 += text } },
      outputIsTerminal: false, terminalWidth: nil, clock: SystemClockForTests.clock)
    let app = try MSAApplication(modules: CompiledFeatures.modules)
    let status = await app.run(arguments, context: context)
    return Run(status: status, output: output.text.current, error: error.text.current)
  }

  /// The schema file of a command path: `messages list` → `messages-list.schema.json`.
  static func schemaName(_ command: String) -> String {
    command.replacingOccurrences(of: " ", with: "-") + ".schema.json"
  }

  @Test func everyCommandsOutputMatchesItsSchema() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "Alpha", smsCount: 6), DeviceProfile(name: "Beta", smsCount: 4),
      DeviceProfile(name: "Gamma", password: "gamma-pass", smsCount: 2),
    ])
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-schema-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let files = home.appendingPathComponent("files")
    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    func file(_ name: String) -> String { files.appendingPathComponent(name).path }
    let alpha = fleet.devices[0].origin.absoluteString
    let beta = fleet.devices[1].origin.absoluteString
    let gamma = fleet.devices[2].origin.absoluteString
    let scenario: [[String]] = [
      ["fleet", "add", "--name", "Alpha", "--url", alpha],
      ["fleet", "add", "--name", "Beta", "--url", beta, "--tag", "lab"],
      ["fleet", "list"], ["fleet", "list", "--tag", "nothing-matches"], ["fleet", "show", "Alpha"],
      ["fleet", "test", "--all"], ["fleet", "edit", "Beta", "--tag", "shop"],
      ["fleet", "add", "--name", "Gamma", "--url", gamma, "--password-stdin"],
      ["fleet", "login", "Gamma"], ["fleet", "logout", "Gamma"], ["fleet", "login", "Alpha"],
      ["groups", "add", "Shop"], ["groups", "list"], ["groups", "rename", "Shop", "Store"],
      ["groups", "remove", "Store"], ["tags"],
      ["alpha code"], ["code"], ["messages", "list", "--has-code"],
      ["messages", "sync"], ["messages", "list", "--since", "3650d"],
      ["messages", "conversations"], ["messages", "stats"],
      ["messages", "send", "--from", "Alpha", "--to", "10086", "--text", "CXYE 1234"],
      ["beta down"],
      ["messages", "send", "--from", "Beta", "--to", "10010", "--text", "hello"],
      ["outbox", "list"], ["outbox", "flush"], ["outbox", "check"], ["outbox", "cancel", "2"],
      ["outbox", "retry", "2"],
      ["beta up"],
      ["messages", "export", "--format", "jsonl", "--output", file("messages.jsonl")],
      ["messages", "show", "10086"],
      ["messages", "delete", "--peer", "10086", "--scope", "local", "--yes"],
      ["device", "Alpha", "sim"], ["device", "Alpha", "sms"],
      ["device", "Alpha", "sms", "send", "--to", "10086", "--text", "CXLL"],
      ["device", "Alpha", "sms", "delete", "--all", "--yes"],
      // Commands whose output is never JSON refuse --json (a usage error, in the envelope).
      ["manual"], ["completion", "bash"],
      ["logs"], ["logs", "show", "r1"], ["logs", "export", "--output", file("logs.jsonl")],
      ["logs", "trim", "--keep", "100000"],
      ["data", "info"], ["data", "check"], ["data", "compact"],
      ["data", "backup", file("backup.sqlite")],
      ["data", "export-registry", file("registry.json")],
      ["data", "import-registry", file("registry.json"), "--dry-run"],
      ["data", "restore", file("backup.sqlite"), "--yes"], ["logs", "clear", "--yes"],
      ["routes"], ["modules"], ["view", "about"],
      ["fleet", "remove", "Beta", "--yes", "--force"],
      // A failure: the error envelope.
      ["fleet", "show", "Nobody"],
    ]
    let samples = ProcessInfo.processInfo.environment["JSON_SCHEMA_SAMPLES"].map {
      URL(fileURLWithPath: $0)
    }
    var validator = JSONSchemaValidator(folder: Self.folder)
    var covered: Set<String> = []
    let tree = try MSAMain.composed().commandTree
    var rowsChecked = 0
    for arguments in scenario {
      if arguments == ["alpha code"] {
        _ = fleet.devices[0].receiveSMS(from: "Google", content: "G-482913 is your Google code.")
        continue
      }
      if arguments == ["beta down"] || arguments == ["beta up"] {
        fleet.devices[1].setFaults(arguments == ["beta down"] ? [FaultRule(.down)] : [])
        continue
      }
      let input = arguments.contains("--password-stdin") ? "gamma-pass" : nil
      let run = try await Self.run(arguments + ["--json"], home: home, input: input)
      if ["manual", "completion"].contains(arguments[0]) {
        #expect(run.status == 64, "\(arguments): \(run.output)")
        #expect(run.error.contains("never JSON"), "\(arguments): \(run.error)")
      }
      let value = try JSONValue.parse(Data(run.output.utf8))
      guard case .string(let command)? = value["command"] else {
        Issue.record("\(arguments): no command in \(run.output) \(run.error)")
        continue
      }
      let name = value["error"] == nil ? Self.schemaName(command) : "error.schema.json"
      if let samples {
        try? FileManager.default.createDirectory(at: samples, withIntermediateDirectories: true)
        try Data(run.output.utf8).write(
          to: samples.appendingPathComponent(
            arguments.prefix(3).joined(separator: "_").replacingOccurrences(of: "/", with: "")
              + ".json"))
      }
      covered.insert(name)
      guard FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent(name).path)
      else {
        Issue.record("\(arguments): no schema \(name)")
        continue
      }
      let problems = try validator.problems(of: value, against: name)
      #expect(problems.isEmpty, "\(arguments) against \(name): \(problems)")
      // The rows a command declares for --fields are the rows it prints, with no field left
      // undeclared.
      let path = command.split(separator: " ").map(String.init)
      if value["error"] == nil, let rows = tree.command(at: path)?.jsonRows {
        guard case .array(let items)? = value["data"]?[rows.key] else {
          Issue.record("\(arguments): no data.\(rows.key) array")
          continue
        }
        for row in items.compactMap(\.dictionary) {
          #expect(
            Set(row.keys).isSubset(of: Set(rows.fields)),
            "\(arguments): \(Set(row.keys).subtracting(rows.fields)) undeclared")
          rowsChecked += 1
        }
      }
      if case .object = value["data"] {
      } else if value["error"] == nil {
        Issue.record("\(arguments): data is not an object")
      }
    }
    #expect(rowsChecked >= 30)
    // --fields on real rows keeps exactly the chosen fields, `repaired` included.
    for (line, key, fields) in [
      (["messages", "list", "--since", "3650d"], "messages", ["id", "repaired"]),
      (["messages", "conversations"], "conversations", ["peer", "count"]),
      (["outbox", "list"], "entries", ["id", "state"]),
      (["fleet", "test", "--all"], "results", ["instanceName", "status", "reason"]),
    ] {
      let run = try await Self.run(
        line + ["--json", "--fields", fields.joined(separator: ",")], home: home)
      guard case .array(let items)? = try JSONValue.parse(Data(run.output.utf8))["data"]?[key]
      else {
        Issue.record("\(line): no data.\(key) in \(run.output) \(run.error)")
        continue
      }
      #expect(!items.isEmpty, "\(line)")
      for row in items.compactMap(\.dictionary) {
        #expect(Set(row.keys).isSubset(of: Set(fields)) && row[fields[0]] != nil, "\(line): \(row)")
      }
    }
    // `msa simulate` runs until it is stopped: the real executable, stopped after its listing.
    let simulate = try Self.simulateListing()
    let simulateProblems = try validator.problems(of: simulate, against: "simulate.schema.json")
    #expect(simulateProblems.isEmpty, "\(simulateProblems)")
    covered.insert("simulate.schema.json")
    // Every schema in the folder was exercised: none describes a command that is gone.
    let present = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
      .filter { $0.hasSuffix(".schema.json") && $0 != "common.schema.json" }
    #expect(Set(present).subtracting(covered).isEmpty, "\(Set(present).subtracting(covered))")
    await fleet.stop()
  }

  /// The rows a schema describes: each `data.<key>` that is an array of objects with named
  /// properties, with those property names.
  static func schemaRows(_ data: Data) throws -> [(key: String, fields: [String])] {
    let common = (try? Data(contentsOf: folder.appendingPathComponent("common.schema.json")))
      .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    let schema = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    func resolve(_ node: Any?) -> [String: Any]? {
      guard var object = node as? [String: Any] else { return nil }
      while let reference = object["$ref"] as? String {
        let name = String(reference.split(separator: "/").last ?? "")
        let root = reference.hasPrefix("#") ? schema : common
        guard let target = (root?["$defs"] as? [String: Any])?[name] as? [String: Any] else {
          return nil
        }
        object = target
      }
      return object
    }
    let data = resolve((schema["properties"] as? [String: Any])?["data"])
    let properties = data?["properties"] as? [String: Any] ?? [:]
    return properties.sorted { $0.key < $1.key }.compactMap { key, value in
      guard let array = resolve(value), array["type"] as? String == "array",
        let fields = resolve(array["items"])?["properties"] as? [String: Any], !fields.isEmpty
      else { return nil }
      return (key, fields.keys.sorted())
    }
  }

  /// Every command whose schema has rows declares them for `--fields` with exactly the
  /// schema's fields; a command without rows declares none.
  @Test func everyCommandWithRowsDeclaresItsSchemasFields() throws {
    let tree = try MSAMain.composed().commandTree
    // Lists that are not the command's rows.
    let exempt: [String: String] = [
      "messages send": "one send; its attempts are a detail of it",
      "data import-registry": "three lists (added, groups created, skipped), none the rows",
      "simulate": "prints its listing itself, once, and then serves until stopped",
      "data check": "two lists (findings, and what --fix fixed), neither the rows",
    ]
    var declared = 0
    for (path, command) in tree.descendants() {
      let name = path.joined(separator: " ")
      guard
        let data = FileManager.default.contents(
          atPath: Self.folder.appendingPathComponent(Self.schemaName(name)).path)
      else { continue }
      let rows = try Self.schemaRows(data)
      if exempt[name] != nil || rows.isEmpty {
        #expect(command.jsonRows == nil, "\(name) declares rows its schema does not have")
        continue
      }
      #expect(rows.count == 1, "\(name): several row arrays \(rows.map(\.key))")
      #expect(command.jsonRows?.key == rows[0].key, "\(name): rows are data.\(rows[0].key)")
      #expect(
        Set(command.jsonRows?.fields ?? []) == Set(rows[0].fields),
        "\(name): declared \(command.jsonRows?.fields ?? []), schema \(rows[0].fields)")
      declared += 1
    }
    #expect(declared >= 20)
  }

  /// `msa simulate --devices 2 --json`'s listing, read from the running executable, which is
  /// then stopped with SIGINT.
  static func simulateListing() throws -> JSONValue {
    let process = Process()
    process.executableURL = try ArchiveKillTests.executable()
    process.arguments = ["simulate", "--devices", "2", "--json"]
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-simulate-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    process.environment = ["LANG": "en_US.UTF-8", "NO_COLOR": "1", "MSA_HOME": home.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      process.interrupt()
      process.waitUntilExit()
    }
    var text = Data()
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      text.append(chunk)
      if let value = try? JSONValue.parse(text) { return value }
    }
    throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: "simulate: \(text)"])
  }

  @Test func theValidatorFindsWhatIsWrong() throws {
    var validator = JSONSchemaValidator(folder: Self.folder)
    let wrong = try JSONValue.parse(
      Data(#"{"command": "tags", "schemaVersion": 2, "data": {"tags": [{"tag": 1}]}}"#.utf8))
    let problems = try validator.problems(of: wrong, against: "tags.schema.json")
    #expect(problems.contains { $0.contains("$.schemaVersion") })
    #expect(problems.contains { $0.contains("$.data.tags[0].tag") })
    #expect(problems.contains { $0.contains("lacks count") })
  }
}

/// The real clock, for a scenario whose devices stamp times of their own.
enum SystemClockForTests {
  static let clock = AppClock.system
}
