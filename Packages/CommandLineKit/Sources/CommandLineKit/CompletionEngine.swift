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
      for candidate in candidates {
        Self.appendOneLine(candidate.value, to: &bytes)
        if !candidate.description.isEmpty {
          bytes.append(0x09)
          Self.appendOneLine(candidate.description, to: &bytes)
        }
        bytes.append(0x0A)
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// ``oneLine(_:)`` of `text` appended to `bytes`: a text without a byte that may start a
  /// break or a tab (nearly every value) is copied as it is, looked at once.
  private static func appendOneLine(_ text: String, to bytes: inout [UInt8]) {
    let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { source in
      for byte in source where mayBreak(byte) { return false }
      bytes.append(contentsOf: source)
      return true
    }
    if copied != true { bytes.append(contentsOf: oneLine(text).utf8) }
  }

  private static func oneLine(_ text: String) -> String {
    // Most values have no break: they go out as they are, without a walk by character.
    guard text.utf8.contains(where: mayBreak) else { return text }
    return String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
  }

  /// Whether `byte` may begin a tab or a character that `Character.isNewline` calls a break:
  /// tab, LF, VT, FF, CR, and the lead bytes of U+0085 (C2) and U+2028/U+2029 (E2). A text
  /// without one has none; one with one is walked by character (a false alarm costs only time).
  private static func mayBreak(_ byte: UInt8) -> Bool {
    (0x09...0x0D).contains(byte) || byte == 0xC2 || byte == 0xE2
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

  /// The answer for `current`, the word under the cursor (possibly empty), after `words`
  /// (the line's earlier words without the program name).
  public static func complete(
    words: [String], current: String, root: CommandSpec, globalOptions: [OptionSpec],
    language: AppLanguage,
    dynamic: (ValueCompletion, String, Context) -> [CompletionCandidate]
  ) -> CompletionAnswer {
    var walk = Walk(root: root, globalOptions: globalOptions)
    for word in words { walk.read(word) }
    let context = Context(path: walk.path, options: walk.options, positionals: walk.positionals)
    func values(for option: OptionSpec, prefix: String, typed: String) -> CompletionAnswer {
      if let allowed = option.allowedValues {
        return .values(
          allowed.filter { $0.hasPrefix(typed) }.map { CompletionCandidate(prefix + $0) })
      }
      switch option.completion {
      case .file?: return prefix.isEmpty ? .files : .values([])
      case .directory?: return prefix.isEmpty ? .directories : .values([])
      case let kind?:
        return .values(
          dynamic(kind, typed, context).filter { $0.value.hasPrefix(typed) }.map {
            CompletionCandidate(prefix + $0.value, description: $0.description)
          })
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
      return .values(walk.optionCandidates(language).filter { $0.value.hasPrefix(current) })
    }
    let command = walk.command
    if !walk.terminated, !command.subcommands.isEmpty, walk.positionals.isEmpty {
      return .values(subcommandCandidates(command, language).filter { $0.value.hasPrefix(current) })
    }
    guard let argument = walk.argumentForNextPositional() else { return .values([]) }
    if argument.completion == commandPath {
      let target = root.command(at: walk.positionals) ?? CommandSpec("", abstract: root.abstract)
      return .values(subcommandCandidates(target, language).filter { $0.value.hasPrefix(current) })
    }
    var candidates = argument.suggestedValues.map { CompletionCandidate($0) }
    switch argument.completion {
    case .file?: return .files
    case .directory?: return .directories
    case let kind?: candidates += dynamic(kind, current, context)
    case nil: break
    }
    return .values(candidates.filter { $0.value.hasPrefix(current) })
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
