import Essentials
import Foundation

/// Turns a command line into a ``ParsedCommand`` using a tree of ``CommandSpec``s.
///
/// - Global options are accepted at any position, before or after subcommand names.
/// - Options: `--name value`, `--name=value`, `-n value`, `-nvalue`, grouped short flags
///   (`-vq`), repeated options, flags.
/// - `--` ends option parsing: every later word is a positional value.
/// - `--help` / `-h` anywhere before `--` asks for help on the command named so far; the rest
///   of the line is then not checked.
/// - A word that is not a subcommand of a command with subcommands is an unknown subcommand,
///   unless the command has a default subcommand, which then receives the word.
public struct CommandParser: Sendable {
  /// A parser.
  public init() {}

  /// Parses `arguments` (without the program name) against `root` and `globalOptions`.
  public func parse(
    _ arguments: [String], root: CommandSpec, globalOptions: [OptionSpec]
  ) throws(UsageError) -> ParsedCommand {
    if let help = helpRequest(arguments, root: root, globalOptions: globalOptions) {
      return help
    }
    var state = ParseState(root: root, globalOptions: globalOptions)
    var index = 0
    var terminated = false
    /// The next word as an option's value, unless it is itself an option.
    func nextValue() -> String? {
      guard index < arguments.count, !Self.looksLikeOption(arguments[index]) else { return nil }
      index += 1
      return arguments[index - 1]
    }
    while index < arguments.count {
      let word = arguments[index]
      index += 1
      if word == "--" && !terminated {
        terminated = true
      } else if terminated || !Self.looksLikeOption(word) {
        try state.positional(word, afterTerminator: terminated)
      } else if word.hasPrefix("--") {
        try state.longOption(word, next: nextValue)
      } else {
        try state.shortOptions(word, next: nextValue)
      }
    }
    return try state.finish()
  }

  /// Whether `word` is an option rather than a value: it starts with `-`, is not `-` alone
  /// and does not go on with a digit (a negative number, or a negative length of time such as
  /// `-5d`, which the option's check then refuses with its reason; no option is a digit).
  /// `--` counts as an option here so that it is never taken as a value.
  static func looksLikeOption(_ word: String) -> Bool {
    guard word.hasPrefix("-"), word.count > 1 else { return false }
    if Double(word) != nil { return false }
    let second = word.utf8.dropFirst().first ?? 0
    if second >= UInt8(ascii: "0") && second <= UInt8(ascii: "9") { return false }
    return true
  }

  static func isHelp(_ word: String) -> Bool {
    word == "--help" || word == "-h"
  }

  /// When `--help`/`-h` appears before any `--`: the commands named before the first word that
  /// is not a subcommand name, and whatever known flags and option values could be read (so
  /// `--lang` still chooses the help's language). Nothing is validated.
  private func helpRequest(
    _ arguments: [String], root: CommandSpec, globalOptions: [OptionSpec]
  ) -> ParsedCommand? {
    let words = Array(arguments.prefix { $0 != "--" })
    guard words.contains(where: Self.isHelp) else { return nil }
    var current = root
    var path: [String] = []
    var pathEnded = false
    var known: [String: OptionSpec] = [:]
    var shorts: [Character: OptionSpec] = [:]
    func learn(_ options: [OptionSpec]) {
      for option in options {
        known[option.name] = option
        if let short = option.short { shorts[short] = option }
      }
    }
    learn(globalOptions)
    learn(root.options)
    var options: [String: [String]] = [:]
    var flags: Set<String> = []
    var index = 0
    while index < words.count {
      let word = words[index]
      index += 1
      guard Self.looksLikeOption(word) else {
        if !pathEnded, let next = current.subcommand(named: word) {
          path.append(next.name)
          current = next
          learn(next.options)
        } else {
          pathEnded = true
        }
        continue
      }
      let spec: OptionSpec?
      var inlineValue: String?
      if word.hasPrefix("--") {
        let body = word.dropFirst(2)
        let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
        spec = known[name]
        if body.contains("=") { inlineValue = String(body.drop { $0 != "=" }.dropFirst()) }
      } else {
        spec = word.count == 2 ? word.last.flatMap { shorts[$0] } : nil
      }
      guard let spec else { continue }
      if spec.isFlag {
        flags.insert(spec.name)
      } else if let value = inlineValue
        ?? (index < words.count && !Self.looksLikeOption(words[index]) ? words[index] : nil)
      {
        if inlineValue == nil { index += 1 }
        options[spec.name, default: []].append(value)
      }
    }
    return ParsedCommand(
      path: path, options: options, flags: flags, isHelpRequested: true,
      explicitOptions: Set(options.keys), optionSpecs: Array(known.values))
  }
}

/// The mutable state of one parse.
private struct ParseState {
  var command: CommandSpec
  var path: [String] = []
  let globalOptions: [OptionSpec]
  var longOptions: [String: OptionSpec] = [:]
  /// Every option in scope, in the order it was declared (globals first).
  var declared: [OptionSpec] = []
  var shortOptions: [Character: OptionSpec] = [:]
  var options: [String: [String]] = [:]
  var flags: Set<String> = []
  var positionals: [String] = []

  init(root: CommandSpec, globalOptions: [OptionSpec]) {
    self.command = root
    self.globalOptions = globalOptions
    for option in globalOptions { register(option) }
    for option in root.options { register(option) }
  }

  mutating func register(_ option: OptionSpec) {
    longOptions[option.name] = option
    declared.append(option)
    if let short = option.short { shortOptions[short] = option }
  }

  mutating func descend(into next: CommandSpec) {
    path.append(next.name)
    command = next
    for option in next.options { register(option) }
  }

  // MARK: - Words

  mutating func positional(_ word: String, afterTerminator: Bool) throws(UsageError) {
    if !command.subcommands.isEmpty && positionals.isEmpty {
      if !afterTerminator, let next = command.subcommand(named: word) {
        descend(into: next)
        return
      }
      if let fallback = command.defaultSubcommand.flatMap(command.subcommand(named:)) {
        if !afterTerminator { try refuseMistypedSubcommand(word, fallback: fallback) }
        descend(into: fallback)
        try positional(word, afterTerminator: afterTerminator)
        return
      }
      if afterTerminator {
        throw UsageError(.unexpectedArgument, path: path, subject: word, value: word)
      }
      let names = command.subcommands.filter { !$0.isHidden }.flatMap { [$0.name] + $0.aliases }
      throw UsageError(
        .unknownSubcommand, path: path, subject: word,
        suggestion: Suggestion.closest(to: word, in: names))
    }
    positionals.append(word)
  }

  /// A word about to go to the default subcommand `fallback` is refused as an unknown
  /// subcommand when `fallback` takes no positional values (`msa fleet lst`), and also when it
  /// does but the word is a near miss of a subcommand's name (`--` before the word passes it
  /// on regardless).
  func refuseMistypedSubcommand(_ word: String, fallback: CommandSpec) throws(UsageError) {
    guard fallback.subcommands.isEmpty else { return }
    let names = command.subcommands.filter { !$0.isHidden }.flatMap { [$0.name] + $0.aliases }
    if fallback.arguments.isEmpty {
      throw UsageError(
        .unknownSubcommand, path: path, subject: word,
        suggestion: Suggestion.closest(to: word, in: names))
    }
    if let near = Suggestion.closest(to: word, in: names, allowingPrefix: false) {
      throw UsageError(.unknownSubcommand, path: path, subject: word, suggestion: near)
    }
  }

  mutating func longOption(_ word: String, next: () -> String?) throws(UsageError) {
    let body = word.dropFirst(2)
    let name: String
    var inlineValue: String?
    if let equals = body.firstIndex(of: "=") {
      name = String(body[..<equals])
      inlineValue = String(body[body.index(after: equals)...])
    } else {
      name = String(body)
    }
    guard let spec = longOptions[name] else {
      let names = longOptions.values.filter { !$0.isHidden }.map(\.name) + ["help"]
      throw UsageError(
        .unknownOption, path: path, subject: "--\(name)",
        suggestion: Suggestion.closest(to: name, in: names).map { "--\($0)" })
    }
    if spec.isFlag {
      if inlineValue != nil {
        throw UsageError(.unexpectedValue, path: path, subject: spec.synopsis)
      }
      flags.insert(spec.name)
      return
    }
    guard let value = inlineValue ?? next() ?? (spec.isValueOptional ? "" : nil) else {
      throw UsageError(.missingValue, path: path, subject: spec.synopsis)
    }
    try record(value, for: spec)
  }

  mutating func shortOptions(_ word: String, next: () -> String?) throws(UsageError) {
    let letters = Array(word.dropFirst())
    var position = 0
    while position < letters.count {
      let letter = letters[position]
      position += 1
      guard let spec = shortOptions[letter] else {
        throw UsageError(.unknownOption, path: path, subject: "-\(letter)")
      }
      if spec.isFlag {
        flags.insert(spec.name)
        continue
      }
      let rest = String(letters[position...])
      guard let value = rest.isEmpty ? next() ?? (spec.isValueOptional ? "" : nil) : rest else {
        throw UsageError(.missingValue, path: path, subject: spec.synopsis)
      }
      try record(value, for: spec)
      return
    }
  }

  mutating func record(_ value: String, for spec: OptionSpec) throws(UsageError) {
    if let allowed = spec.allowedValues, !allowed.contains(value) {
      throw UsageError(
        .invalidValue, path: path, subject: spec.synopsis, value: value,
        problem: .notAllowed(allowed: allowed),
        suggestion: Suggestion.closest(to: value, in: allowed))
    }
    if !spec.isRepeating, options[spec.name] != nil {
      throw UsageError(.duplicateOption, path: path, subject: spec.synopsis)
    }
    if let kind = spec.valueKind, let problem = Self.problem(value, kind) {
      throw UsageError(
        .invalidValue, path: path, subject: spec.synopsis, value: value,
        problem: kind == .duration ? .duration(problem) : .time(problem))
    }
    options[spec.name, default: []].append(value)
  }

  /// Why `value` is not of `kind`, or nil. A point in time is checked against a fixed "now":
  /// its form and its bounds do not depend on when the command runs.
  static func problem(_ value: String, _ kind: OptionSpec.ValueKind) -> TimeArgument.Problem? {
    switch kind {
    case .duration:
      if case .failure(let problem) = TimeArgument.duration(value) { return problem }
    case .time:
      let reference = Date(timeIntervalSince1970: 0)
      if case .failure(let problem) = TimeArgument.pointInTime(value, now: reference) {
        return problem
      }
    }
    return nil
  }

  // MARK: - Finishing

  mutating func finish() throws(UsageError) -> ParsedCommand {
    while !command.subcommands.isEmpty && positionals.isEmpty,
      let fallback = command.defaultSubcommand.flatMap(command.subcommand(named:))
    {
      descend(into: fallback)
    }
    let needsSubcommand = !command.subcommands.isEmpty
    // A later declaration of the same name (a subcommand's) shadows an earlier one.
    var seen: Set<String> = []
    let inScope = Array(declared.reversed().filter { seen.insert($0.name).inserted }.reversed())
    let explicit = Set(options.keys)
    if !needsSubcommand {
      for spec in inScope where options[spec.name] == nil {
        if let value = spec.defaultValue {
          options[spec.name] = [value]
        } else if spec.isRequired {
          throw UsageError(.missingOption, path: path, subject: spec.synopsis)
        }
      }
    }
    let arguments = try assignPositionals()
    return ParsedCommand(
      path: path, arguments: arguments, options: options, flags: flags,
      needsSubcommand: needsSubcommand, explicitOptions: explicit, optionSpecs: inScope,
      argumentSpecs: command.arguments)
  }

  private func assignPositionals() throws(UsageError) -> [String: [String]] {
    let specs = command.arguments
    var remaining = positionals[...]
    var result: [String: [String]] = [:]
    for (offset, spec) in specs.enumerated() {
      let later = specs[(offset + 1)...]
      let reservedForLater = later.filter { !$0.isOptional && !$0.isRepeating }.count
      let available = max(0, remaining.count - reservedForLater)
      let take = spec.isRepeating ? available : min(1, available)
      let values = Array(remaining.prefix(take))
      remaining = remaining.dropFirst(take)
      if values.isEmpty {
        if !spec.isOptional {
          throw UsageError(.missingArgument, path: path, subject: spec.label)
        }
      } else {
        result[spec.name] = values
      }
    }
    if let extra = remaining.first {
      throw UsageError(.unexpectedArgument, path: path, subject: extra, value: extra)
    }
    return result
  }
}
