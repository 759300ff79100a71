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
  /// Two or three command lines showing typical use, as typed in a shell
  /// (`msa fleet add --name Office --url http://192.168.8.1:3000`); help and the manual end
  /// with them.
  public var examples: [String]
  /// The rows its `--json` output lists, for `--fields` (``listing(_:fields:)``).
  public var jsonRows: JSONRows?
  /// Whether its output is for a terminal or another program (a shell script, roff, the
  /// console) and never JSON: `--json` is then a usage error (``withoutJSON()``).
  public var printsNoJSON = false

  /// A command.
  public init(
    _ name: String, aliases: [String] = [], abstract: LocalizedString,
    discussion: LocalizedString? = nil, arguments: [ArgumentSpec] = [],
    options: [OptionSpec] = [], subcommands: [CommandSpec] = [],
    defaultSubcommand: String? = nil, group: LocalizedString? = nil, isHidden: Bool = false,
    examples: [String] = []
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
    self.examples = examples
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

extension CommandSpec {
  /// The canonical path that `words` (names or aliases) name, for `msa help fleet add`;
  /// throws ``UsageError/Kind/unknownSubcommand`` with the closest name for a word that names
  /// no subcommand.
  public func resolvedPath(_ words: [String]) throws(UsageError) -> [String] {
    var current = self
    var result: [String] = []
    for word in words {
      guard let next = current.subcommand(named: word) else {
        let names = current.subcommands.filter { !$0.isHidden }.flatMap { [$0.name] + $0.aliases }
        throw UsageError(
          .unknownSubcommand, path: result, subject: word,
          suggestion: Suggestion.closest(to: word, in: names))
      }
      result.append(next.name)
      current = next
    }
    return result
  }

  /// Every command below this one with its canonical path, depth first, in declaration order;
  /// without hidden commands (and what is below them) unless `includingHidden`.
  public func descendants(from path: [String] = [], includingHidden: Bool = true)
    -> [(path: [String], command: CommandSpec)]
  {
    subcommands.filter { includingHidden || !$0.isHidden }.flatMap { sub in
      [(path + [sub.name], sub)]
        + sub.descendants(from: path + [sub.name], includingHidden: includingHidden)
    }
  }
}
