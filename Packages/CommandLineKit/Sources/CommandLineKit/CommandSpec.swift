import Essentials

/// A command as data: name, help, arguments, options and subcommands, with no run function.
///
/// A feature wraps a spec with the code that runs it; the parser and help formatter need only
/// the spec.
public struct CommandSpec: Sendable {
  /// The name typed on the command line, e.g. `add`.
  public var name: String
  /// Other names accepted for it, e.g. `ls` for `list`.
  public var aliases: [String]
  /// One line saying what the command does (the help's `OVERVIEW:`).
  public var abstract: LocalizedString
  /// Longer text shown under the overview.
  public var discussion: LocalizedString?
  /// Positional arguments, in order.
  public var arguments: [ArgumentSpec]
  /// Options and flags.
  public var options: [OptionSpec]
  /// Nested commands, e.g. `add` under `fleet`.
  public var subcommands: [CommandSpec]
  /// The subcommand run when none is named.
  public var defaultSubcommand: String?
  /// The heading under which the parent's help lists this command, e.g. `Fleet` →
  /// `FLEET SUBCOMMANDS:`; `nil` lists it under `SUBCOMMANDS:`.
  public var group: LocalizedString?
  /// Whether help leaves the command out (it still runs).
  public var isHidden: Bool

  /// A command.
  public init(
    _ name: String, aliases: [String] = [], abstract: LocalizedString,
    discussion: LocalizedString? = nil, arguments: [ArgumentSpec] = [],
    options: [OptionSpec] = [], subcommands: [CommandSpec] = [],
    defaultSubcommand: String? = nil, group: LocalizedString? = nil, isHidden: Bool = false
  ) {
    self.name = name
    self.aliases = aliases
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options
    self.subcommands = subcommands
    self.defaultSubcommand = defaultSubcommand
    self.group = group
    self.isHidden = isHidden
  }

  /// The direct subcommand called `name` or having it as an alias.
  public func subcommand(named name: String) -> CommandSpec? {
    subcommands.first { $0.name == name || $0.aliases.contains(name) }
  }

  /// The command that `path` (names or aliases, from this command's child down) leads to, or
  /// `nil` when a name is unknown.
  public func command(at path: [String]) -> CommandSpec? {
    var current = self
    for name in path {
      guard let next = current.subcommand(named: name) else { return nil }
      current = next
    }
    return current
  }

  /// The canonical names along `path` (aliases resolved), as far as the names are known.
  public func canonicalPath(_ path: [String]) -> [String] {
    var current = self
    var result: [String] = []
    for name in path {
      guard let next = current.subcommand(named: name) else { break }
      result.append(next.name)
      current = next
    }
    return result
  }
}
