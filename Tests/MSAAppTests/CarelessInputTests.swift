import Foundation
import SimAdminSimulator
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One finished run of the real `msa`.
struct MSARun {
  var status: Int32
  /// Whether it ended by a signal (`status` is then the signal), e.g. SIGILL from a trap.
  var signalled: Bool
  var stdout: Data
  var stderr: String

  var output: String { String(decoding: stdout, as: UTF8.self) }

  /// Runs `msa arguments` to its end with `input` on standard input, in `directory`.
  static func run(
    _ arguments: [String], input: Data? = nil, directory: URL? = nil,
    environment: [String: String] = [:], fileSizeLimitKiB: Int? = nil
  ) throws -> MSARun {
    let process = Process()
    process.executableURL = try ArchiveKillTests.executable()
    process.arguments = arguments
    if let fileSizeLimitKiB {
      // `ulimit -f` (in 1,024-byte blocks with bash and dash) for this run only.
      process.arguments =
        [
          "-c", "ulimit -f \(fileSizeLimitKiB) && exec \"$0\" \"$@\"",
          try ArchiveKillTests.executable().path,
        ] + arguments
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
    }
    process.environment = ["LANG": "en_US.UTF-8", "NO_COLOR": "1"].merging(environment) { $1 }
    if let directory { process.currentDirectoryURL = directory }
    let output = Pipe()
    let errors = Pipe()
    let feed = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = input == nil ? FileHandle.nullDevice : feed
    try process.run()
    if let input {
      try feed.fileHandleForWriting.write(contentsOf: input)
      try feed.fileHandleForWriting.close()
    }
    // Both pipes are drained while it runs, so a large export never blocks it.
    let errorData = ReadAll(errors.fileHandleForReading)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return MSARun(
      status: process.terminationStatus,
      signalled: process.terminationReason == .uncaughtSignal, stdout: outputData,
      stderr: String(decoding: errorData.wait(), as: UTF8.self))
  }
}

/// Reads a file handle to its end on a thread of its own.
final class ReadAll: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private var data = Data()

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  func wait() -> Data {
    done.wait()
    return data
  }
}

/// Issue 35 point 8, in the real program: a length of time too large for a date is a usage
/// error naming the option in every command that takes one (each crashed with SIGILL), a
/// negative one says lengths are positive (it was "Missing value"), and `-o -` is standard
/// output (it wrote a file named `-`).
@Suite struct CarelessInputTests {
  let home: URL
  let scratch: URL

  init() throws {
    let base = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-careless-\(UUID().uuidString)")
    home = base.appendingPathComponent("home")
    scratch = base.appendingPathComponent("cwd")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  }

  func msa(_ arguments: [String], input: Data? = nil) throws -> MSARun {
    try MSARun.run(["--home", home.path] + arguments, input: input, directory: scratch)
  }

  @Test func hugeAndNegativeLengthsOfTimeAreUsageErrorsEverywhere() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "shop", smsCount: 5, seed: 3)])
    defer { Task { await fleet.stop() } }
    let origin = try #require(fleet.devices.first?.origin.absoluteString)
    #expect(try msa(["fleet", "add", "--name", "shop", "--url", origin]).status == 0)
    #expect(try msa(["messages", "sync"]).status == 0)
    let huge = "999999999999999d"
    let cases: [([String], String)] = [
      (["messages", "list", "--since", huge], "--since"),
      (["messages", "list", "--until", huge], "--until"),
      (["messages", "export", "--format", "csv", "--since", huge], "--since"),
      (["logs", "--since", huge], "--since"),
      (["logs", "--until", huge], "--until"),
      (["logs", "export", "--since", huge], "--since"),
      (["code", "--since", huge], "--since"),
      (["code", "--wait", huge], "--wait"),
      (["messages", "watch", "--interval", huge], "--interval"),
      (
        [
          "messages", "send", "--from", "shop", "--to", "10086", "--text", "hi", "--expires-in",
          huge,
        ],
        "--expires-in"
      ),
    ]
    for (arguments, option) in cases {
      let run = try msa(arguments)
      #expect(!run.signalled, "\(arguments): crashed with signal \(run.status)")
      #expect(run.status == 64, "\(arguments): \(run.stderr)")
      #expect(run.stderr.contains("'\(option) <"), "\(arguments): \(run.stderr)")
      #expect(run.stderr.contains("at most 36525d"), "\(arguments): \(run.stderr)")
    }
    let negative = try msa(["messages", "list", "--since", "-5d"])
    #expect(negative.status == 64)
    #expect(negative.stderr.contains("positive"), "\(negative.stderr)")
    #expect(!negative.stderr.contains("Missing value"))
    let chinese = try msa(["--lang", "zh-Hans", "code", "--wait", "-5m"])
    #expect(chinese.status == 64)
    #expect(chinese.stderr.contains("必须为正数"), "\(chinese.stderr)")
    // Nothing was queued by the refused send.
    let outbox = try msa(["outbox", "--json"])
    #expect(outbox.status == 0)
    #expect(!outbox.output.contains("10086"))
  }

  @Test func dashIsStandardOutputForBothExports() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "shop", smsCount: 7, seed: 4)])
    defer { Task { await fleet.stop() } }
    let origin = try #require(fleet.devices.first?.origin.absoluteString)
    #expect(try msa(["fleet", "add", "--name", "shop", "--url", origin]).status == 0)
    #expect(try msa(["messages", "sync"]).status == 0)

    let csv = try msa(["messages", "export", "--format", "csv", "-o", "-"])
    #expect(csv.status == 0, "\(csv.stderr)")
    let lines = csv.output.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    #expect(lines.first?.hasPrefix("instance,instance_id,direction") == true)
    #expect(lines.count == 8, "a header and 7 rows, each ending in CR LF: \(csv.output)")
    #expect(!csv.output.contains("\u{240D}"), "CR stays CR in a pipe")
    #expect(csv.stderr.contains("Exported 7 messages to standard output"))

    let jsonl = try msa(["messages", "export", "--format", "jsonl", "--output", "-"])
    #expect(jsonl.status == 0)
    #expect(jsonl.output.split(separator: "\n").count == 7)

    let both = try msa(["messages", "export", "--format", "jsonl", "-o", "-", "--json"])
    #expect(both.status == 64)
    #expect(both.stderr.contains("standard output"))

    let logs = try msa(["logs", "export", "--format", "csv", "-o", "-"])
    #expect(logs.status == 0, "\(logs.stderr)")
    #expect(logs.output.hasPrefix("id,kind,date,"))
    #expect(logs.output.contains("\r\n"))
    #expect(!logs.output.contains("\u{240D}"))

    let names = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
    #expect(names.isEmpty, "no file named '-': \(names)")
    let exports = home.appendingPathComponent("exports").path
    #expect((try? FileManager.default.contentsOfDirectory(atPath: exports))?.isEmpty ?? true)
  }

  /// Issue 35 point 7 in a pty, as a person types: `--password-stdin` on a terminal asks
  /// "Password for NAME:" with echo off, Enter ends the password (no Ctrl-D), and Ctrl-C at
  /// the prompt ends msa with the terminal's echo back on and nothing stored. Before, the
  /// password was shown as it was typed and msa waited for Ctrl-D after Enter.
  @Test(arguments: ["add", "edit", "login"])
  func aTerminalAsksForThePasswordWithEchoOff(command: String) async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "locked", password: "pass word", smsCount: 0)
    ])
    defer { Task { await fleet.stop() } }
    let origin = try #require(fleet.devices.first?.origin.absoluteString)
    let add = ["fleet", "add", "--name", "Shop", "--url", origin]
    if command != "add" { #expect(try msa(add).status == 0) }
    let arguments =
      switch command {
      case "add": add + ["--password-stdin"]
      case "edit": ["fleet", "edit", "Shop", "--password-stdin"]
      default: ["fleet", "login", "Shop", "--password-stdin"]
      }
    let typed = try PseudoTerminal.run(arguments, home: home, keys: "pass word\r")
    #expect(typed.prompted, "\(typed.output)")
    #expect(typed.echoOffWhileTyping)
    #expect(typed.echoOnAfter)
    #expect(typed.status == 0, "\(typed.output)")
    #expect(!typed.output.contains("pass word"), "the password is never shown: \(typed.output)")
    let credentials = try String(
      contentsOf: home.appendingPathComponent("credentials.json"), encoding: .utf8)
    #expect(credentials.contains("\"pass word\""))

    let interrupted = try PseudoTerminal.run(
      command == "add"
        ? [
          "fleet", "add", "--name", "Other", "--url", "http://10.9.9.9:3000",
          "--password-stdin",
        ] : arguments, home: home, keys: "pa\u{03}")
    #expect(interrupted.prompted)
    #expect(interrupted.status == 130, "\(interrupted.output)")
    #expect(interrupted.echoOnAfter, "Ctrl-C gives the terminal its echo back")
    #expect(!(try msa(["fleet", "show", "Other"]).status == 0), "nothing added")
  }
}

/// Runs the real `msa` on a pseudo-terminal of its own (python3's `pty`, as a terminal
/// emulator would), types `keys` once it asks for a password, and reports what the terminal
/// showed and how its echo was set while typing and after the end.
enum PseudoTerminal {
  struct Result: Decodable {
    var prompted: Bool
    var echoOffWhileTyping: Bool
    var echoOnAfter: Bool
    var status: Int32
    var output: String
  }

  static let driver = """
    import json, os, pty, select, sys, termios, time
    msa, home, keys = sys.argv[1], sys.argv[2], sys.argv[3]
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(MSA_HOME=home, NO_COLOR="1", LANG="en_US.UTF-8")
        os.execv(msa, [msa, "--no-pager"] + sys.argv[4:])
    seen = b""
    end = time.time() + 60
    while b"Password for" not in seen and time.time() < end:
        if select.select([fd], [], [], 0.2)[0]:
            try: seen += os.read(fd, 4096)
            except OSError: break
    prompted = b"Password for" in seen
    time.sleep(0.3)
    echo_off = not termios.tcgetattr(fd)[3] & termios.ECHO
    os.write(fd, keys.encode())
    end = time.time() + 60
    while time.time() < end:
        if not select.select([fd], [], [], 0.2)[0]: continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk: break
        seen += chunk
    else:
        os.kill(pid, 9)  # still waiting (before: for Ctrl-D after Enter)
    _, status = os.waitpid(pid, 0)
    echo_on = bool(termios.tcgetattr(fd)[3] & termios.ECHO)
    print(json.dumps(dict(prompted=prompted, echoOffWhileTyping=echo_off, echoOnAfter=echo_on,
        status=os.waitstatus_to_exitcode(status), output=seen.decode("utf-8", "replace"))))
    """

  static func run(_ arguments: [String], home: URL, keys: String) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      ["python3", "-c", driver, try ArchiveKillTests.executable().path, home.path, keys]
      + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return try JSONDecoder().decode(Result.self, from: data)
  }
}
