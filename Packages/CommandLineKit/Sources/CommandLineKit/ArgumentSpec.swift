import Essentials

/// A positional argument of a command, declared as data.
public struct ArgumentSpec: Sendable {
  /// The argument's name, e.g. `REF`; help and errors show it as `<ref>`.
  public var name: String
  /// One line of help.
  public var help: LocalizedString
  /// Whether the argument may be left out.
  public var isOptional: Bool
  /// Whether the argument takes every remaining positional value.
  public var isRepeating: Bool
  /// Where completion finds values (``completing(_:)``).
  public var completion: ValueCompletion?
  /// Values completion offers (``suggesting(_:)``); others stay accepted.
  public var suggestedValues: [String] = []

  /// A positional argument.
  public init(
    _ name: String, help: LocalizedString, optional: Bool = false, repeating: Bool = false
  ) {
    self.name = name
    self.help = help
    self.isOptional = optional
    self.isRepeating = repeating
  }

  /// How help, usage lines and errors name it: `<ref>`.
  public var label: String { "<\(name.lowercased())>" }

  /// How the usage line shows it: `<ref>`, `[<ref>]`, `<ref> ...` or `[<ref> ...]`.
  public var synopsis: String {
    let core = isRepeating ? "\(label) ..." : label
    return isOptional ? "[\(core)]" : core
  }
}
