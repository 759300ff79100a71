/// Where a shell's Tab key finds values for an option or a positional argument.
///
/// CommandLineKit knows only files and directories; the program names its own kinds (an
/// instance, a group) and answers for them when the completion scripts ask
/// (``CompletionEngine``).
public struct ValueCompletion: RawRepresentable, Hashable, Sendable {
  /// The kind's name, e.g. `file` or `instance`.
  public var rawValue: String

  /// A kind of value.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// A path to a file; the shell completes it.
  public static let file = ValueCompletion(rawValue: "file")
  /// A path to a directory; the shell completes it.
  public static let directory = ValueCompletion(rawValue: "directory")
}

extension OptionSpec {
  /// This option, its values completed from `kind`.
  public func completing(_ kind: ValueCompletion) -> OptionSpec {
    var option = self
    option.completion = kind
    return option
  }
}

extension ArgumentSpec {
  /// This argument, its values completed from `kind`.
  public func completing(_ kind: ValueCompletion) -> ArgumentSpec {
    var argument = self
    argument.completion = kind
    return argument
  }

  /// This argument, with `values` offered by completion (other values stay accepted).
  public func suggesting(_ values: [String]) -> ArgumentSpec {
    var argument = self
    argument.suggestedValues = values
    return argument
  }
}
