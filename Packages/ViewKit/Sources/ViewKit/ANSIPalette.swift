import ThemeKit

/// The one place that writes ANSI colour: SGR sequences for a theme colour in each
/// ``ColorMode`` (24-bit, or the nearest of the xterm 256-colour palette), the reset, and
/// stripping them again. The view renderer and the console's chrome both draw through it.
public enum ANSIPalette {
  /// The SGR reset: plain text from here on.
  public static let reset = "\u{1B}[0m"

  /// The SGR sequence that starts text in `color` (bold, italic, reversed as asked) in
  /// `mode`; "" when that draws as plain text (nothing asked for, or colour off).
  public static func opening(
    color: RGBColor?, bold: Bool = false, italic: Bool = false, reverse: Bool = false,
    mode: ColorMode
  ) -> String {
    guard mode != .off else { return "" }
    var codes: [String] = []
    if bold { codes.append("1") }
    if italic { codes.append("3") }
    if reverse { codes.append("7") }
    if let color {
      switch mode {
      case .truecolor: codes.append("38;2;\(color.r);\(color.g);\(color.b)")
      case .ansi256: codes.append("38;5;\(nearestIndex(to: color))")
      case .off: break
      }
    }
    return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
  }

  /// `text` between ``opening(color:bold:italic:reverse:mode:)`` and ``reset``; `text` alone
  /// when it is empty or the style draws as plain text.
  public static func painted(
    _ text: String, color: RGBColor?, bold: Bool = false, reverse: Bool = false, mode: ColorMode
  ) -> String {
    let opening = opening(color: color, bold: bold, reverse: reverse, mode: mode)
    return text.isEmpty || opening.isEmpty ? text : opening + text + reset
  }

  /// `text` without its escape sequences (ESC, then up to a final byte other than `[`).
  public static func strip(_ text: String) -> String {
    guard text.contains("\u{1B}") else { return text }
    var result = ""
    var inEscape = false
    for scalar in text.unicodeScalars {
      if inEscape {
        if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
      } else if scalar == "\u{1B}" {
        inEscape = true
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// The index (16–255) of the xterm colour nearest to `color`.
  ///
  /// Indices 0–15 are left out because terminals restyle them; the 6×6×6 cube (16–231) and the
  /// grey ramp (232–255) have fixed values.
  public static func nearestIndex(to color: RGBColor) -> Int {
    var best = 16
    var bestDistance = Int.max
    for (offset, candidate) in palette.enumerated() {
      let dr = Int(candidate.r) - Int(color.r)
      let dg = Int(candidate.g) - Int(color.g)
      let db = Int(candidate.b) - Int(color.b)
      let distance = dr * dr + dg * dg + db * db
      if distance < bestDistance {
        bestDistance = distance
        best = offset + 16
      }
    }
    return best
  }

  /// The colour of xterm index `index` (16–255).
  public static func color(at index: Int) -> RGBColor? {
    guard (16...255).contains(index) else { return nil }
    return palette[index - 16]
  }

  static let levels: [UInt8] = [0, 95, 135, 175, 215, 255]

  static let palette: [RGBColor] = {
    var colors: [RGBColor] = []
    for red in levels {
      for green in levels {
        for blue in levels { colors.append(RGBColor(r: red, g: green, b: blue)) }
      }
    }
    for step in 0..<24 {
      let grey = UInt8(8 + step * 10)
      colors.append(RGBColor(r: grey, g: grey, b: grey))
    }
    return colors
  }()
}
