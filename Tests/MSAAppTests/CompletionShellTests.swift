import Foundation
import Testing

/// The scripts `msa completion bash|zsh|fish` print, loaded into the real shells (each where it
/// is installed) with the real `msa` executable on `PATH` and a test home: Tab on
/// `msa fleet test ` offers the registered instance names, read through `msa __complete`.
@Suite struct CompletionShellTests {
  /// The shell at one of the usual places, nil when it is not installed.
  static func shell(_ name: String) -> URL? {
    ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].map(URL.init(fileURLWithPath:))
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// Runs `script` with `shell`, msa's directory first on `PATH` and `home` as `MSA_HOME`.
  static func run(_ shell: URL, _ arguments: [String], home: URL) throws -> (Int32, String, String)
  {
    let msa = try ArchiveKillTests.executable()
    let process = Process()
    process.executableURL = shell
    process.arguments = arguments
    process.environment = [
      "PATH": msa.deletingLastPathComponent().path + ":/usr/bin:/bin",
      "MSA_HOME": home.path, "LANG": "en_US.UTF-8", "HOME": home.path, "TERM": "dumb",
    ]
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

  /// A home with two instances, one with a space in its name.
  static func home() async throws -> URL {
    let home = try temporaryHome()
    for (name, port) in [("Office", 3001), ("Shop router", 3002)] {
      let add = try await msa(
        ["fleet", "add", "--name", name, "--url", "http://127.0.0.1:\(port)"], home: home)
      #expect(add.status == 0, "\(add.error)")
    }
    return home
  }

  /// A shell's script: loads the completion script, then completes `msa fleet test ` and
  /// `msa fle`; what it must print, one item a line.
  struct Case: Sendable, CustomStringConvertible {
    let shell: String
    let arguments: [String]
    let expected: [String]
    var description: String { shell }
  }

  static let cases = [
    Case(
      shell: "bash",
      arguments: [
        "--norc", "--noprofile", "-c",
        """
        source <(msa completion bash) || exit 3
        complete -p msa || exit 4
        COMP_WORDS=(msa fleet test ""); COMP_CWORD=3
        _msa
        printf '%s\\n' "${COMPREPLY[@]}"
        COMP_WORDS=(msa fle); COMP_CWORD=1
        _msa
        printf '%s\\n' "${COMPREPLY[@]}"
        """,
      ],
      expected: ["complete -F _msa msa", "Office", "Shop\\ router", "fleet"]),
    // compinit registers the function; a completion widget cannot run without a terminal,
    // so `_describe` (the zsh helper that would show the candidates) prints them instead.
    Case(
      shell: "zsh",
      arguments: [
        "-f", "-c",
        """
        autoload -Uz compinit && compinit -u -D || exit 3
        source <(msa completion zsh) || exit 4
        print -r -- "registered:${_comps[msa]}"
        _describe() { print -rl -- "${(@P)4}" }
        words=(msa fleet test ""); CURRENT=4
        _msa
        words=(msa fle); CURRENT=2
        _msa
        """,
      ],
      expected: [
        "registered:_msa", "Office:http://127.0.0.1:3001", "Shop router:http://127.0.0.1:3002",
        "fleet:",
      ]),
    Case(
      shell: "fish",
      arguments: [
        "--no-config", "-c",
        """
        msa completion fish | source; or exit 3
        complete -C 'msa fleet test '
        complete -C 'msa fle'
        """,
      ],
      expected: ["Office\thttp://127.0.0.1:3001", "Shop router\thttp://127.0.0.1:3002", "fleet"]),
  ]

  /// Each shell installed here (.ci/run installs all three).
  @Test(arguments: cases.filter { shell($0.shell) != nil })
  func theScriptLoadsAndCompletesInstanceNames(_ test: Case) async throws {
    let shell = try #require(Self.shell(test.shell))
    let home = try await Self.home()
    defer { try? FileManager.default.removeItem(at: home) }
    let (status, output, error) = try Self.run(shell, test.arguments, home: home)
    #expect(status == 0, "\(error)")
    // Each line starts with what is expected (a subcommand may carry its description).
    let lines = output.split(separator: "\n").map(String.init)
    #expect(
      lines.count == test.expected.count
        && zip(lines, test.expected).allSatisfy { $0.hasPrefix($1) }, "\(output) \(error)")
  }
}
