import Essentials
import Foundation
import Testing

/// With `--json`, an error found while the command line is read (before any command is
/// understood) still comes as the error envelope on stdout, valid against
/// `docs/json/error.schema.json`, with exit 64; stderr keeps the usual report.
@Suite struct UsageErrorJSONTests {
  @Test(arguments: [
    (["fleet", "list", "--bogus", "--json"], "unknownOption", "fleet list"),
    (["--json", "fleet", "list", "--fields", "name,nmae"], "invalidValue", "fleet list"),
    (["fleet", "show", "--json"], "missingArgument", "fleet show"),
    (["fleet", "lst", "--json"], "unknownSubcommand", "fleet"),
    (["flet", "list", "--json"], "unknownSubcommand", ""),
    (["fleet", "list", "--json", "--width", "5"], "invalidValue", "fleet list"),
    (["fleet", "list", "--json", "--lang", "xx"], "invalidValue", "fleet list"),
    (
      ["fleet", "list", "--json", "--width", "80", "--width", "90"], "duplicateOption", "fleet list"
    ),
    (["help", "flet", "--json"], "unknownSubcommand", ""),
    (["manual", "--json"], "invalidValue", "manual"),
  ])
  func usageErrorsComeAsTheEnvelope(line: [String], code: String, command: String) async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await msa(line, home: home)
    #expect(run.status == 64, "\(line): \(run.error)")
    let value = try JSONValue.parse(Data(run.output.utf8))
    var validator = JSONSchemaValidator(folder: JSONSchemaTests.folder)
    let problems = try validator.problems(of: value, against: "error.schema.json")
    #expect(problems.isEmpty, "\(line): \(problems)")
    #expect(value["command"] == .string(command), "\(line): \(run.output)")
    #expect(value["error"]?["code"] == .string(code), "\(line): \(run.output)")
    // The message is the one stderr reports, rendered (no placeholder left).
    guard case .string(let message)? = value["error"]?["message"] else {
      Issue.record("\(line): no message in \(run.output)")
      return
    }
    #expect(run.error.hasPrefix("Error: \(message)\n"), "\(line): \(run.error)")
    #expect(!message.contains("{"), "\(line): \(message)")
    // Nothing was run, so no data directory was made.
    #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("msa.sqlite").path))
  }

  @Test func theEnvelopeSpeaksTheLanguageAskedFor() async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await msa(["fleet", "lst", "--json", "--lang", "zh"], home: home)
    #expect(run.status == 64)
    guard
      case .string(let message)? = try JSONValue.parse(Data(run.output.utf8))["error"]?["message"]
    else {
      Issue.record("no message in \(run.output)")
      return
    }
    #expect(
      message.unicodeScalars.contains { $0.value >= 0x4E00 && $0.value <= 0x9FFF }, "\(message)")
    #expect(message.contains("list"), "\(message)")
  }

  @Test func withoutJSONOrAfterTheEndOfOptionsStdoutStaysEmpty() async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    for line in [["fleet", "list", "--bogus"], ["fleet", "lst"], ["flet", "--", "--json"]] {
      let run = try await msa(line, home: home)
      #expect(run.status == 64, "\(line)")
      #expect(run.output.isEmpty, "\(line): \(run.output)")
      #expect(run.error.hasPrefix("Error: "), "\(line): \(run.error)")
    }
  }

  /// The real executable, as a script calls it: the envelope on stdout, exit 64.
  @Test func theRealProcessPrintsTheEnvelope() throws {
    let process = Process()
    process.executableURL = try ArchiveKillTests.executable()
    process.arguments = ["fleet", "lst", "--json"]
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    process.environment = ["LANG": "en_US.UTF-8", "MSA_HOME": home.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 64)
    let value = try JSONValue.parse(data)
    var validator = JSONSchemaValidator(folder: JSONSchemaTests.folder)
    #expect(try validator.problems(of: value, against: "error.schema.json").isEmpty)
    #expect(value["error"]?["code"] == .string("unknownSubcommand"))
  }
}
