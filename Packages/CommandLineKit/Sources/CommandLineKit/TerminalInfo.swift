import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the program knows about where its output goes: a terminal or not, and how wide.
public struct TerminalInfo: Sendable, Equatable {
  /// The width used when nothing says otherwise.
  public static let defaultWidth = 80

  /// Whether the file descriptor is a terminal.
  public var isTerminal: Bool
  /// The width in columns.
  public var width: Int

  /// Known facts, e.g. for tests.
  public init(isTerminal: Bool, width: Int) {
    self.isTerminal = isTerminal
    self.width = width
  }

  /// Inspects `fileDescriptor` (standard output by default): `isatty`, then the width from
  /// `COLUMNS` when set to a positive number, else from the terminal, else 80.
  public static func detect(
    fileDescriptor: Int32 = 1, environment: [String: String] = [:]
  ) -> TerminalInfo {
    let terminal = isTerminal(fileDescriptor: fileDescriptor)
    let width =
      columns(from: environment)
      ?? (terminal ? width(fileDescriptor: fileDescriptor) : nil)
      ?? defaultWidth
    return TerminalInfo(isTerminal: terminal, width: width)
  }

  /// Whether `fileDescriptor` is a terminal.
  public static func isTerminal(fileDescriptor: Int32) -> Bool {
    isatty(fileDescriptor) == 1
  }

  /// The positive whole number in `COLUMNS`, if any.
  public static func columns(from environment: [String: String]) -> Int? {
    guard let text = environment["COLUMNS"], let value = Int(text), value > 0 else {
      return nil
    }
    return value
  }

  /// The terminal's width from `ioctl(TIOCGWINSZ)`, `nil` when it cannot be read.
  public static func width(fileDescriptor: Int32) -> Int? {
    #if os(Linux) || os(macOS)
      var size = winsize()
      guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
        return nil
      }
      return Int(size.ws_col)
    #else
      return nil
    #endif
  }

  /// The terminal's height in rows from `ioctl(TIOCGWINSZ)`, `nil` when it cannot be read.
  public static func height(fileDescriptor: Int32) -> Int? {
    #if os(Linux) || os(macOS)
      var size = winsize()
      guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else {
        return nil
      }
      return Int(size.ws_row)
    #else
      return nil
    #endif
  }

  /// Whether ANSI colour should be used: never with `--no-color`, `NO_COLOR` set to a non-empty value,
  /// `TERM=dumb`, or output that is not a terminal.
  public func wantsColor(environment: [String: String], noColorFlag: Bool) -> Bool {
    guard isTerminal, !noColorFlag else { return false }
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
    if environment["TERM"] == "dumb" { return false }
    return true
  }
}
