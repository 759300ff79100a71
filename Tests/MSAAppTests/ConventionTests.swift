import CommandLineApp
import Essentials
import EssentialsTesting
import FeatureKit
import Foundation
import MSAApp
import Testing

/// Runs msa in-process in `home`, as if on a terminal when `terminal` (the pager's rules).
func msa(
  _ arguments: [String], home: URL, environment: [String: String] = [:], terminal: Bool = false
) async throws -> Run {
  let output = Captured()
  let error = Captured()
  let context = ProcessContext(
    environment: ["MSA_HOME": home.path, "LANG": "en_US.UTF-8"].merging(environment) { $1 },
    streams: StandardStreams(
      writeOutput: { text in output.text.withLock { $0 += text } },
      writeError: { text in error.text.withLock { $0 += text } }, readInput: { nil }),
    writeOutput: { text in output.text.withLock { $0 += text } },
    outputIsTerminal: terminal, terminalWidth: terminal ? 100 : nil, clock: TestClock().clock,
    terminalHeight: terminal ? 24 : nil)
  let app = try MSAMain.composed()
  let status = await app.run(arguments, context: context)
  return Run(status: status, output: output.text.current, error: error.text.current)
}

func temporaryHome() throws -> URL {
  let home = FileManager.default.temporaryDirectory
    .appendingPathComponent("msa-conventions-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
  return home
}

/// The words of a shell line (quotes removed), for checking examples.
func shellWords(_ line: String) -> [String] {
  var words: [String] = []
  var word = ""
  var quote: Character?
  var inWord = false
  for character in line {
    if let open = quote {
      if character == open { quote = nil } else { word.append(character) }
    } else if character == "\"" || character == "'" {
      quote = character
      inWord = true
    } else if character == " " {
      if inWord { words.append(word) }
      word = ""
      inWord = false
    } else {
      word.append(character)
      inWord = true
    }
  }
  if inWord { words.append(word) }
  return words
}

@Suite struct HelpConventionTests {
  @Test func helpCommandPrintsWhatHelpFlagPrints() async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    for path in [[], ["fleet"], ["fleet", "add"], ["messages", "ls"], ["help"]] {
      let viaCommand = try await msa(["help"] + path, home: home)
      let viaFlag = try await msa(path + ["--help"], home: home)
      #expect(viaCommand.status == 0)
      #expect(viaCommand.output == viaFlag.output, "help \(path)")
      #expect(viaCommand.output.hasPrefix("OVERVIEW:"))
    }
    let chinese = try await msa(["help", "fleet", "--lang", "zh-Hans"], home: home)
    #expect(chinese.output.hasPrefix("概述："))
  }

  @Test(arguments: [
    (["help", "flet"], "Unknown subcommand 'flet'. Did you mean 'fleet'?"),
    (["help", "fleet", "lst"], "Unknown subcommand 'lst'. Did you mean 'list'?"),
    (["fleet", "lst"], "Unknown subcommand 'lst'. Did you mean 'list'?"),
    (["groups", "renme"], "Unknown subcommand 'renme'. Did you mean 'rename'?"),
    (["messages", "lst"], "Unknown subcommand 'lst'. Did you mean 'list'?"),
    (["outbox", "flsh"], "Unknown subcommand 'flsh'. Did you mean 'flush'?"),
    (["logs", "shwo"], "Unknown subcommand 'shwo'. Did you mean 'show'?"),
    (["completon", "bash"], "Unknown subcommand 'completon'. Did you mean 'completion'?"),
  ])
  func mistypedSubcommandsAreUsageErrorsWithASuggestion(line: [String], message: String)
    async throws
  {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await msa(line, home: home)
    #expect(run.status == 64)
    #expect(run.output.isEmpty)
    #expect(run.error.hasPrefix("Error: \(message)\n"), "\(run.error)")
  }

  @Test func everyCommandEndsItsHelpWithTwoOrThreeExamplesThatParse() async throws {
    let app = try MSAMain.composed()
    let commands = app.commandTree.descendants(includingHidden: false)
    #expect(commands.count > 30)
    for (path, command) in commands {
      let name = path.joined(separator: " ")
      #expect((2...3).contains(command.examples.count), "\(name): \(command.examples.count)")
      for example in command.examples {
        // The msa part of the line: after a pipe, before a redirection or a pipe.
        let segment = example.components(separatedBy: " | ").first { $0.hasPrefix("msa ") }
        let words = shellWords(try #require(segment, "\(example)"))
        let line = Array(words.dropFirst().prefix { $0 != ">" && $0 != "|" })
        let parsed = try app.parse(line)
        #expect(Array(parsed.path.prefix(path.count)) == path, "\(example) is not \(name)")
      }
    }
  }

  @Test func rootHelpHasOneEnvironmentSection() async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await msa(["--help"], home: home)
    let section = try #require(run.output.components(separatedBy: "ENVIRONMENT:\n").last)
    for name in ["MSA_HOME", "LANG", "MSA_PAGER", "PAGER", "NO_COLOR", "CLICOLOR_FORCE", "TERM"] {
      #expect(section.contains("\n  \(name) ") || section.hasPrefix("  \(name) "), "\(name)")
    }
    #expect(run.output.components(separatedBy: "ENVIRONMENT:").count == 2)
  }
}

@Suite struct CompletionCommandTests {
  @Test(arguments: ["bash", "zsh", "fish"])
  func completionPrintsTheScript(shell: String) async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await msa(["completion", shell], home: home)
    #expect(run.status == 0)
    #expect(run.output.contains(" __complete -- "))
    #expect(run.output.contains("completion for msa, printed by `msa completion \(shell)`"))
    #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("msa.sqlite").path))
  }

  @Test func anUnknownShellIsAUsageError() async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await msa(["completion", "powershell"], home: home)
    #expect(run.status == 64)
    #expect(run.error.contains("bash, zsh, fish"))
  }

  /// Candidate values `msa __complete` prints after `words`.
  func candidates(_ words: [String], home: URL) async throws -> [String] {
    let run = try await msa(["__complete", "--"] + words, home: home)
    #expect(run.status == 0)
    let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "values")
    return lines.dropFirst().filter { !$0.isEmpty }.map {
      String($0.split(separator: "\t", maxSplits: 1).first ?? "")
    }
  }

  @Test func theHiddenEntryAnswersFromTheTreeAndTheDataDirectory() async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    // Nothing registered yet: no database is created by completing.
    #expect(try await candidates(["fleet", "test", ""], home: home).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("msa.sqlite").path))

    #expect(try await msa(["groups", "add", "Shop"], home: home).status == 0)
    for (name, port, tag) in [("Office", 3001, "5g"), ("Shop router", 3002, "shop")] {
      let add = try await msa(
        [
          "fleet", "add", "--name", name, "--url", "http://127.0.0.1:\(port)", "--tag", tag,
          "--group", "Shop",
        ], home: home)
      #expect(add.status == 0, "\(add.error)")
    }
    #expect(try await candidates(["fleet", "test", ""], home: home) == ["Office", "Shop router"])
    #expect(try await candidates(["device", "Sh"], home: home) == ["Shop router"])
    #expect(try await candidates(["fleet", "list", "--group", ""], home: home) == ["Shop"])
    #expect(try await candidates(["fleet", "list", "--tag", ""], home: home) == ["5g", "shop"])
    #expect(
      try await candidates(["device", "Office", "c"], home: home) == [
        "cellular", "cpu", "connection",
      ])
    #expect(try await candidates(["fleet", "l"], home: home) == ["list", "login", "logout"])
    #expect(
      try await candidates(["messages", "delete", "--scope", ""], home: home) == [
        "both", "device", "local",
      ])
    // An id prefix completes to the id.
    let show = try await msa(["fleet", "show", "Office", "--json"], home: home)
    let id = try #require(
      show.output.components(separatedBy: "\"id\" : \"").dropFirst().first?.prefix(12))
    #expect(
      try await candidates(["fleet", "show", String(id.prefix(4))], home: home).contains(String(id))
    )
    // Another home given on the line is read instead.
    let other = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: other) }
    #expect(try await candidates(["--home", other.path, "fleet", "test", ""], home: home).isEmpty)
    // Files are left to the shell.
    let files = try await msa(["__complete", "--", "data", "backup", ""], home: home)
    #expect(files.output == "files\n")
  }
}

@Suite struct ManualPageTests {
  static let pageURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs/man/msa.1")

  @Test func theCheckedInManualIsCurrent() async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await msa(["manual"], home: home)
    #expect(run.status == 0)
    let saved = try String(contentsOf: Self.pageURL, encoding: .utf8)
    #expect(run.output == saved, "docs/man/msa.1 is stale: run scripts/man")
    #expect(run.output.contains(".SS \"msa fleet add\""))
    #expect(run.output.contains(".SH \"ENVIRONMENT\""))
    #expect(run.output.contains("CLICOLOR_FORCE"))
  }

  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "man is missing"))
  func manRendersItWithoutWarnings() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/man")
    process.arguments = ["--warnings", "-l", Self.pageURL.path]
    // A UTF-8 locale, as for anyone reading the examples with Chinese in them; man needs PATH
    // to find its preprocessors (without them it mis-decodes the page).
    process.environment = [
      "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat", "LANG": "C.UTF-8",
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
    ]
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let warnings = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(warnings.isEmpty, "\(warnings)")
    #expect(text.contains("msa fleet add"))
  }
}

@Suite struct PagerAndColourTests {
  @Test func longTextOnATerminalGoesThroughThePager() async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let paged = home.appendingPathComponent("paged.txt")
    let pager = ["MSA_PAGER": "cat > '\(paged.path)'"]
    let run = try await msa(["--help"], home: home, environment: pager, terminal: true)
    #expect(run.status == 0)
    #expect(run.output.isEmpty)
    let text = try String(contentsOf: paged, encoding: .utf8)
    #expect(text.hasPrefix("OVERVIEW:"))
    try FileManager.default.removeItem(at: paged)
    // Never with --no-pager, --json, when piped, or for text that fits.
    for (arguments, terminal) in [
      (["--help", "--no-pager"], true), (["modules", "--json"], true), (["--help"], false),
      (["tags"], true),
    ] {
      let direct = try await msa(arguments, home: home, environment: pager, terminal: terminal)
      #expect(direct.status == 0)
      #expect(!direct.output.isEmpty, "\(arguments)")
      #expect(!FileManager.default.fileExists(atPath: paged.path), "\(arguments)")
    }
  }

  @Test func quittingThePagerEarlyIsANormalEnd() async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await msa(
      ["--help"], home: home, environment: ["MSA_PAGER": "head -n 1 >/dev/null"], terminal: true)
    #expect(run.status == 0)
    #expect(run.output.isEmpty)
    let help = try await msa(
      ["--help"], home: home, environment: ["MSA_PAGER": "true"], terminal: true)
    #expect(help.status == 0)
    #expect(help.error.isEmpty)
  }

  @Test(arguments: [
    (["--color", "always"], [String: String](), false, true),
    ([], ["CLICOLOR_FORCE": "1"], false, true),
    (["--no-color"], ["CLICOLOR_FORCE": "1"], false, false),
    (["--color", "never"], [:], true, false),
    ([], ["NO_COLOR": "1"], true, false),
    (["--color", "always"], ["NO_COLOR": "1"], false, true),
    ([], ["TERM": "dumb"], true, false),
    ([], [:], false, false),
    ([], ["TERM": "xterm"], true, true),
  ])
  func colourFollowsFlagsThenTheEnvironment(
    flags: [String], environment: [String: String], terminal: Bool, coloured: Bool
  ) async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await msa(
      ["view", "about", "--no-pager"] + flags, home: home,
      environment: environment.merging(["TERM": "xterm"]) { first, _ in first },
      terminal: terminal)
    #expect(run.status == 0)
    #expect(run.output.contains("\u{1b}[") == coloured, "\(flags) \(environment)")
  }
}

@Suite struct FieldsTests {
  /// A home with a group and two instances (registering them also writes runtime log records).
  static func home() async throws -> URL {
    let home = try temporaryHome()
    #expect(try await msa(["groups", "add", "Shop"], home: home).status == 0)
    for (name, port) in [("Office", 3001), ("Shop router", 3002)] {
      let add = try await msa(
        [
          "fleet", "add", "--name", name, "--url", "http://127.0.0.1:\(port)", "--tag", "t",
          "--group", "Shop",
        ], home: home)
      #expect(add.status == 0)
    }
    return home
  }

  static func rows(_ run: Run, key: String) throws -> [[String: Any]] {
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    let data = try #require(object["data"] as? [String: Any])
    return try #require(data[key] as? [[String: Any]])
  }

  @Test func fieldsKeepOnlyTheChosenFieldsOfEachRow() async throws {
    let home = try await Self.home()
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await msa(["fleet", "list", "--json", "--fields", "name,status"], home: home)
    #expect(run.status == 0, "\(run.error)")
    let rows = try Self.rows(run, key: "instances")
    #expect(rows.count == 2)
    for row in rows { #expect(Set(row.keys) == ["name", "status"]) }
    #expect(run.output.contains("\"command\" : \"fleet list\""))
    #expect(run.output.contains("\"schemaVersion\" : 1"))
    let tags = try await msa(["tags", "--json", "--fields=tag"], home: home)
    #expect(try Self.rows(tags, key: "tags").map { $0["tag"] as? String } == ["t"])
  }

  @Test func fieldsAloneListTheFields() async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let text = try await msa(["fleet", "list", "--fields"], home: home)
    #expect(text.status == 0)
    #expect(text.output.hasPrefix("id\nname\norigin\n"))
    let json = try await msa(["groups", "--json", "--fields"], home: home)
    #expect(json.status == 0)
    #expect(
      json.output.contains("\"fields\" : [\n      \"id\",\n      \"name\",\n      \"members\""))
    let thread = try await msa(["messages", "show", "10086", "--fields"], home: home)
    #expect(thread.status == 0)
    #expect(thread.output.contains("bodyMasked\nrepaired\n"))
    let conversations = try await msa(["messages", "conversations", "--fields"], home: home)
    #expect(conversations.output == "peerKey\npeer\ncount\ninstances\nlatest\n")
    // Nothing was run, so no data directory was made.
    #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("msa.sqlite").path))
  }

  @Test(arguments: [
    (
      ["fleet", "list", "--json", "--fields", "name,nmae"],
      "The value 'nmae' is invalid for '--fields <FIELDS>': use one of id, name, origin"
    ),
    (
      ["fleet", "list", "--fields", "name"],
      "'--fields <FIELDS>' works only together with '--json'."
    ),
    (
      ["manual", "--json"],
      "'msa manual' writes text for a terminal or another program (a shell, man), never JSON: leave out '--json'."
    ),
    (
      ["demo", "--json"],
      "'msa demo' writes text for a terminal or another program (a shell, man), never JSON: leave out '--json'."
    ),
    (
      ["ui", "--json"],
      "'msa ui' writes text for a terminal or another program (a shell, man), never JSON: leave out '--json'."
    ),
    (
      ["routes", "--json", "--fields", "route,nope"],
      "The value 'nope' is invalid for '--fields <FIELDS>': use one of route, module, title."
    ),
    (
      ["data", "backup", "x", "--json", "--fields", "name"],
      "'msa data backup' lists no rows, so '--fields <FIELDS>' has nothing to choose from."
    ),
  ])
  func badFieldsAreUsageErrors(line: [String], message: String) async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await msa(line, home: home)
    #expect(run.status == 64)
    #expect(run.error.hasPrefix("Error: \(message)"), "\(run.error)")
    // With --json the same error is the envelope on stdout (UsageErrorJSONTests checks it
    // against the schema); without, stdout stays empty.
    if line.contains("--json") {
      let value = try JSONValue.parse(Data(run.output.utf8))
      guard case .string(let inJSON)? = value["error"]?["message"] else {
        Issue.record("\(line): no error message in \(run.output)")
        return
      }
      #expect(inJSON.hasPrefix(message), "\(inJSON)")
    } else {
      #expect(run.output.isEmpty)
    }
  }

  // That the declared fields match each command's schema and cover what its rows encode is
  // checked by JSONSchemaTests, which runs every command against a simulated fleet.
}
