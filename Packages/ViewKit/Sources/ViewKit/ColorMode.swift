/// Whether and how the text renderer colours its output.
public enum ColorMode: String, Codable, Sendable, CaseIterable {
  /// Plain text: the output never contains ESC.
  case off
  /// The xterm 256-colour palette (`38;5;n`), nearest to the theme's colours.
  case ansi256
  /// 24-bit colour (`38;2;r;g;b`), the theme's exact colours.
  case truecolor

  /// The mode for an output stream: off when `NO_COLOR` is set (to anything, even empty),
  /// when `TERM=dumb`, when the stream is not a terminal, or when `--no-color` was given;
  /// truecolor when `COLORTERM` is `truecolor` or `24bit`; otherwise 256 colours.
  public static func detect(
    environment: [String: String], isTerminal: Bool, noColorFlag: Bool
  ) -> ColorMode {
    if noColorFlag || !isTerminal || environment["NO_COLOR"] != nil { return .off }
    if environment["TERM"]?.lowercased() == "dumb" { return .off }
    switch environment["COLORTERM"]?.lowercased() {
    case "truecolor", "24bit": return .truecolor
    default: return .ansi256
    }
  }
}
