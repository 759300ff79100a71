import Essentials

/// A named option (`--name <NAME>`) or flag (`--json`) of a command, declared as data.
public struct OptionSpec: Sendable {
  /// The long name without dashes, e.g. `password-stdin`.
  public var name: String
  /// The one-letter short name, e.g. `n` for `-n`.
  public var short: Character?
  /// The placeholder shown for the value, e.g. `NAME`; `nil` makes this a flag taking no value.
  public var valueName: String?
  /// One line of help.
  public var help: LocalizedString
  /// The value used when the option is not given.
  public var defaultValue: String?
  /// Whether the option may be given several times, each value kept in order.
  public var isRepeating: Bool
  /// Whether parsing fails when the option is missing (and has no default).
  public var isRequired: Bool
  /// The only values accepted, listed in help; `nil` accepts any value.
  public var allowedValues: [String]?
  /// Whether help leaves the option out (it is still accepted).
  public var isHidden: Bool
  /// Where completion finds values other than ``allowedValues`` (``completing(_:)``).
  public var completion: ValueCompletion?
  /// Whether the value may be left out (`--fields` alone); the next word is the value only
  /// when it does not start with `-`.
  public var isValueOptional: Bool
  /// What the value must be, checked while parsing (``takingDuration()``, ``takingTime()``);
  /// nil for any text.
  public var valueKind: ValueKind?

  /// A kind of value the parser checks, so every command refuses a bad one the same way:
  /// a usage error naming the option (exit 64) before the command runs.
  public enum ValueKind: String, Sendable, Equatable {
    /// A length of time (`90s`, `30m`, `12h`, `7d`, `2w`), at most 100 years
    /// (`Essentials.TimeArgument`).
    case duration
    /// A point in time: a length of time back from now, a day or an ISO 8601 instant.
    case time
  }

  /// An option or flag with every property spelled out; prefer ``flag(_:short:help:hidden:)``
  /// and ``option(_:short:valueName:help:default:repeating:required:allowed:hidden:)``.
  public init(
    name: String, short: Character? = nil, valueName: String? = nil, help: LocalizedString,
    defaultValue: String? = nil, isRepeating: Bool = false, isRequired: Bool = false,
    allowedValues: [String]? = nil, isHidden: Bool = false, isValueOptional: Bool = false
  ) {
    self.name = name
    self.short = short
    self.valueName = valueName
    self.help = help
    self.defaultValue = defaultValue
    self.isRepeating = isRepeating
    self.isRequired = isRequired
    self.allowedValues = allowedValues
    self.isHidden = isHidden
    self.isValueOptional = isValueOptional
  }

  /// A flag taking no value, e.g. `.flag("json", help: ...)` for `--json`.
  public static func flag(
    _ name: String, short: Character? = nil, help: LocalizedString, hidden: Bool = false
  ) -> OptionSpec {
    OptionSpec(name: name, short: short, help: help, isHidden: hidden)
  }

  /// An option taking a value, e.g. `.option("name", valueName: "NAME", help: ...)`.
  public static func option(
    _ name: String, short: Character? = nil, valueName: String, help: LocalizedString,
    default defaultValue: String? = nil, repeating: Bool = false, required: Bool = false,
    allowed: [String]? = nil, hidden: Bool = false
  ) -> OptionSpec {
    OptionSpec(
      name: name, short: short, valueName: valueName, help: help, defaultValue: defaultValue,
      isRepeating: repeating, isRequired: required, allowedValues: allowed, isHidden: hidden)
  }

  /// The option, its value checked as a length of time while parsing (`--wait 2m`).
  public func takingDuration() -> OptionSpec {
    var copy = self
    copy.valueKind = .duration
    return copy
  }

  /// The option, its value checked as a point in time while parsing (`--since 7d`,
  /// `--until 2026-01-31`).
  public func takingTime() -> OptionSpec {
    var copy = self
    copy.valueKind = .time
    return copy
  }

  /// Whether the option is a flag (takes no value).
  public var isFlag: Bool { valueName == nil }

  /// How errors and usage lines name it: `--name <NAME>` or `--json`.
  public var synopsis: String {
    if let valueName { return "--\(name) <\(valueName)>" }
    return "--\(name)"
  }

  /// How help lists it: `-n, --name <NAME>`.
  public var helpLabel: String {
    if let short { return "-\(short), \(synopsis)" }
    return synopsis
  }
}
