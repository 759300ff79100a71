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
        sub.options = sub.options.map { $0.name == "name" ? $0.completing(instance) : $0 }
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

  /// `text` single-quoted for a POSIX shell.
  static func singleQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
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

  /// Issue 33: a value is data and cannot break the protocol. A value holding any control
  /// (UntrustedText's rule: C0 with tab and line feed, DEL, C1, bidi) is never written; a
  /// description is neutralised as device text is on a terminal; so each line is one
  /// candidate, whatever the values.
  @Test func aValueWithAControlIsNeverWrittenAndADescriptionIsNeutralised() {
    let refused = [
      "x\nfiles $(touch /tmp/pwned)", "tab\there", "cr\rx", "esc\u{1B}]0;HACKED\u{07}", "nul\u{0}",
      "del\u{7F}", "csi\u{9B}2J", "nel\u{85}", "bidi\u{202E}txt", "",
    ]
    let kept = [
      "/*/*/*/*", "$(touch /tmp/pwned)", "`id`", "O'Brien", "say \"hi\" \\", "中国移动", "a\u{2028}b",
    ]
    let candidates =
      refused.map { CompletionCandidate($0) } + kept.map { CompletionCandidate($0) } + [
        CompletionCandidate("node", description: "line one\nline two\t\u{1B}[2J\u{202E}")
      ]
    let text = CompletionAnswer.values(candidates).protocolText
    #expect(
      text == "values\n" + kept.map { $0 + "\n" }.joined()
        + "node\tline one⏎line two ␛[2J\\u{202E}\n")
    // Nothing the shells split on or a terminal acts on is left but the separators.
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 1 + kept.count + 1)
    #expect(
      !lines.contains {
        UntrustedText.containsControl($0.replacingOccurrences(of: "\t", with: " "))
      })
  }

  @Test func theProtocolTextOfManyCandidatesIsTheLinesJoined() {
    // A thousand instances, some without a description, some with Chinese or a dash: the
    // text appended in one buffer is the lines joined.
    let candidates = (0..<1_000).map { index in
      CompletionCandidate(
        index % 7 == 0 ? "节点 \(index)" : index % 11 == 0 ? "n—\(index)" : "node-\(index)",
        description: index % 3 == 0 ? "" : "http://127.0.0.1:\(30_000 + index)")
    }
    let lines = candidates.map { candidate in
      candidate.description.isEmpty
        ? candidate.value : "\(candidate.value)\t\(candidate.description)"
    }
    #expect(
      CompletionAnswer.values(candidates).protocolText
        == (["values"] + lines).joined(separator: "\n") + "\n")
    #expect(CompletionAnswer.values([]).protocolText == "values\n")
  }

  /// What Tab offers after `line` when the instances a completer reads were named by an
  /// attacker, plus `count` ordinary ones.
  static func hostile(_ line: String, count: Int = 0, language: AppLanguage = .english)
    -> [CompletionCandidate]
  {
    var words = line.components(separatedBy: " ")
    let current = words.removeLast()
    let answer = CompletionEngine.complete(
      words: words, current: current, root: tree, globalOptions: SampleTree.globalOptions,
      language: language
    ) { kind, _, _ in
      guard kind == instance else { return [] }
      return ["--home=/tmp/evil", "-x", "-5", "a\nb", "esc\u{1B}[2J", "", "ok"].map {
        CompletionCandidate($0)
      } + (0..<count).map { CompletionCandidate("n\($0)") }
    }
    guard case .values(let candidates) = answer else { return [] }
    return candidates
  }

  static func hostile(_ line: String, count: Int = 0) -> [String] {
    hostile(line, count: count, language: .english).map(\.value)
  }

  /// Issue 33: a value the parser would read as an option is never offered where it would be.
  @Test func aValueReadAsAnOptionIsOfferedOnlyWhereItCannotBe() {
    // Before `--` a positional value beginning with `-` is held back and `--` offered in its
    // place ("-5" is a number, not an option); after it, the values are offered.
    #expect(Self.hostile("fleet show ") == ["-5", "ok", "--"])
    #expect(Self.hostile("fleet show -- ") == ["--home=/tmp/evil", "-x", "-5", "ok"])
    #expect(Self.hostile("fleet show -- --h") == ["--home=/tmp/evil"])
    // Typing `-` completes options, never a value.
    #expect(!Self.hostile("fleet show -").contains { $0.hasPrefix("--home=") })
    // An option's value as its own word: `--name -x` would be read as two options, so only
    // the `--name=value` form offers it.
    #expect(Self.hostile("fleet add --name ") == ["-5", "ok"])
    #expect(
      Self.hostile("fleet add --name=") == [
        "--name=--home=/tmp/evil", "--name=-x", "--name=-5", "--name=ok",
      ])
    guard case .values(let hint) = Self.complete("fleet show ") else { return }
    #expect(!hint.contains { $0.value == "--" })
    #expect(
      Self.hostile("fleet show ", language: .simplifiedChinese).last
        == CompletionCandidate("--", description: "以“-”开头的值写在它之后"))
  }

  /// Issue 33: at most 1,000 candidates, in the completer's order (newest first for peers).
  @Test func atMostAThousandCandidatesInTheGivenOrder() {
    let offered = Self.hostile("fleet show -- ", count: 5_000)
    #expect(offered.count == CompletionEngine.candidateLimit)
    #expect(Array(offered.prefix(6)) == ["--home=/tmp/evil", "-x", "-5", "ok", "n0", "n1"])
    #expect(offered.last == "n995")
    // With a value held back, `--` is still offered, in the last place.
    let held = Self.hostile("fleet show ", count: 5_000)
    #expect(held.count == CompletionEngine.candidateLimit)
    #expect(Array(held.prefix(3)) == ["-5", "ok", "n0"])
    #expect(held.last == "--")
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
      case "$*" in
          *--peer=a:) printf 'values\\n--peer=a:b=c\\n' ;;
          *) printf 'values\\nShop router\\tthe shop\\nOffice\\n' ;;
      esac
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
    // COMP_WORDS alone (an older caller), then the line as readline gives it.
    let test = """
      source ./script
      complete -p msa
      COMP_WORDS=(msa --home /tmp/h fleet show "")
      COMP_CWORD=5
      _msa
      printf '<%s>\\n' "${COMPREPLY[@]}"
      cp called called-words
      """
    let (status, output, error) = try Self.run(bash, ["-c", test], in: directory)
    #expect(status == 0, "\(error)")
    #expect(error.isEmpty)
    #expect(output.contains("complete -F _msa msa"))
    #expect(output.contains("<Shop\\ router>\n<Office>"))
    let called = try String(
      contentsOf: directory.appendingPathComponent("called-words"), encoding: .utf8)
    #expect(called == "__complete|--|--home|/tmp/h|fleet|show||")
  }

  /// The words come from the line up to the cursor, split and unquoted as the shell will
  /// (quotes, backslashes, `~/`), nothing run; readline replaces only what follows the last
  /// `=` or `:` of the word, so the replies start there.
  @Test func bashReadsTheLineAsTheCommandWill() throws {
    let bash = try #require(Self.shell("bash"))
    let directory = try Self.workspace(.bash)
    defer { try? FileManager.default.removeItem(at: directory) }
    let line = #"msa --home "/tmp/a b" 'it''s' a\ \$b ~/x $(id) --peer=a:"#
    let test = """
      source ./script
      COMP_LINE=\(CompletionEngineTests.singleQuoted(line + " tail")); COMP_POINT=\(line.utf8.count)
      COMP_WORDS=(wrong); COMP_CWORD=0
      _msa
      printf '<%s>\\n' "${COMPREPLY[@]}"
      """
    let (status, output, error) = try Self.run(bash, ["-c", test], in: directory)
    #expect(status == 0, "\(error)")
    #expect(output == "<b=c>\n")
    let called = try String(contentsOf: directory.appendingPathComponent("called"), encoding: .utf8)
    #expect(
      called
        == "__complete|--|--home|/tmp/a b|its|a $b|\(directory.path)/x|$(id)|--peer=a:|")
  }

  @Test(.enabled(if: shell("zsh") != nil, "zsh is not installed"))
  func zshLoadsAndCompletes() throws {
    let zsh = try #require(Self.shell("zsh"))
    let directory = try Self.workspace(.zsh)
    defer { try? FileManager.default.removeItem(at: directory) }
    // _wanted needs a completion widget; stand in for it to see what would be offered: the
    // values after `--`, the displays (with descriptions) and the options for compadd.
    let test = """
      autoload -Uz compinit && compinit -u -D
      source ./script
      print -r -- "registered: ${_comps[msa]}"
      _wanted() { print -r -- "args: ${(j:|:)@}"; print -rl -- "${displays[@]}"; }
      words=(msa fleet show S)
      CURRENT=4
      PREFIX=S
      _msa
      """
    let (status, output, error) = try Self.run(zsh, ["-f", "-c", test], in: directory)
    #expect(status == 0, "\(error)")
    #expect(output.contains("registered: _msa"))
    #expect(
      output.contains("args: -V|values|expl|value|compadd|-l|-d|displays|--|Shop router|Office\n"))
    #expect(output.contains("Shop router  -- the shop\nOffice\n"))
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
