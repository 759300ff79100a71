import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one part of the console that touches the tty: raw mode, the alternate screen, reading
/// key bytes, writing frames, and putting everything back however the program ends.
public final class TerminalSession: @unchecked Sendable {
  private let input: Int32
  private let output: Int32
  private var original = termios()
  private var isActive = false
  private let lock = NSLock()

  static let enterSequence = "\u{1b}[?1049h\u{1b}[?25l\u{1b}[H\u{1b}[2J"
  static let leaveSequence = "\u{1b}[0m\u{1b}[?25h\u{1b}[?1049l"

  /// A session on standard input and output.
  public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
    self.input = input
    self.output = output
  }

  /// Whether both ends are terminals.
  public var isInteractive: Bool {
    isatty(input) == 1 && isatty(output) == 1
  }

  /// Switches to raw mode and the alternate screen.
  public func enter() throws {
    try lock.withLock {
      guard !isActive else { return }
      guard tcgetattr(input, &original) == 0 else { throw TerminalError.notATerminal }
      var raw = original
      raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
      raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
      raw.c_cflag |= tcflag_t(CS8)
      withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
        bytes[Int(VMIN)] = 0
        bytes[Int(VTIME)] = 1  // reads return after 100 ms, so the reader can stop
      }
      guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else { throw TerminalError.notATerminal }
      CrashRestore.install(original: original, input: input, output: output)
      isActive = true
      writeRaw(Self.enterSequence)
    }
  }

  /// Restores the terminal exactly as it was; safe to call more than once.
  public func leave() {
    lock.withLock {
      guard isActive else { return }
      isActive = false
      writeRaw(Self.leaveSequence)
      _ = tcsetattr(input, TCSAFLUSH, &original)
      CrashRestore.uninstall()
    }
  }

  /// Columns and rows, from the tty (or `COLUMNS`/`LINES`, else 80×24).
  public func size() -> (width: Int, height: Int) {
    var size = winsize()
    if ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
      return (Int(size.ws_col), Int(size.ws_row))
    }
    let environment = ProcessInfo.processInfo.environment
    return (
      environment["COLUMNS"].flatMap(Int.init) ?? 80, environment["LINES"].flatMap(Int.init) ?? 24
    )
  }

  /// Whatever bytes arrived within about 100 ms (empty when none); nil once the terminal is
  /// gone (hung up), so a reader stops instead of spinning on a dead tty.
  public func readBytes() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = read(input, &buffer, buffer.count)
    if count > 0 { return Array(buffer.prefix(count)) }
    if count < 0, errno == EINTR || errno == EAGAIN { return [] }
    // A read that timed out returns 0 too; a hung-up tty returns 0 (or EIO) at once and no
    // longer answers tcgetattr.
    var settings = termios()
    return tcgetattr(input, &settings) == 0 ? [] : nil
  }

  /// Ends the session without writing to the terminal or setting it: it is gone (hung up),
  /// so there is nothing to restore; ``leave()`` then does nothing.
  public func abandon() {
    lock.withLock {
      guard isActive else { return }
      isActive = false
      CrashRestore.uninstall()
    }
  }

  /// Draws a frame: each line cleared to its end, the rest of the screen cleared. The frame
  /// may hold colour (SGR) codes and nothing else a terminal acts on: any other control in it
  /// is shown by a stand-in (``UntrustedText/terminalSafe(_:)``), so the screen control
  /// written here is the only one.
  public func draw(_ frame: String) {
    let lines = Self.frameLines(frame)
    writeRaw("\u{1b}[H" + lines.joined(separator: "\u{1b}[K\r\n") + "\u{1b}[K\u{1b}[J")
  }

  /// The lines `draw` writes for `frame`, made safe.
  /// Sends `text` to the terminal's clipboard with OSC 52 (`ESC ] 52 ; c ; base64 BEL`), if
  /// the terminal allows it; its own write, never part of a frame. Only for a key the user
  /// pressed to copy (`c`).
  public func copyToClipboard(_ text: String) {
    writeRaw(Self.clipboardSequence(text))
  }

  /// The OSC 52 sequence that puts `text` on the clipboard; controls in `text` cannot escape
  /// it (the payload is base64).
  public static func clipboardSequence(_ text: String) -> String {
    "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
  }

  static func frameLines(_ frame: String) -> [String] {
    UntrustedText.terminalSafe(frame).components(separatedBy: "\n")
  }

  private func writeRaw(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return write(output, base + offset, buffer.count - offset)
      }
      if written <= 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}

/// Why the console cannot start.
public enum TerminalError: Error, Equatable {
  /// Standard input is not a terminal.
  case notATerminal
}

/// Puts the terminal back if the process dies of a signal while the console is up.
///
/// A signal handler may only touch async-signal-safe state, so the saved terminal settings
/// live in static storage: the one deliberate piece of global mutable state in the project,
/// written only while the console starts and stops.
enum CrashRestore {
  nonisolated(unsafe) static var saved = termios()
  nonisolated(unsafe) static var input: Int32 = 0
  nonisolated(unsafe) static var output: Int32 = 1
  static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

  static func install(original: termios, input: Int32, output: Int32) {
    saved = original
    self.input = input
    self.output = output
    for signalNumber in fatalSignals {
      signal(signalNumber, crashHandler)
    }
  }

  static func uninstall() {
    for signalNumber in fatalSignals {
      signal(signalNumber, SIG_DFL)
    }
  }
}

private let crashHandler: @convention(c) (Int32) -> Void = { signalNumber in
  let sequence = Array(TerminalSession.leaveSequence.utf8)
  _ = sequence.withUnsafeBytes { write(CrashRestore.output, $0.baseAddress, $0.count) }
  _ = tcsetattr(CrashRestore.input, TCSAFLUSH, &CrashRestore.saved)
  signal(signalNumber, SIG_DFL)
  raise(signalNumber)
}
