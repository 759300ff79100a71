import Essentials

/// Generates help and usage-error text from command specs, shaped like swift-argument-parser's.
///
/// Text is returned without a trailing newline; the caller writes help to stdout and error
/// reports to stderr.
public enum HelpFormatter {
  /// The column help text wraps at unless told otherwise.
  public static let defaultWidth = 80
  /// Where option and subcommand help starts (argument-parser's label column).
  static let labelColumn = 26
  /// The indentation of labels.
  static let labelIndent = 2

  // MARK: - Help

  /// The help for the command at `path` (names or aliases from the root's child down; unknown
  /// names are ignored from the first one on).
  /// The root's help also lists `environment` (the `ENVIRONMENT:` section).
  public static func help(
    for path: [String], root: CommandSpec, globalOptions: [OptionSpec], language: AppLanguage,
    programName: String = "msa", width: Int = defaultWidth,
    environment: [EnvironmentVariable] = []
  ) -> String {
    let canonical = root.canonicalPath(path)
    let command = root.command(at: canonical) ?? root
    var lines: [String] = []

    lines += TextLayout.wrap(
      CommandLineKitStrings.text(
        "help.overview", language, ["text": command.abstract.resolve(language)]), width: width)
    if let discussion = command.discussion?.resolve(language), !discussion.isEmpty {
      lines.append("")
      lines += TextLayout.wrap(discussion, width: width)
    }
    lines.append("")
    lines += usageBlock(
      command: command, path: canonical, language: language, program: programName, width: width)

    let arguments = command.arguments.map { ($0.label, $0.help.resolve(language)) }
    if !arguments.isEmpty {
      lines += ["", CommandLineKitStrings.text("help.arguments", language)]
      for (label, help) in arguments { lines += row(label: label, help: help, width: width) }
    }

    lines += ["", CommandLineKitStrings.text("help.options", language)]
    for option in visibleOptions(command: command, isRoot: canonical.isEmpty, globalOptions) {
      lines += row(label: option.helpLabel, help: optionHelp(option, language), width: width)
    }
    lines += row(
      label: "-h, --help", help: CommandLineKitStrings.text("help.helpOption", language),
      width: width)

    let sections = subcommandSections(command, language)
    for section in sections {
      lines += ["", section.heading]
      for (label, help) in section.rows { lines += row(label: label, help: help, width: width) }
    }
    if !sections.isEmpty {
      let commandLine = ([programName] + canonical).joined(separator: " ")
      lines += [""]
      lines += TextLayout.wrap(
        CommandLineKitStrings.text("help.seeSubcommandHelp", language, ["command": commandLine]),
        width: width - Self.labelIndent
      ).map { indent(Self.labelIndent) + $0 }
    }
    if canonical.isEmpty && !environment.isEmpty {
      lines += ["", CommandLineKitStrings.text("help.environment", language)]
      for variable in environment {
        lines += row(label: variable.name, help: variable.help.resolve(language), width: width)
      }
    }
    if !command.examples.isEmpty {
      lines += ["", CommandLineKitStrings.text("help.examples", language)]
      lines += command.examples.map { indent(Self.labelIndent) + $0 }
    }
    return lines.joined(separator: "\n")
  }

  /// The usage line of the command at `path`, e.g.
  /// `msa fleet add <ref> --name <NAME> [--tag <TAG> ...] [--password-stdin]`.
  public static func usage(for path: [String], root: CommandSpec, programName: String = "msa")
    -> String
  {
    let canonical = root.canonicalPath(path)
    let command = root.command(at: canonical) ?? root
    return usageLine(command, commandLine: ([programName] + canonical).joined(separator: " "))
  }

  private static func usageLine(_ command: CommandSpec, commandLine: String) -> String {
    ([commandLine] + usageTokens(command)).joined(separator: " ")
  }

  /// The usage line's parts after the command line; each part stays whole when wrapping.
  static func usageTokens(_ command: CommandSpec) -> [String] {
    var tokens: [String] = []
    for option in command.options where !option.isHidden {
      let core = option.isRepeating ? "\(option.synopsis) ..." : option.synopsis
      let optional = !option.isRequired || option.defaultValue != nil || option.isFlag
      tokens.append(optional ? "[\(core)]" : core)
    }
    if command.subcommands.isEmpty {
      tokens += command.arguments.map(\.synopsis)
    } else {
      tokens.append("<subcommand>")
    }
    return tokens
  }

  // MARK: - Errors

  /// The report for a usage error:
  /// `Error: <message>` / `Usage: <usage line>` / `  See 'msa fleet add --help' for more
  /// information.`
  public static func errorReport(
    _ error: UsageError, root: CommandSpec, language: AppLanguage, programName: String = "msa"
  ) -> String {
    let commandLine = ([programName] + root.canonicalPath(error.path)).joined(separator: " ")
    return [
      CommandLineKitStrings.text("error.line", language, ["message": error.message(language)]),
      CommandLineKitStrings.text(
        "error.usage", language,
        ["usage": usage(for: error.path, root: root, programName: programName)]),
      indent(Self.labelIndent)
        + CommandLineKitStrings.text("error.seeHelp", language, ["command": commandLine]),
    ].joined(separator: "\n")
  }

  // MARK: - Parts

  private static func usageBlock(
    command: CommandSpec, path: [String], language: AppLanguage, program: String, width: Int
  ) -> [String] {
    let heading = CommandLineKitStrings.text("help.usage", language, ["usage": ""])
    let prefixWidth = TextLayout.width(heading)
    let tokens = [([program] + path).joined(separator: " ")] + usageTokens(command)
    // Continuation lines align under the command line, after the heading.
    var lines: [String] = []
    var line = heading
    var lineWidth = prefixWidth
    var lineHasToken = false
    for token in tokens {
      let tokenWidth = TextLayout.width(token)
      if lineHasToken && lineWidth + 1 + tokenWidth > width {
        lines.append(line)
        line = indent(prefixWidth) + token
        lineWidth = prefixWidth + tokenWidth
      } else {
        line += (lineHasToken ? " " : "") + token
        lineWidth += (lineHasToken ? 1 : 0) + tokenWidth
      }
      lineHasToken = true
    }
    lines.append(line)
    return lines
  }

  static func visibleOptions(
    command: CommandSpec, isRoot: Bool, _ globalOptions: [OptionSpec]
  ) -> [OptionSpec] {
    let own = command.options.filter { !$0.isHidden }
    let ownNames = Set(own.map(\.name))
    let globals = globalOptions.filter {
      !$0.isHidden && $0.name != "help" && !ownNames.contains($0.name)
        && (isRoot || $0.name != "version")
    }
    return own + globals
  }

  static func optionHelp(_ option: OptionSpec, _ language: AppLanguage) -> String {
    var parts = [option.help.resolve(language)]
    if let allowed = option.allowedValues, !allowed.isEmpty {
      parts.append(
        CommandLineKitStrings.text(
          "help.values", language, ["values": allowed.joined(separator: ", ")]))
    }
    if let value = option.defaultValue {
      parts.append(CommandLineKitStrings.text("help.default", language, ["value": value]))
    }
    let separator = language == .english ? " " : ""
    return parts.filter { !$0.isEmpty }.joined(separator: separator)
  }

  private struct Section {
    var heading: String
    var rows: [(String, String)]
  }

  private static func subcommandSections(_ command: CommandSpec, _ language: AppLanguage)
    -> [Section]
  {
    var sections: [Section] = []
    var ungrouped = Section(
      heading: CommandLineKitStrings.text("help.subcommands", language), rows: [])
    for sub in command.subcommands where !sub.isHidden {
      var label = ([sub.name] + sub.aliases).joined(separator: ", ")
      if sub.name == command.defaultSubcommand {
        label += " " + CommandLineKitStrings.text("help.defaultSubcommand", language)
      }
      let entry = (label, sub.abstract.resolve(language))
      guard let group = sub.group?.resolve(language) else {
        ungrouped.rows.append(entry)
        continue
      }
      let heading = CommandLineKitStrings.text(
        "help.groupSubcommands", language, ["group": group.uppercased(with: language.locale)])
      if let index = sections.firstIndex(where: { $0.heading == heading }) {
        sections[index].rows.append(entry)
      } else {
        sections.append(Section(heading: heading, rows: [entry]))
      }
    }
    return (ungrouped.rows.isEmpty ? [] : [ungrouped]) + sections
  }

  /// One label/help row: help starts at the label column, or on the next line when the label
  /// reaches it; continuation lines are indented to the label column.
  private static func row(label: String, help: String, width: Int) -> [String] {
    let padded = indent(Self.labelIndent) + label
    guard !help.isEmpty else { return [padded] }
    let helpLines = TextLayout.wrap(help, width: max(10, width - Self.labelColumn))
    let continuation = helpLines.map { indent(Self.labelColumn) + $0 }
    let paddedWidth = TextLayout.width(padded)
    guard paddedWidth < Self.labelColumn else { return [padded] + continuation }
    let first = padded + indent(Self.labelColumn - paddedWidth) + helpLines[0]
    return [first] + continuation.dropFirst()
  }

  private static func indent(_ count: Int) -> String {
    String(repeating: " ", count: max(0, count))
  }
}
