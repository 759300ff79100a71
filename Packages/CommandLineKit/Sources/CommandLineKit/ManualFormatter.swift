import Essentials

/// A section of the manual after the generated ones (`FILES`, `SEE ALSO`).
public struct ManualSection: Sendable {
  /// The heading, e.g. `FILES`.
  public var title: LocalizedString
  /// The text; a blank line separates paragraphs.
  public var body: LocalizedString

  /// A section.
  public init(title: LocalizedString, body: LocalizedString) {
    self.title = title
    self.body = body
  }
}

/// Generates the manual page (roff, `man(7)` macros) from the same command specs as help:
/// NAME, SYNOPSIS, DESCRIPTION, OPTIONS (the global ones), COMMANDS (each visible command with
/// its usage, arguments, options and examples), ENVIRONMENT, EXIT STATUS, then the caller's
/// sections. The text has no date, so the page changes only when the commands do.
public enum ManualFormatter {
  /// The page for `root` and everything below it.
  public static func manual(
    root: CommandSpec, globalOptions: [OptionSpec], language: AppLanguage,
    programName: String, version: String, environment: [EnvironmentVariable] = [],
    sections: [ManualSection] = []
  ) -> String {
    var out: [String] = []
    let title = programName.uppercased()
    out.append(
      ".TH \(quoted(title)) 1 \"\" \(quoted("\(programName) \(version)")) "
        + quoted(CommandLineKitStrings.text("manual.title", language)))
    out.append(".SH \(quoted(CommandLineKitStrings.text("manual.name", language)))")
    out.append(line("\(programName) \\- \(root.abstract.resolve(language))", raw: true))
    out.append(".SH \(quoted(CommandLineKitStrings.text("manual.synopsis", language)))")
    out.append(".B \(programName)")
    out.append(line("[\\fIoptions\\fR] \\fIcommand\\fR [\\fIarguments\\fR]", raw: true))
    if let discussion = root.discussion?.resolve(language), !discussion.isEmpty {
      out.append(".SH \(quoted(CommandLineKitStrings.text("manual.description", language)))")
      out += paragraphs(discussion)
    }
    out.append(".SH \(quoted(CommandLineKitStrings.text("manual.options", language)))")
    for option in globalOptions where !option.isHidden {
      out += optionItem(option, language)
    }
    out.append(".SH \(quoted(CommandLineKitStrings.text("manual.commands", language)))")
    for (path, command) in root.descendants(includingHidden: false) {
      out += commandEntry(command, path: path, language: language, programName: programName)
    }
    if !environment.isEmpty {
      out.append(".SH \(quoted(CommandLineKitStrings.text("manual.environment", language)))")
      for variable in environment {
        out.append(".TP")
        out.append(".B \(escape(variable.name))")
        out.append(line(variable.help.resolve(language)))
      }
    }
    out.append(".SH \(quoted(CommandLineKitStrings.text("manual.exitStatus", language)))")
    for (code, key) in [("0", "manual.exit0"), ("1", "manual.exit1"), ("64", "manual.exit64")] {
      out.append(".TP")
      out.append(".B \(code)")
      out.append(line(CommandLineKitStrings.text(key, language)))
    }
    for section in sections {
      out.append(".SH \(quoted(section.title.resolve(language)))")
      out += paragraphs(section.body.resolve(language))
    }
    return out.joined(separator: "\n") + "\n"
  }

  private static func commandEntry(
    _ command: CommandSpec, path: [String], language: AppLanguage, programName: String
  ) -> [String] {
    var out: [String] = []
    let commandLine = ([programName] + path).joined(separator: " ")
    out.append(".SS \(quoted(commandLine))")
    out.append(line(command.abstract.resolve(language)))
    if !command.aliases.isEmpty {
      out.append(
        line(
          CommandLineKitStrings.text(
            "manual.aliases", language, ["aliases": command.aliases.joined(separator: ", ")]))
      )
    }
    if let discussion = command.discussion?.resolve(language), !discussion.isEmpty {
      out += paragraphs(discussion)
    }
    out.append(".PP")
    out.append(".nf")
    out.append(
      line(
        "\\fB\(escape(commandLine))\\fR "
          + escape(HelpFormatter.usageTokens(command).joined(separator: " ")), raw: true))
    out.append(".fi")
    for argument in command.arguments {
      out.append(".TP")
      out.append(line("\\fI\(escape(argument.label))\\fR", raw: true))
      out.append(line(argument.help.resolve(language)))
    }
    for option in command.options where !option.isHidden {
      out += optionItem(option, language)
    }
    if let fallback = command.defaultSubcommand {
      out.append(".PP")
      out.append(
        line(CommandLineKitStrings.text("manual.defaultSubcommand", language, ["name": fallback])))
    }
    if !command.examples.isEmpty {
      out.append(".PP")
      out.append(line(CommandLineKitStrings.text("help.examples", language)))
      out.append(".RS")
      out.append(".nf")
      for example in command.examples {
        out.append(line(example))
      }
      out.append(".fi")
      out.append(".RE")
    }
    return out
  }

  private static func optionItem(_ option: OptionSpec, _ language: AppLanguage) -> [String] {
    var label = "\\fB\(escape("--\(option.name)"))\\fR"
    if let valueName = option.valueName {
      label += " \\fI\(escape(valueName))\\fR"
    }
    if let short = option.short {
      label = "\\fB\(escape("-\(short)"))\\fR, " + label
    }
    return [".TP", line(label, raw: true), line(HelpFormatter.optionHelp(option, language))]
  }

  private static func paragraphs(_ text: String) -> [String] {
    var out: [String] = []
    for paragraph in text.components(separatedBy: "\n\n") {
      let body = paragraph.split(separator: "\n").map { line(String($0)) }
      guard !body.isEmpty else { continue }
      out.append(".PP")
      out += body
    }
    return out
  }

  /// One text line: escaped (unless `raw`), and protected from being read as a request when
  /// it starts with `.` or `'`.
  private static func line(_ text: String, raw: Bool = false) -> String {
    let body = raw ? text : escape(text)
    if body.hasPrefix(".") || body.hasPrefix("'") { return "\\&" + body }
    return body
  }

  /// `text` with roff's special characters escaped: backslashes and minus signs.
  static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "\\": result += "\\e"
      case "-": result += "\\-"
      default: result.append(character)
      }
    }
    return result
  }

  private static func quoted(_ text: String) -> String {
    "\"" + escape(text).replacingOccurrences(of: "\"", with: "\\(dq") + "\""
  }
}
