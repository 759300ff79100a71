/// The status a command exits with, as in swift-argument-parser and `sysexits.h`.
public struct ExitCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The numeric status.
  public var rawValue: Int32

  /// A status.
  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// 0: the command did what was asked.
  public static let success = ExitCode(rawValue: 0)
  /// 1: the command ran but failed.
  public static let failure = ExitCode(rawValue: 1)
  /// 64 (`EX_USAGE`): the command line was wrong.
  public static let usage = ExitCode(rawValue: 64)

  /// The number, e.g. `64`.
  public var description: String { String(rawValue) }
}
