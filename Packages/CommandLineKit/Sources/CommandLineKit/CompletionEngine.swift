import Essentials

/// One value a shell may offer on Tab, with a short description shells such as zsh and fish
/// show beside it.
public struct CompletionCandidate: Sendable, Equatable {
  /// The word inserted.
  public var value: String
  /// What it is (a subcommand's abstract, an option's help, an instance's address).
  public var description: String

  /// A candidate.
  public init(_ value: String, description: String = "") {
    self.value = value
    self.description = description
  }
}

/// What the shell should do for the word under the cursor.
public enum CompletionAnswer: Sendable, Equatable {
  /// Offer these words.
  case values([CompletionCandidate])
  /// Complete a file path itself.
  case files
  /// Complete a directory path itself.
  case directories

  /// The protocol line-by-line, as `msa __complete` prints it: a first line naming what to do
  /// (`values`, `files` or `directories`), then one `value<TAB>description` line per candidate.
  ///
  /// A candidate is data, never shell input, and a value cannot break the protocol: a value
  /// holding a control (``UntrustedText/containsControl(_:)``: C0 including tab and line feed,
  /// DEL, C1, the bidi controls — the rule all device text follows) or an empty one is left
  /// out, and a description is neutralised as device text is on a terminal (a tab is a space,
  /// a line feed `⏎`, ESC `␛`). So every line is exactly one candidate.
  public var protocolText: String {
    switch self {
    case .files: return "files\n"
    case .directories: return "directories\n"
    case .values(let candidates):
      // Written as UTF-8 into one buffer (a Tab press may list a thousand instances) and made
      // a string once, rather than four appends to a string for every candidate.
      var bytes: [UInt8] = Array("values\n".utf8)
      bytes.reserveCapacity(
        candidates.reduce(8) { $0 + $1.value.utf8.count + $1.description.utf8.count + 2 })
      for candidate in candidates where Self.isOfferable(candidate.value) {
        bytes.append(contentsOf: candidate.value.utf8)
        if !candidate.description.isEmpty {
          bytes.append(0x09)
          bytes.append(
            contentsOf: (UntrustedText.neutralisedIfNeeded(
              candidate.description, lineFeeds: .symbol)
              ?? candidate.description).utf8)
        }
        bytes.append(0x0A)
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// Whether `value` can be offered at all: not empty and without a control.
  static func isOfferable(_ value: String) -> Bool {
    // `needsNeutralising` (a line feed counting) is `containsControl` for a `String`, with a
    // byte screen over the contiguous UTF-8: a Tab press checks a thousand values twice, and
    // the generic `containsControl` walked them by index at four times the cost.
    !value.isEmpty && !UntrustedText.needsNeutralising(value, lineFeeds: .symbol)
  }
}

/// Works out what the word under the cursor can be, from the command tree alone: subcommands,
/// options, option values from ``OptionSpec/allowedValues``, suggested argument values; values
/// of a named kind (``ValueCompletion``) come from the caller's `dynamic` function.
public enum CompletionEngine {
  /// The command line as far as it was read before the word under the cursor.
  public struct Context: Sendable {
    /// The canonical path of the command reached.
    public var path: [String]
    /// The option values given so far, by long name (`home` for `--home DIR`).
    public var options: [String: [String]]
    /// The positional values given to the command reached.
    public var positionals: [String]
  }

  /// Completion of help's `COMMAND` argument: the subcommands below the words given so far.
  public static let commandPath = ValueCompletion(rawValue: "command")

  /// The most candidates one answer offers. A value completer should read no more than this
  /// (the newest first where order matters), so a huge archive never makes Tab slow.
  public static let candidateLimit = 1_000

  /// What may be offered where a value begins with `-`.
  enum LeadingDash {
    /// Anywhere it cannot be read as an option: after `--`, or inside `--name=value`.
    case allowed
    /// Nowhere: the value of an option given as its own word (`--peer -x` is read as two
    /// options), so only the `--name=value` form can carry it.
    case refused
    /// A positional value before `--`: held back, and `--` offered in its place, after which
    /// the next Tab offers it.
    case afterTerminator
  }

  /// The answer for `current`, the word under the cursor (possibly empty), after `words`
  /// (the line's earlier words without the program name).
  ///
  /// Values from the tree or from `dynamic` are data: one holding a control is never offered
  /// (see ``CompletionAnswer/protocolText``), one that would be read as an option is offered
  /// only where it cannot be (after `--`, or as `--name=value`), and at most
  /// ``candidateLimit`` are offered, in the order given.
  public static func complete(
    words: [String], current: String, root: CommandSpec, globalOptions: [OptionSpec],
    language: AppLanguage,
    dynamic: (ValueCompletion, String, Context) -> [CompletionCandidate]
  ) -> CompletionAnswer {
    var walk = Walk(root: root, globalOptions: globalOptions)
    for word in words { walk.read(word) }
    let context = Context(path: walk.path, options: walk.options, positionals: walk.positionals)
    func offered(_ candidates: [CompletionCandidate], _ dash: LeadingDash) -> CompletionAnswer {
      .values(offerable(candidates, dash, language: language))
    }
    func values(for option: OptionSpec, prefix: String, typed: String) -> CompletionAnswer {
      let dash: LeadingDash = prefix.isEmpty ? .refused : .allowed
      if let allowed = option.allowedValues {
        return offered(
          allowed.filter { $0.hasPrefix(typed) }.map { CompletionCandidate(prefix + $0) }, dash)
      }
      switch option.completion {
      case .file?: return prefix.isEmpty ? .files : .values([])
      case .directory?: return prefix.isEmpty ? .directories : .values([])
      case let kind?:
        // Checked before the prefix is put in front: `--name=` alone is no value.
        return offered(
          dynamic(kind, typed, context).filter {
            $0.value.hasPrefix(typed) && CompletionAnswer.isOfferable($0.value)
          }.map { CompletionCandidate(prefix + $0.value, description: $0.description) }, dash)
      case nil: return .values([])
      }
    }
    if let pending = walk.pendingOption {
      return values(for: pending, prefix: "", typed: current)
    }
    if !walk.terminated, current.hasPrefix("--"), let equals = current.firstIndex(of: "=") {
      let name = String(current[current.index(current.startIndex, offsetBy: 2)..<equals])
      guard let option = walk.longOptions[name], !option.isFlag else { return .values([]) }
      let typed = String(current[current.index(after: equals)...])
      return values(for: option, prefix: "--\(name)=", typed: typed)
    }
    if !walk.terminated, current.hasPrefix("-") {
      return offered(
        walk.optionCandidates(language).filter { $0.value.hasPrefix(current) }, .allowed)
    }
    let command = walk.command
    if !walk.terminated, !command.subcommands.isEmpty, walk.positionals.isEmpty {
      return offered(
        subcommandCandidates(command, language).filter { $0.value.hasPrefix(current) }, .allowed)
    }
    guard let argument = walk.argumentForNextPositional() else { return .values([]) }
    let dash: LeadingDash = walk.terminated ? .allowed : .afterTerminator
    if argument.completion == commandPath {
      let target = root.command(at: walk.positionals) ?? CommandSpec("", abstract: root.abstract)
      return offered(
        subcommandCandidates(target, language).filter { $0.value.hasPrefix(current) }, dash)
    }
    var candidates = argument.suggestedValues.map { CompletionCandidate($0) }
    switch argument.completion {
    case .file?: return .files
    case .directory?: return .directories
    case let kind?: candidates += dynamic(kind, current, context)
    case nil: break
    }
    return offered(candidates.filter { $0.value.hasPrefix(current) }, dash)
  }

  /// `candidates` as they may be offered: without a value holding a control or empty, with
  /// values read as options kept to where they cannot be (`dash`), at most ``candidateLimit``.
  static func offerable(
    _ candidates: [CompletionCandidate], _ dash: LeadingDash, language: AppLanguage
  ) -> [CompletionCandidate] {
    var result: [CompletionCandidate] = []
    result.reserveCapacity(min(candidates.count, candidateLimit))
    var heldBack = false
    for candidate in candidates where CompletionAnswer.isOfferable(candidate.value) {
      if dash != .allowed, CommandParser.looksLikeOption(candidate.value) {
        heldBack = true
        continue
      }
      result.append(candidate)
      if result.count == candidateLimit { break }
    }
    if heldBack, dash == .afterTerminator {
      let terminator = CompletionCandidate(
        "--", description: CommandLineKitStrings.string("completion.terminator").resolve(language))
      if result.count == candidateLimit {
        result[result.count - 1] = terminator
      } else {
        result.append(terminator)
      }
    }
    return result
  }

  static func subcommandCandidates(_ command: CommandSpec, _ language: AppLanguage)
    -> [CompletionCandidate]
  {
    command.subcommands.filter { !$0.isHidden }.map {
      CompletionCandidate($0.name, description: $0.abstract.resolve(language))
    }
  }

  /// The state of the line as far as it was read.
  private struct Walk {
    var command: CommandSpec
    var path: [String] = []
    var longOptions: [String: OptionSpec] = [:]
    var shortOptions: [Character: OptionSpec] = [:]
    var declared: [OptionSpec] = []
    var options: [String: [String]] = [:]
    var positionals: [String] = []
    var pendingOption: OptionSpec?
    var terminated = false

    init(root: CommandSpec, globalOptions: [OptionSpec]) {
      command = root
      for option in globalOptions + root.options { register(option) }
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

    mutating func read(_ word: String) {
      if let pending = pendingOption {
        options[pending.name, default: []].append(word)
        pendingOption = nil
      } else if word == "--" && !terminated {
        terminated = true
      } else if !terminated && CommandParser.looksLikeOption(word) {
        readOption(word)
      } else {
        readPositional(word)
      }
    }

    mutating func readOption(_ word: String) {
      if word.hasPrefix("--") {
        let body = word.dropFirst(2)
        if let equals = body.firstIndex(of: "=") {
          options[String(body[..<equals]), default: []].append(String(body[equals...].dropFirst()))
        } else if let spec = longOptions[String(body)] {
          if spec.isFlag || spec.isValueOptional {
            options[spec.name, default: []].append("")
          } else {
            pendingOption = spec
          }
        }
        return
      }
      let letters = Array(word.dropFirst())
      for (offset, letter) in letters.enumerated() {
        guard let spec = shortOptions[letter], !spec.isFlag else { continue }
        if offset == letters.count - 1 {
          pendingOption = spec
        } else {
          options[spec.name, default: []].append(String(letters[(offset + 1)...]))
        }
        return
      }
    }

    mutating func readPositional(_ word: String) {
      if !command.subcommands.isEmpty && positionals.isEmpty {
        if !terminated, let next = command.subcommand(named: word) {
          descend(into: next)
          return
        }
        if let fallback = command.defaultSubcommand.flatMap(command.subcommand(named:)) {
          descend(into: fallback)
          readPositional(word)
          return
        }
      }
      positionals.append(word)
    }

    /// The argument the next positional value would go to.
    func argumentForNextPositional() -> ArgumentSpec? {
      var specs = command.arguments
      if specs.isEmpty, !command.subcommands.isEmpty,
        let fallback = command.defaultSubcommand.flatMap(command.subcommand(named:))
      {
        specs = fallback.arguments
      }
      if positionals.count < specs.count { return specs[positionals.count] }
      return specs.last.flatMap { $0.isRepeating ? $0 : nil }
    }

    func optionCandidates(_ language: AppLanguage) -> [CompletionCandidate] {
      var seen: Set<String> = []
      var result: [CompletionCandidate] = []
      for option in declared.reversed() where !option.isHidden && seen.insert(option.name).inserted
      {
        if option.name == "version" && !path.isEmpty { continue }
        // A non-repeating option already given is not offered again.
        if !option.isRepeating && (options[option.name] != nil) { continue }
        result.append(
          CompletionCandidate("--\(option.name)", description: option.help.resolve(language)))
      }
      return result.reversed()
    }
  }
}
