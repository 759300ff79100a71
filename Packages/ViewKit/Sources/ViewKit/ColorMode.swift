/// How text output is coloured.
public enum ColorMode: String, Codable, Sendable, CaseIterable {
  /// Plain text: the output never contains ESC.
  case off
  /// The xterm 256-colour palette (`38;5;n`), nearest to the theme's colours.
  case ansi256
  /// 24-bit colour (`38;2;r;g;b`), the theme's exact colours.
  case truecolor

  /// The mode for an output stream. A flag beats the environment: `--color always` colours
  /// (even piped or with `TERM=dumb`), `--color never` or `--no-color` does not. With `auto`:
  /// off when `NO_COLOR` is set to a non-empty value (no-color.org); on when `CLICOLOR_FORCE`
  /// is set and not `0`, even piped; otherwise off when the stream is not a terminal or
  /// `TERM=dumb`. When on: truecolor when `COLORTERM` is `truecolor` or `24bit`, else 256
  /// colours.
  public static func detect(
    environment: [String: String], isTerminal: Bool, choice: ColorChoice
  ) -> ColorMode {
    let depth: ColorMode =
      switch environment["COLORTERM"]?.lowercased() {
      case "truecolor", "24bit": .truecolor
      default: .ansi256
      }
    switch choice {
    case .never: return .off
    case .always: return depth
    case .auto:
      if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .off }
      if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return depth }
      if !isTerminal || environment["TERM"]?.lowercased() == "dumb" { return .off }
      return depth
    }
  }

  /// ``detect(environment:isTerminal:choice:)`` with `--no-color` as the only flag.
  public static func detect(
    environment: [String: String], isTerminal: Bool, noColorFlag: Bool
  ) -> ColorMode {
    detect(environment: environment, isTerminal: isTerminal, choice: noColorFlag ? .never : .auto)
  }
}

/// What `--color` asked for.
public enum ColorChoice: String, Sendable, CaseIterable {
  /// Decide from the environment and the terminal.
  case auto
  /// Colour even when piped.
  case always
  /// Never colour.
  case never
}
