import CommandLineApp
import Essentials
import EssentialsTesting
import FeatureKit
import Foundation
import MSAApp
import SimAdminSimulator
import Testing

/// A device whose SMS bodies, numbers, model, operator and error messages carry terminal
/// attacks (`--faults N=hostile`), read over real HTTP: no text output of any command holds a
/// raw control byte or bidi control, `--json` escapes them, exports defuse them, and names
/// with controls are refused.
@Suite(.serialized) struct HostileTextTests {
  /// One home shared by the runs of a test.
  final class Home: Sendable {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-hostile-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Runs msa in this home; `terminal` makes stdout a 24-bit colour terminal.
    func run(
      _ arguments: [String], terminal: Bool = false, width: Int = 80, input: String? = nil
    ) async throws -> Run {
      let output = Captured()
      let error = Captured()
      var environment = ["MSA_HOME": url.path, "LANG": "en_US.UTF-8"]
      if terminal { environment["COLORTERM"] = "truecolor" }
      let context = ProcessContext(
        environment: environment,
        streams: StandardStreams(
          writeError: { text in error.text.withLock { $0 += text } }, readInput: { input }),
        writeOutput: { text in output.text.withLock { $0 += text } },
        outputIsTerminal: terminal, terminalWidth: terminal ? width : nil,
        clock: AppClock.system)
      let app = try MSAApplication(modules: CompiledFeatures.modules)
      let status = await app.run(arguments + ["--width", "\(width)"], context: context)
      return Run(status: status, output: output.text.current, error: error.text.current)
    }
  }

  /// A home with two hostile devices added, tested and synced: `evil` (everything) and
  /// `broken` (no modem, so its error messages are the device's; its SMS list answers an
  /// error of its own too — without this fault it would answer, as SimAdmin's SMS database
  /// does without a modem).
  static func hostileHome() async throws -> (Home, SimulatedFleet) {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "evil", smsCount: 15, faults: [FaultRule(.hostileText)]),
      DeviceProfile(
        name: "broken", hasModem: false, smsCount: 0,
        faults: [FaultRule(.hostileText), FaultRule(.deviceError, pathPrefix: "/api/sms/list")]),
    ])
    let home = Home()
    for (name, device) in zip(["evil", "broken"], fleet.devices) {
      let added = try await home.run([
        "fleet", "add", "--name", name, "--url", device.origin.absoluteString,
      ])
      #expect(added.status == 0, "\(added.error)")
    }
    _ = try await home.run(["fleet", "test", "--all"])
    _ = try await home.run(["messages", "sync"])
    return (home, fleet)
  }

  static func expectNoRawControls(_ run: Run, _ label: String, colour: Bool) {
    let found =
      RawControls.find(in: run.output, allowingColour: colour)
      + RawControls.find(in: run.error)
    #expect(found.isEmpty, "\(label): \(found.prefix(5))")
  }

  @Test func noTextCommandPrintsARawControl() async throws {
    let (home, fleet) = try await Self.hostileHome()
    defer { Task { await fleet.stop() } }
    let peersRun = try await home.run(["messages", "conversations", "--json"])
    let peersJSON = try JSONSerialization.jsonObject(with: Data(peersRun.output.utf8))
    // `data` is the list (older shape) or `{conversations: [...]}`.
    let data = (peersJSON as? [String: Any])?["data"]
    let peers =
      (data as? [[String: Any]]) ?? ((data as? [String: Any])?["conversations"] as? [[String: Any]])
      ?? []
    let latest = peers.first?["latest"] as? [String: Any]
    let peer = try #require(
      peers.first?["peer"] as? String ?? latest?["peer"] as? String
        ?? peers.first?["peerKey"] as? String)
    #expect(peer.contains(HostileText.payload))
    let commands: [[String]] = [
      ["fleet", "list"], ["fleet", "show", "evil"], ["fleet", "show", "broken"],
      ["fleet", "test", "--all"], ["messages", "sync"], ["messages", "list"],
      ["messages", "conversations"], ["messages", "show", peer], ["messages", "stats"],
      ["device", "evil"], ["device", "evil", "--all-sections"],
      ["device", "evil", "sms", "--show-bodies"], ["device", "broken", "--all-sections"],
      ["logs"], ["logs", "export"], ["data", "check"], ["groups"], ["tags"],
    ]
    var shownStandIns = 0
    for command in commands {
      for (terminal, width) in [(false, 80), (true, 80), (false, 33), (true, 41)] {
        let run = try await home.run(command, terminal: terminal, width: width)
        Self.expectNoRawControls(run, "\(command) terminal=\(terminal) @\(width)", colour: terminal)
        if !terminal {
          #expect(!run.output.contains("\u{1B}"), "\(command)")
        }
        if (run.output + run.error).contains("␛") { shownStandIns += 1 }
      }
    }
    // The attacks were on screen, as visible stand-ins.
    #expect(shownStandIns >= 20)
    let show = try await home.run(["messages", "show", peer])
    #expect(show.output.contains("␛[2J␛]52;c;SEFDS0VE␇␛]0;HACKED␇␇␈␍\\u{9B}2J\\u{202E}"))
    let device = try await home.run(["device", "broken", "--all-sections"])
    #expect((device.output + device.error).contains("␛]0;HACKED"))
  }

  /// A device whose SMS list fails with its own (hostile) words: `messages sync`'s `[n/N]`
  /// line and `code --wait`'s failure line carry them to standard error, where the process's
  /// last guard lets SGR colour through; the device's colour and conceal must not pass
  /// (issue 30, issue 36 point 3).
  @Test func aDevicesErrorOnStandardErrorIsShownNotSent() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(
        name: "failing", smsCount: 5,
        faults: [FaultRule(.deviceError, pathPrefix: "/api/sms/list"), FaultRule(.hostileText)])
    ])
    defer { Task { await fleet.stop() } }
    let home = Home()
    let added = try await home.run([
      "fleet", "add", "--name", "failing", "--url", fleet.devices[0].origin.absoluteString,
    ])
    #expect(added.status == 0, "\(added.error)")
    for (terminal, width) in [(false, 80), (true, 80), (true, 41)] {
      let sync = try await home.run(["messages", "sync"], terminal: terminal, width: width)
      #expect(sync.status == 1)
      Self.expectNoRawControls(sync, "messages sync terminal=\(terminal)", colour: terminal)
      #expect(sync.error.contains("␛[31m␛[8mHIDDEN"), "\(sync.error)")
    }
    let wait = try await home.run(["code", "--wait", "1s"])
    Self.expectNoRawControls(wait, "code --wait", colour: false)
    #expect(wait.error.contains("␛[31m␛[8mHIDDEN"), "\(wait.error)")
  }

  @Test func jsonKeepsTheContentWithEscapes() async throws {
    let (home, fleet) = try await Self.hostileHome()
    defer { Task { await fleet.stop() } }
    for command in [
      ["messages", "list", "--show-bodies"], ["messages", "list"], ["fleet", "show", "evil"],
      ["device", "evil", "--all-sections"], ["device", "broken", "--all-sections"],
    ] {
      let run = try await home.run(command + ["--json"])
      Self.expectNoRawControls(run, "\(command) --json", colour: false)
      #expect(run.output.contains(#"\u001b[2J\u001b]52;c;SEFDS0VE\u0007"#), "\(command)")
      #expect(run.output.contains(#"\u009b2J\u202e"#), "\(command)")
      #expect((try? JSONSerialization.jsonObject(with: Data(run.output.utf8))) != nil)
    }
  }

  @Test func exportsEscapeControlsAndDefuseFormulas() async throws {
    let (home, fleet) = try await Self.hostileHome()
    defer { Task { await fleet.stop() } }
    // A formula from a whole phone number, served hostile, then clean.
    let evil = fleet.devices[0]
    evil.receiveSMS(from: "+8613800138000", content: "=HYPERLINK(\"http://x\",\"y\")")
    _ = try await home.run(["messages", "sync"])
    evil.setFaults([])
    _ = try await home.run(["messages", "sync"])
    let csv = home.url.appendingPathComponent("out.csv")
    let jsonl = home.url.appendingPathComponent("out.jsonl")
    let csvRun = try await home.run([
      "messages", "export", "--format", "csv", "--output", csv.path, "--include-bodies",
    ])
    #expect(csvRun.status == 0, "\(csvRun.error)")
    let csvText = try String(contentsOf: csv, encoding: .utf8)
    // CR LF ends each row; no other raw control is left.
    let found = RawControls.find(in: csvText.replacingOccurrences(of: "\r\n", with: "\n"))
    #expect(found.isEmpty, "\(found.prefix(5))")
    #expect(csvText.contains(#"\u001b[2J\u001b]52;c;SEFDS0VE\u0007"#))
    let rows = csvText.components(separatedBy: "\r\n")
    // A peer cell starting with "+" is a whole number or defused with "'".
    let peers = rows.dropFirst().compactMap { row -> String? in
      let fields = row.split(separator: ",", maxSplits: 4, omittingEmptySubsequences: false)
      return fields.count > 3 ? String(fields[3]) : nil
    }
    #expect(peers.contains { $0.hasPrefix("'+") && $0.contains(#"\u001b[2J"#) })
    #expect(
      peers.allSatisfy {
        !$0.hasPrefix("+") || $0.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
      })
    // Served clean: the whole number stays as it is, the formula is defused.
    #expect(rows.contains { $0.contains(",+8613800138000,") && $0.contains(",\"'=HYPERLINK(") })
    let jsonlRun = try await home.run([
      "messages", "export", "--format", "jsonl", "--output", jsonl.path, "--include-bodies",
    ])
    #expect(jsonlRun.status == 0)
    let lines = try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == rows.count - 2)
    var hostileBodies = 0
    for line in lines {
      #expect(RawControls.find(in: String(line)).isEmpty)
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      if (object?["body"] as? String)?.contains(HostileText.payload) == true { hostileBodies += 1 }
    }
    #expect(hostileBodies >= 15)
  }

  @Test func namesTagsAndGroupsWithControlsAreRefused() async throws {
    let home = Home()
    let refused: [[String]] = [
      ["fleet", "add", "--name", "bad\u{1B}]0;x\u{07}", "--url", "http://127.0.0.1:9"],
      ["fleet", "add", "--name", "rtl\u{202E}cod.exe", "--url", "http://127.0.0.1:9"],
      ["fleet", "add", "--name", "ok", "--url", "http://127.0.0.1:9", "--tag", "t\u{9B}2J"],
      ["groups", "add", "lab\u{08}\u{08}"],
    ]
    for command in refused {
      let run = try await home.run(command)
      #expect(run.status == 1, "\(command)")
      #expect(run.error.contains("control character U+"), "\(run.error)")
      Self.expectNoRawControls(run, "\(command)", colour: false)
    }
    let listed = try await home.run(["fleet", "list", "--json"])
    #expect(!listed.output.contains("127.0.0.1:9"))
    #expect(
      try await home.run(["fleet", "add", "--name", "good", "--url", "http://127.0.0.1:9"]).status
        == 0)
    let edit = try await home.run(["fleet", "edit", "good", "--name", "x\u{1B}[2J"])
    #expect(edit.status == 1)
    #expect(try await home.run(["groups", "add", "lab"]).status == 0)
    let rename = try await home.run(["groups", "rename", "lab", "l\u{2066}ab"])
    #expect(rename.status == 1)
    #expect(rename.error.contains("U+2066"))
  }

  @Test func registryImportListsEveryBadEntryAndImportsNothing() async throws {
    let home = Home()
    try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
    let file = home.url.appendingPathComponent("registry.json")
    let document = """
      {"schemaVersion": 1, "groups": [{"name": "ok"}, {"name": "g\\u001b[2J"}],
       "instances": [
         {"name": "fine", "origin": "http://127.0.0.1:9"},
         {"name": "n\\u202eame", "origin": "http://127.0.0.1:10"},
         {"name": "tagged", "origin": "http://127.0.0.1:11", "tags": ["a\\u0007"]}
       ]}
      """
    try Data(document.utf8).write(to: file)
    let run = try await home.run(["data", "import-registry", file.path])
    #expect(run.status == 1)
    #expect(run.error.contains("groups[1]"))
    #expect(run.error.contains("instances[1]"))
    #expect(run.error.contains("instances[2]"))
    #expect(!run.error.contains("instances[0]"))
    Self.expectNoRawControls(run, "import", colour: false)
    let list = try await home.run(["fleet", "list", "--json"])
    #expect(!list.output.contains("127.0.0.1:9"))
  }
}
