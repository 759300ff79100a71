import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Shows long text output through a pager, as git and gh do: `$MSA_PAGER`, else `$PAGER`,
/// else `less -FRX` (quit at once when it fits, keep colour, leave the text on the screen).
///
/// The caller decides whether to page (a terminal, no `--json`, no `--no-pager`, not a follow
/// command; ``shouldPage(lineCount:terminalRows:)``). Quitting the pager before the end is a
/// normal end: the writer stops quietly and the program keeps its own exit status.
public struct Pager: Sendable {
  /// The shell command line that runs the pager.
  public var command: String

  /// A pager running `command` through `/bin/sh -c`.
  public init(command: String) {
    self.command = command
  }

  /// The pager the environment asks for: `MSA_PAGER`, else `PAGER`, else `less -FRX`; `nil`
  /// when the chosen value is empty or `cat` (no paging).
  public static func fromEnvironment(_ environment: [String: String]) -> Pager? {
    let chosen = environment["MSA_PAGER"] ?? environment["PAGER"] ?? "less -FRX"
    let trimmed = chosen.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty, trimmed != "cat" else { return nil }
    return Pager(command: trimmed)
  }

  /// Whether `lineCount` lines need a pager on a terminal `terminalRows` high: when they do
  /// not fit (leaving a line for the prompt), or when the height is unknown.
  public static func shouldPage(lineCount: Int, terminalRows: Int?) -> Bool {
    guard let terminalRows, terminalRows > 0 else { return true }
    return lineCount >= terminalRows
  }

  /// Runs the pager with `text` on its standard input and waits for it to end. Returns `false`
  /// when the pager could not be started (the caller then writes the text itself).
  ///
  /// A pager quit early just ends the writing (no SIGPIPE); SIGINT is ignored meanwhile
  /// (Ctrl-C belongs to the pager, as with git).
  public func run(_ text: String, environment: [String: String]) -> Bool {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { return false }
    let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
    var childEnvironment = environment
    if childEnvironment["LESS"] == nil { childEnvironment["LESS"] = "FRX" }
    if childEnvironment["LV"] == nil { childEnvironment["LV"] = "-c" }
    guard let process = spawn(readEnd: readEnd, writeEnd: writeEnd, childEnvironment) else {
      close(readEnd)
      close(writeEnd)
      return false
    }
    close(readEnd)
    let previousInterrupt = signal(SIGINT, SIG_IGN)
    defer { signal(SIGINT, previousInterrupt) }
    Self.withoutBrokenPipeSignal(writeEnd) {
      Self.writeAll(Array(text.utf8), to: writeEnd)
    }
    close(writeEnd)
    var status: Int32 = 0
    while waitpid(process, &status, 0) == -1 && errno == EINTR {}
    return true
  }

  private func spawn(readEnd: Int32, writeEnd: Int32, _ environment: [String: String]) -> pid_t? {
    #if canImport(Glibc)
      var actions = posix_spawn_file_actions_t()
    #else
      var actions: posix_spawn_file_actions_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
    posix_spawn_file_actions_addclose(&actions, readEnd)
    posix_spawn_file_actions_addclose(&actions, writeEnd)
    let arguments = ["/bin/sh", "-c", command]
    let environmentLines = environment.map { "\($0.key)=\($0.value)" }
    var cArguments = arguments.map { strdup($0) } + [nil]
    var cEnvironment = environmentLines.map { strdup($0) } + [nil]
    defer {
      for pointer in cArguments { free(pointer) }
      for pointer in cEnvironment { free(pointer) }
    }
    var process: pid_t = 0
    let result = posix_spawn(&process, "/bin/sh", &actions, nil, &cArguments, &cEnvironment)
    return result == 0 ? process : nil
  }

  /// Runs `body` (which writes to `descriptor`) so that a reader gone away gives `EPIPE`
  /// rather than SIGPIPE, without changing the process's signal handlers: on Linux SIGPIPE is
  /// blocked on this thread and a pending one taken away afterwards; on Apple platforms the
  /// descriptor is told not to raise it.
  private static func withoutBrokenPipeSignal(_ descriptor: Int32, _ body: () -> Void) {
    #if os(Linux)
      var pipeSignal = sigset_t()
      sigemptyset(&pipeSignal)
      sigaddset(&pipeSignal, SIGPIPE)
      var previousMask = sigset_t()
      pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
      var pending = sigset_t()
      sigpending(&pending)
      let wasPending = sigismember(&pending, SIGPIPE) == 1
      body()
      sigpending(&pending)
      if !wasPending && sigismember(&pending, SIGPIPE) == 1 {
        var now = timespec(tv_sec: 0, tv_nsec: 0)
        _ = sigtimedwait(&pipeSignal, nil, &now)
      }
      pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    #else
      _ = fcntl(descriptor, F_SETNOSIGPIPE, 1)
      body()
    #endif
  }

  /// Writes every byte unless the reader goes away (EPIPE) or another error stops it.
  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { buffer in
        write(descriptor, buffer.baseAddress, buffer.count)
      }
      if written > 0 {
        offset += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return
      }
    }
  }
}
