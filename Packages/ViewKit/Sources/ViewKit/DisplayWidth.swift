/// Terminal column widths of text, and fitting text into columns.
///
/// A character (grapheme cluster) is 2 columns when it is East Asian Wide or Fullwidth (CJK
/// ideographs, Hangul, kana, fullwidth forms, CJK punctuation) or an emoji shown as emoji
/// (emoji presentation, a variation selector 16, a ZWJ sequence or a flag); 0 for controls,
/// zero-width characters and lone combining marks; otherwise 1. ANSI escape sequences measure 0.
public enum DisplayWidth {
  /// The ellipsis that marks shortened text (1 column).
  public static let ellipsis: Character = "…"

  /// Columns `string` occupies in a terminal.
  public static func of(_ string: String) -> Int {
    var total = 0
    var escaping = false
    for character in string {
      if escaping {
        // An SGR/CSI sequence ends with a letter.
        if character.isLetter { escaping = false }
        continue
      }
      if character == "\u{1B}" {
        escaping = true
        continue
      }
      total += of(character)
    }
    return total
  }

  /// Columns one character occupies: 0, 1 or 2.
  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.count > 1 {
      if scalars.contains(where: { $0.value == 0x200D }) { return 2 }  // ZWJ sequence
      if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
      if isRegionalIndicator(first) { return 2 }  // flag
    }
    return width(of: first)
  }

  /// Width of a single scalar, ignoring what follows it.
  static func width(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if value < 0x7F { return 1 }  // printable ASCII: skips the Unicode property lookups
    if zeroWidth.contains(where: { $0.contains(value) }) { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if scalar.properties.isEmojiPresentation { return 2 }
    if isRegionalIndicator(scalar) { return 2 }
    if wide.contains(where: { $0.contains(value) }) { return 2 }
    return 1
  }

  /// A CJK-style wide character (not an emoji): lines may break on either side of it.
  static func isWideText(_ character: Character) -> Bool {
    guard let first = character.unicodeScalars.first else { return false }
    return wide.contains { $0.contains(first.value) }
  }

  static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
    (0x1F1E6...0x1F1FF).contains(scalar.value)
  }

  static let zeroWidth: [ClosedRange<UInt32>] = [
    0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0xFE00...0xFE0F, 0xFEFF...0xFEFF,
  ]

  /// East Asian Wide (W) and Fullwidth (F) blocks.
  static let wide: [ClosedRange<UInt32>] = [
    0x1100...0x115F,  // Hangul Jamo initials
    0x2E80...0x303E,  // CJK radicals, Kangxi, CJK symbols and punctuation
    0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility, CJK compatibility
    0x3400...0x4DBF,  // CJK Extension A
    0x4E00...0x9FFF,  // CJK Unified Ideographs
    0xA000...0xA4CF,  // Yi
    0xA960...0xA97F,  // Hangul Jamo Extended-A
    0xAC00...0xD7A3,  // Hangul syllables
    0xF900...0xFAFF,  // CJK compatibility ideographs
    0xFE10...0xFE19,  // vertical forms
    0xFE30...0xFE6F,  // CJK compatibility forms, small forms
    0xFF00...0xFF60,  // fullwidth forms
    0xFFE0...0xFFE6,  // fullwidth signs
    0x1F200...0x1F2FF,  // enclosed ideographic supplement
    0x20000...0x2FFFD,  // CJK Extensions B–F
    0x30000...0x3FFFD,  // CJK Extension G and beyond
  ]

  // MARK: - Fitting

  /// `string` shortened to at most `width` columns, with "…" (counted 1) marking the cut.
  ///
  /// `.tail` keeps the start, `.middle` keeps both ends. Text that fits is returned as is.
  public static func truncate(_ string: String, to width: Int, mode: Truncation = .tail)
    -> String
  {
    guard of(string) > width else { return string }
    guard width > 1 else { return width == 1 ? String(ellipsis) : "" }
    let characters = Array(string)
    switch mode {
    case .tail:
      return prefix(characters, width - 1) + String(ellipsis)
    case .middle:
      let budget = width - 1
      let head = prefix(characters, (budget + 1) / 2)
      let tail = suffix(characters, budget - of(head))
      return head + String(ellipsis) + tail
    }
  }

  static func prefix(_ characters: [Character], _ width: Int) -> String {
    var result = ""
    var used = 0
    for character in characters {
      let columns = of(character)
      if used + columns > width { break }
      result.append(character)
      used += columns
    }
    return result
  }

  static func suffix(_ characters: [Character], _ width: Int) -> String {
    var result: [Character] = []
    var used = 0
    for character in characters.reversed() {
      let columns = of(character)
      if used + columns > width { break }
      result.append(character)
      used += columns
    }
    return String(result.reversed())
  }

  /// `string` padded with spaces to `width` columns (never shortened).
  public static func pad(_ string: String, to width: Int, alignment: TableAlignment = .leading)
    -> String
  {
    let missing = max(0, width - of(string))
    let spaces = String(repeating: " ", count: missing)
    return alignment == .leading ? string + spaces : spaces + string
  }

  // MARK: - Wrapping

  /// Lines of at most `width` columns: words wrap at spaces, CJK text breaks between any two
  /// wide characters, a word longer than the width is cut, and `\n` starts a new line.
  /// Runs of spaces collapse to one; no line starts or ends with a space.
  public static func wrap(_ string: String, width: Int) -> [String] {
    let width = max(1, width)
    var lines: [String] = []
    for paragraph in string.split(separator: "\n", omittingEmptySubsequences: false) {
      lines += wrapParagraph(Substring(paragraph), width: width)
    }
    return lines
  }

  static func wrapParagraph(_ paragraph: Substring, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    var used = 0
    var pendingSpace = false

    func place(_ unit: String) {
      let columns = of(unit)
      let needed = columns + (pendingSpace && used > 0 ? 1 : 0)
      if used + needed <= width {
        if pendingSpace && used > 0 {
          line += " "
          used += 1
        }
      } else if used > 0 {
        lines.append(line)
        line = ""
        used = 0
      }
      pendingSpace = false
      if columns <= width - used {
        line += unit
        used += columns
        return
      }
      // A word wider than the whole line: cut it into line-sized pieces.
      for character in unit {
        var piece = String(character)
        var columnsOfPiece = of(character)
        if columnsOfPiece > width {
          piece = truncate(piece, to: width)
          columnsOfPiece = of(piece)
        }
        if used + columnsOfPiece > width {
          lines.append(line)
          line = ""
          used = 0
        }
        line += piece
        used += columnsOfPiece
      }
    }

    var word = ""
    for character in paragraph {
      if character == " " || character == "\t" {
        if !word.isEmpty {
          place(word)
          word = ""
        }
        pendingSpace = true
      } else if isWideText(character) {
        // Wide CJK: a break is allowed before and after each character.
        if !word.isEmpty {
          place(word)
          word = ""
        }
        place(String(character))
      } else {
        word.append(character)
      }
    }
    if !word.isEmpty { place(word) }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}
