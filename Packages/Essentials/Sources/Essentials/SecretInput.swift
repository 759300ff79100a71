import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A password given on standard input: piped in, or typed at a terminal with echo off.
///
/// Typed, it is read as `ssh`, `sudo` and `git` read one: the prompt and the reading go to the
/// controlling terminal (`/dev/tty`), echo is off while the line is typed, Enter ends it, and
/// the terminal is put back as it was — also when Ctrl-C ends the process meanwhile (the app's
/// SIGINT handler calls ``restoreTerminal()`` before it exits).
public enum SecretInput {
  /// `text` with exactly one line end taken off its end, `\n` or `\r\n`, and every other
  /// character kept: a password piped from a file written on Windows loses its CR LF, not
  /// its last character. (A Swift `Character` holds `\r\n` as one, so this works on scalars.)
  public static func withoutLineEnd(_ text: String) -> String {
    var scalars = text.unicodeScalars
    guard scalars.last == "\n" else { return text }
    scalars.removeLast()
    if scalars.last == "\r" { scalars.removeLast() }
    return String(scalars)
  }

  /// Whether standard input is a terminal (a password would be typed, not piped).
  public static var inputIsTerminal: Bool {
    isatty(STDIN_FILENO) == 1
  }

  /// The terminal and its modes while a prompt reads with echo off.
  private static let reading = Locked<(descriptor: Int32, modes: termios)?>(nil)

  /// Puts the terminal back as it was before a prompt that is still reading turned echo off,
  /// and ends the prompt's line; does nothing when no prompt is reading. The app's Ctrl-C
  /// handler (a dispatch source, not a signal handler) calls it before the process ends.
  public static func restoreTerminal() {
    reading.withLock { state in
      guard let saved = state else { return }
      var modes = saved.modes
      tcsetattr(saved.descriptor, TCSAFLUSH, &modes)
      write(Array("\n".utf8), to: saved.descriptor)
      state = nil
    }
  }

  /// Writes `prompt` to the terminal, reads one line with echo off and returns it (without
  /// its line end); nil when input ends first (Ctrl-D) or when there is no terminal to read.
  public static func prompt(_ prompt: String) -> String? {
    let opened = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
    defer { if opened >= 0 { close(opened) } }
    // Without a controlling terminal, standard input (a terminal) is read and standard error
    // shows the prompt.
    let input = opened >= 0 ? opened : STDIN_FILENO
    let output = opened >= 0 ? opened : STDERR_FILENO
    var original = termios()
    guard isatty(input) == 1, tcgetattr(input, &original) == 0 else { return nil }
    write(Array(prompt.utf8), to: output)
    var quiet = original
    quiet.c_lflag &= ~tcflag_t(ECHO)
    reading.withLock { $0 = (input, original) }
    tcsetattr(input, TCSAFLUSH, &quiet)
    var line: [UInt8] = []
    var ended = false
    while true {
      var byte: UInt8 = 0
      let count = read(input, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 {
        ended = line.isEmpty
        break
      }
      if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
      line.append(byte)
    }
    reading.withLock { state in
      guard state != nil else { return }
      tcsetattr(input, TCSAFLUSH, &original)
      state = nil
    }
    // Echo was off, so Enter did not move to the next line.
    write(Array("\n".utf8), to: output)
    return ended ? nil : String(decoding: line, as: UTF8.self)
  }

  private static func write(_ bytes: [UInt8], to descriptor: Int32) {
    _ = bytes.withUnsafeBytes { ProcessOutput.writeAll($0, to: descriptor) }
  }
}
