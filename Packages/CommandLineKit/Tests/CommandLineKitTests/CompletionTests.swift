import CommandLineKit
import Essentials
import Foundation
import Testing

@Suite struct CompletionEngineTests {
  static let instance = ValueCompletion(rawValue: "instance")

  static let tree: CommandSpec = {
    var root = SampleTree.root
    root.subcommands = root.subcommands.map { command in
      var command = command
      command.subcommands = command.subcommands.map { sub in
        var sub = sub
        sub.arguments = sub.arguments.map {
          $0.name == "REF" ? $0.completing(instance) : $0.name == "FILE" ? $0.completing(.file) : $0
        }
        return sub
      }
      return command
    }
    root.subcommands.append(
      CommandSpec(
        "help", abstract: SampleTree.text("opt.help"),
        arguments: [
          ArgumentSpec("COMMAND", help: SampleTree.text("arg.ref"), optional: true, repeating: true)
            .completing(CompletionEngine.commandPath)
        ]))
    return root
  }()

  /// What Tab offers after `line`; the last word (possibly empty) is the one being completed.
  static func complete(_ line: String, home: Locked<[String]>? = nil) -> CompletionAnswer {
    var words = line.components(separatedBy: " ")
    let current = words.removeLast()
    return CompletionEngine.complete(
      words: words, current: current, root: tree, globalOptions: SampleTree.globalOptions,
      language: .english
    ) { kind, prefix, context in
      home?.withLock { $0 = context.options["home"] ?? [] }
      guard kind == instance else { return [] }
      return [
        CompletionCandidate("Office", description: "http://10.0.0.1:3000"),
        CompletionCandidate("Shop router", description: "http://10.0.0.2:3000"),
        CompletionCandidate("a1b2c3d4", description: "Office"),
      ]
    }
  }

  static func values(_ line: String) -> [String] {
    guard case .values(let candidates) = complete(line) else { return [] }
    return candidates.map(\.value)
  }

  @Test func subcommandsComeFromTheTreeWithoutHiddenOnes() {
    #expect(Self.values("") == ["routes", "fleet", "messages", "help"])
    #expect(Self.values("f") == ["fleet"])
    #expect(Self.values("fleet ") == ["list", "add", "show", "remove"])
    guard case .values(let candidates) = Self.complete("fleet a") else {
      Issue.record("expected values")
      return
    }
    #expect(candidates == [CompletionCandidate("add", description: "Add an instance.")])
  }

  @Test func optionsInScopeIncludingGlobalOnes() {
    let options = Self.values("fleet add --")
    #expect(options.contains("--name"))
    #expect(options.contains("--password-stdin"))
    #expect(options.contains("--json"))
    #expect(options.contains("--help"))
    #expect(!options.contains("--version"))
    // A non-repeating option already given is not offered again; a repeating one is.
    let later = Self.values("fleet add --name X --tag a --")
    #expect(!later.contains("--name"))
    #expect(later.contains("--tag"))
  }

  @Test func allowedValuesOfAnOption() {
    #expect(Self.values("fleet list --status ") == ["online", "offline", "unknown"])
    #expect(Self.values("fleet list --status o") == ["online", "offline"])
    #expect(Self.values("fleet list --status=off") == ["--status=offline"])
    #expect(Self.values("--lang z") == ["zh-Hans"])
  }

  @Test func dynamicValuesForArgumentsWithTheContextSoFar() {
    #expect(Self.values("fleet show ") == ["Office", "Shop router", "a1b2c3d4"])
    #expect(Self.values("fleet show S") == ["Shop router"])
    #expect(Self.values("fleet rm Office ") == ["Office", "Shop router", "a1b2c3d4"])
    // One REF only for show.
    #expect(Self.values("fleet show Office ") == [])
    let home = Locked<[String]>([])
    _ = Self.complete("--home /tmp/h fleet show ", home: home)
    #expect(home.current == ["/tmp/h"])
  }

  @Test func filesAreLeftToTheShell() {
    #expect(Self.complete("messages export ") == .files)
    #expect(
      Self.complete("messages export --format ")
        == .values(["csv", "jsonl"].map { CompletionCandidate($0) }))
  }

  @Test func helpCompletesCommandPaths() {
    #expect(Self.values("help ") == ["routes", "fleet", "messages", "help"])
    #expect(Self.values("help fleet ") == ["list", "add", "show", "remove"])
    #expect(Self.values("help fleet l") == ["list"])
  }

  @Test func afterTheTerminatorNothingIsAnOption() {
    #expect(Self.values("fleet show -- -") == [])
  }

  @Test func theProtocolTextIsOneLinePerCandidate() {
    let answer = CompletionAnswer.values([
      CompletionCandidate("Shop router", description: "http://x\ty"), CompletionCandidate("b"),
    ])
    #expect(answer.protocolText == "values\nShop router\thttp://x y\nb\n")
    #expect(CompletionAnswer.files.protocolText == "files\n")
  }

  @Test func theProtocolTextOfManyCandidatesIsTheJoinedLines() {
    // A thousand instances, some without a description, some with breaks and tabs, Chinese:
    // the text appended in one string is the lines joined as before. Every kind of break
    // `Character.isNewline` knows becomes a space on both paths, and "—" (E2 80 94) stays.
    let breaks = ["\u{0B}", "\u{0C}", "\r\n", "\u{85}", "\u{2028}", "\u{2029}", "—", "é"]
    let candidates = (0..<1_000).map { index in
      CompletionCandidate(
        index % 7 == 0
          ? "节点 \(index)\nx"
          : index % 11 == 0 ? "n\(breaks[index % breaks.count])-\(index)" : "node-\(index)",
        description: index % 3 == 0
          ? "" : "http://127.0.0.1:\(30_000 + index)\(index % 5 == 0 ? "\t\r" : "")")
    }
    func oneLine(_ text: String) -> String {
      String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }
    let lines = candidates.map { candidate in
      let value = oneLine(candidate.value)
      let description = oneLine(candidate.description)
      return description.isEmpty ? value : "\(value)\t\(description)"
    }
    let joined = (["values"] + lines).joined(separator: "\n") + "\n"
    #expect(CompletionAnswer.values(candidates).protocolText == joined)
    #expect(CompletionAnswer.values([]).protocolText == "values\n")
  }
}

/// The scripts load in each shell and call the entry with the words before the cursor.
@Suite struct CompletionScriptTests {
  static func shell(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)", "/opt/homebrew/bin/\(name)"]
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Runs `script` with `shell`; returns (status, stdout, stderr).
  static func run(_ shell: String, _ arguments: [String], in directory: URL) throws
    -> (Int32, String, String)
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: shell)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = directory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["HOME"] = directory.path
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: out, as: UTF8.self),
      String(decoding: err, as: UTF8.self)
    )
  }

  /// A directory with the script and a stand-in `msa` that logs its arguments and answers
  /// with two candidates, one with a space.
  static func workspace(_ shell: CompletionScript.Shell) throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-completion-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let fake = """
      #!/bin/sh
      printf '%s|' "$@" > "\(directory.path)/called"
      printf 'values\\nShop router\\tthe shop\\nOffice\\n'
      """
    let fakeURL = directory.appendingPathComponent("msa")
    try fake.write(to: fakeURL, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fakeURL.path)
    try CompletionScript.script(for: shell, programName: "msa")
      .write(to: directory.appendingPathComponent("script"), atomically: true, encoding: .utf8)
    return directory
  }

  @Test func bashLoadsAndCompletes() throws {
    let bash = try #require(Self.shell("bash"))
    let directory = try Self.workspace(.bash)
    defer { try? FileManager.default.removeItem(at: directory) }
    let test = """
      source ./script
      complete -p msa
      COMP_WORDS=(msa --home /tmp/h fleet show "")
      COMP_CWORD=5
      _msa
      printf '<%s>\\n' "${COMPREPLY[@]}"
      """
    let (status, output, error) = try Self.run(bash, ["-c", test], in: directory)
    #expect(status == 0, "\(error)")
    #expect(error.isEmpty)
    #expect(output.contains("complete -F _msa msa"))
    #expect(output.contains("<Shop\\ router>\n<Office>"))
    let called = try String(contentsOf: directory.appendingPathComponent("called"), encoding: .utf8)
    #expect(called == "__complete|--|--home|/tmp/h|fleet|show||")
  }

  @Test(.enabled(if: shell("zsh") != nil, "zsh is not installed"))
  func zshLoadsAndCompletes() throws {
    let zsh = try #require(Self.shell("zsh"))
    let directory = try Self.workspace(.zsh)
    defer { try? FileManager.default.removeItem(at: directory) }
    // _describe needs the completion system; stand in for it to see what would be offered.
    let test = """
      autoload -Uz compinit && compinit -u -D
      source ./script
      print -r -- "registered: ${_comps[msa]}"
      _describe() { print -rl -- "${(@P)4}"; }
      words=(msa fleet show S)
      CURRENT=4
      _msa
      """
    let (status, output, error) = try Self.run(zsh, ["-f", "-c", test], in: directory)
    #expect(status == 0, "\(error)")
    #expect(output.contains("registered: _msa"))
    #expect(output.contains("Shop router:the shop\nOffice:"))
    let called = try String(contentsOf: directory.appendingPathComponent("called"), encoding: .utf8)
    #expect(called == "__complete|--|fleet|show|S|")
  }

  @Test(.enabled(if: shell("fish") != nil, "fish is not installed"))
  func fishLoadsAndCompletes() throws {
    let fish = try #require(Self.shell("fish"))
    let directory = try Self.workspace(.fish)
    defer { try? FileManager.default.removeItem(at: directory) }
    let test = """
      source ./script
      complete -C 'msa fleet show '
      """
    let (status, output, error) = try Self.run(fish, ["--no-config", "-c", test], in: directory)
    #expect(status == 0, "\(error)")
    #expect(output.contains("Shop router\tthe shop"))
    #expect(output.contains("Office"))
    let called = try String(contentsOf: directory.appendingPathComponent("called"), encoding: .utf8)
    #expect(called == "__complete|--|fleet|show||")
  }
}
