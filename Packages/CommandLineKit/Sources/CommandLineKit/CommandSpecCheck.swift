extension CommandSpec {
  /// Declaration defects in this command tree, one developer-facing line each (empty when the
  /// tree is sound): clashing subcommand names or aliases, a default subcommand that does not
  /// exist, option names or short names that clash (with each other or `globalOptions`), option
  /// names written with dashes, a repeating argument that is not last, and commands that have
  /// both subcommands and positional arguments (the parser reads such words as subcommands).
  ///
  /// The app's tests run this on the composed tree, so a defect never reaches a user.
  public func problems(globalOptions: [OptionSpec] = []) -> [String] {
    Self.optionProblems(globalOptions, at: "global options")
      + treeProblems(at: [name], globalOptions: globalOptions)
  }

  private func treeProblems(at path: [String], globalOptions: [OptionSpec]) -> [String] {
    let place = path.joined(separator: " ")
    var problems: [String] = []
    var seen: Set<String> = []
    for sub in subcommands {
      for word in [sub.name] + sub.aliases where !seen.insert(word).inserted {
        problems.append("\(place): subcommand name '\(word)' is used twice")
      }
    }
    if let fallback = defaultSubcommand, subcommand(named: fallback) == nil {
      problems.append("\(place): default subcommand '\(fallback)' does not exist")
    }
    if !subcommands.isEmpty && !arguments.isEmpty {
      problems.append("\(place): has both subcommands and positional arguments")
    }
    for (index, argument) in arguments.enumerated()
    where argument.isRepeating && index != arguments.count - 1 {
      problems.append("\(place): repeating argument \(argument.label) is not the last one")
    }
    problems += Self.optionProblems(globalOptions + options, at: place)
    for sub in subcommands {
      problems += sub.treeProblems(at: path + [sub.name], globalOptions: globalOptions)
    }
    return problems
  }

  private static func optionProblems(_ options: [OptionSpec], at place: String) -> [String] {
    var problems: [String] = []
    var names: Set<String> = []
    var shorts: Set<Character> = []
    for option in options {
      if option.name.isEmpty || option.name.hasPrefix("-") || option.name.contains("=") {
        problems.append("\(place): option name '\(option.name)' must be a bare word")
      }
      if !names.insert(option.name).inserted {
        problems.append("\(place): option '--\(option.name)' is declared twice")
      }
      if let short = option.short, !shorts.insert(short).inserted {
        problems.append("\(place): short option '-\(short)' is declared twice")
      }
      if let value = option.defaultValue, let allowed = option.allowedValues,
        !allowed.contains(value)
      {
        problems.append("\(place): default '\(value)' of '--\(option.name)' is not allowed")
      }
    }
    return problems
  }
}
