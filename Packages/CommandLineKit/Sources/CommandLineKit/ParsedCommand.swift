/// The result of parsing a command line: which command, and the values given to it.
///
/// Values after a `--` terminator are positional values, as in swift-argument-parser; there is
/// no separate pass-through list.
public struct ParsedCommand: Sendable {
  /// Canonical command names from the root's child down, aliases resolved; empty for the root.
  public var path: [String]
  /// Positional values by argument name (as declared, e.g. `REF`).
  public var arguments: [String: [String]]
  /// Option values by long name, in the order given; defaults filled in for options not given.
  public var options: [String: [String]]
  /// The long names of the flags given (global flags included).
  public var flags: Set<String>
  /// Whether `--help` or `-h` appeared: show help for ``path`` instead of running.
  public var isHelpRequested: Bool
  /// Whether the line ended at a command that has subcommands but no default one; callers
  /// usually show its help (after handling global flags such as `--version`).
  public var needsSubcommand: Bool
  /// The long names of the options given on the command line (not filled from defaults).
  public var explicitOptions: Set<String>

  /// The options that were in scope (the path's and the global ones), for error labels.
  let optionSpecs: [String: OptionSpec]
  /// The arguments of the command at ``path``.
  let argumentSpecs: [String: ArgumentSpec]

  /// A parsed command; normally built by ``CommandParser``.
  public init(
    path: [String], arguments: [String: [String]] = [:], options: [String: [String]] = [:],
    flags: Set<String> = [], isHelpRequested: Bool = false, needsSubcommand: Bool = false,
    explicitOptions: Set<String> = [], optionSpecs: [OptionSpec] = [],
    argumentSpecs: [ArgumentSpec] = []
  ) {
    self.path = path
    self.arguments = arguments
    self.options = options
    self.flags = flags
    self.isHelpRequested = isHelpRequested
    self.needsSubcommand = needsSubcommand
    self.explicitOptions = explicitOptions
    self.optionSpecs = Dictionary(optionSpecs.map { ($0.name, $0) }) { first, _ in first }
    self.argumentSpecs = Dictionary(argumentSpecs.map { ($0.name, $0) }) { first, _ in first }
  }

  // MARK: - Options

  /// Whether the flag `name` was given.
  public func flag(_ name: String) -> Bool {
    flags.contains(name)
  }

  /// The last value of option `name` (or its default); throws ``UsageError/Kind/missingOption``
  /// when there is none.
  public func string(_ name: String) throws(UsageError) -> String {
    guard let value = options[name]?.last else {
      throw UsageError(.missingOption, path: path, subject: synopsis(name))
    }
    return value
  }

  /// The last value of option `name` (or its default), `nil` when there is none.
  public func optionalString(_ name: String) -> String? {
    options[name]?.last
  }

  /// Every value of a repeating option, in the order given (empty when none).
  public func strings(_ name: String) -> [String] {
    options[name] ?? []
  }

  /// The option's value as a whole number; throws when it is missing or not a number.
  public func int(_ name: String) throws(UsageError) -> Int {
    try int(name, range: nil)
  }

  /// The option's value as a whole number within `range`; throws when it is missing, not a
  /// number, or out of range.
  public func int(_ name: String, range: ClosedRange<Int>?) throws(UsageError) -> Int {
    guard let value = try optionalInt(name, range: range) else {
      throw UsageError(.missingOption, path: path, subject: synopsis(name))
    }
    return value
  }

  /// The option's value as a whole number within `range`, `nil` when it was not given and has
  /// no default; throws when it is not a number or out of range.
  public func optionalInt(_ name: String, range: ClosedRange<Int>? = nil) throws(UsageError)
    -> Int?
  {
    guard let text = options[name]?.last else { return nil }
    guard let number = Int(text) else {
      throw UsageError(
        .invalidValue, path: path, subject: synopsis(name), value: text, problem: .notAnInteger)
    }
    if let range, !range.contains(number) {
      throw UsageError(
        .invalidValue, path: path, subject: synopsis(name), value: text,
        problem: .outOfRange(lower: range.lowerBound, upper: range.upperBound))
    }
    return number
  }

  // MARK: - Positional arguments

  /// The single value of argument `name`; throws ``UsageError/Kind/missingArgument`` when absent.
  public func argument(_ name: String) throws(UsageError) -> String {
    guard let value = arguments[name]?.first else {
      throw UsageError(.missingArgument, path: path, subject: label(name))
    }
    return value
  }

  /// The value of argument `name`, `nil` when absent.
  public func optionalArgument(_ name: String) -> String? {
    arguments[name]?.first
  }

  /// Every value of a repeating argument (empty when none).
  public func argumentList(_ name: String) -> [String] {
    arguments[name] ?? []
  }

  // MARK: - Labels

  private func synopsis(_ name: String) -> String {
    optionSpecs[name]?.synopsis ?? "--\(name)"
  }

  private func label(_ name: String) -> String {
    argumentSpecs[name]?.label ?? "<\(name.lowercased())>"
  }
}
