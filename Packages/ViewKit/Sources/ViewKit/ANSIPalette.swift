import ThemeKit

/// Maps theme colours to the xterm 256-colour palette.
public enum ANSIPalette {
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
