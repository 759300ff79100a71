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
    ])
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-schema-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let files = home.appendingPathComponent("files")
    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    func file(_ name: String) -> String { files.appendingPathComponent(name).path }
    let alpha = fleet.devices[0].origin.absoluteString
    let beta = fleet.devices[1].origin.absoluteString
    let scenario: [[String]] = [
      ["fleet", "add", "--name", "Alpha", "--url", alpha],
      ["fleet", "add", "--name", "Beta", "--url", beta, "--tag", "lab"],
      ["fleet", "list"], ["fleet", "list", "--tag", "nothing-matches"], ["fleet", "show", "Alpha"],
      ["fleet", "test", "--all"], ["fleet", "edit", "Beta", "--tag", "shop"],
      ["fleet", "login", "Alpha"], ["fleet", "logout", "Alpha"],
      ["groups", "add", "Shop"], ["groups", "list"], ["groups", "rename", "Shop", "Store"],
      ["groups", "remove", "Store"], ["tags"],
      ["alpha code"], ["code"], ["messages", "list", "--has-code"],
      ["messages", "sync"], ["messages", "list", "--since", "3650d"],
      ["messages", "conversations"], ["messages", "stats"],
      ["messages", "send", "--from", "Alpha", "--to", "10086", "--text", "CXYE 1234"],
      ["beta down"],
      ["messages", "send", "--from", "Beta", "--to", "10010", "--text", "hello"],
      ["outbox", "list"], ["outbox", "flush"], ["outbox", "cancel", "2"], ["outbox", "retry", "2"],
      ["beta up"],
      ["messages", "export", "--format", "jsonl", "--output", file("messages.jsonl")],
      ["messages", "show", "10086"],
      ["messages", "delete", "--peer", "10086", "--scope", "local", "--yes"],
      ["device", "Alpha", "sim"], ["device", "Alpha", "sms"],
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
    for arguments in scenario {
      if arguments == ["alpha code"] {
        _ = fleet.devices[0].receiveSMS(from: "Google", content: "G-482913 is your Google code.")
        continue
      }
      if arguments == ["beta down"] || arguments == ["beta up"] {
        fleet.devices[1].setFaults(arguments == ["beta down"] ? [FaultRule(.down)] : [])
        continue
      }
      let run = try await Self.run(arguments + ["--json"], home: home)
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
      if case .object = value["data"] {
      } else if value["error"] == nil {
        Issue.record("\(arguments): data is not an object")
      }
    }
    // Every schema in the folder was exercised: none describes a command that is gone.
    let present = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
      .filter { $0.hasSuffix(".schema.json") && $0 != "common.schema.json" }
    #expect(Set(present).subtracting(covered).isEmpty, "\(Set(present).subtracting(covered))")
    await fleet.stop()
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
