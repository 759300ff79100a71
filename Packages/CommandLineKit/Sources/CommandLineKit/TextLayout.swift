/// Measures and wraps help text in terminal columns (CJK characters and emoji take two).
enum TextLayout {
  /// The number of terminal columns `text` takes.
  static func width(_ text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + width(of: $1) }
  }

  /// The number of terminal columns one character takes: 2 for East Asian wide characters and
  /// emoji, 0 for controls, 1 otherwise.
  static func width(of character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 0 }
    let value = scalar.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if character.unicodeScalars.count > 1, scalar.properties.isEmoji,
      character.unicodeScalars.contains(where: { $0.value == 0xFE0F })
    {
      return 2
    }
    if scalar.properties.isEmojiPresentation { return 2 }
    for range in wideRanges where range.contains(value) { return 2 }
    return 1
  }

  static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x20000...0x3FFFD,
  ]

  /// `text` broken into lines no wider than `width` columns: at spaces, between wide
  /// characters, and inside words longer than a line. Newlines in `text` are kept.
  static func wrap(_ text: String, width: Int) -> [String] {
    let limit = max(1, width)
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lines += wrapParagraph(paragraph, width: limit)
    }
    return lines
  }

  private struct Piece {
    var text: String
    var spaceBefore: Bool
  }

  private static func pieces(_ paragraph: Substring) -> [Piece] {
    var result: [Piece] = []
    var word = ""
    var wordSpaced = false
    var sawSpace = false
    func flushWord() {
      if !word.isEmpty { result.append(Piece(text: word, spaceBefore: wordSpaced)) }
      word = ""
    }
    for character in paragraph {
      if character == " " {
        flushWord()
        sawSpace = true
      } else if width(of: character) == 2 {
        // Each wide character is its own piece: lines may break on either side of it.
        flushWord()
        result.append(Piece(text: String(character), spaceBefore: sawSpace))
        sawSpace = false
      } else {
        if word.isEmpty {
          wordSpaced = sawSpace
          sawSpace = false
        }
        word.append(character)
      }
    }
    flushWord()
    return result
  }

  private static func wrapParagraph(_ paragraph: Substring, width limit: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    for piece in pieces(paragraph) {
      let pieceWidth = width(piece.text)
      let gap = piece.spaceBefore && !line.isEmpty ? 1 : 0
      if !line.isEmpty && lineWidth + gap + pieceWidth <= limit {
        line += (gap == 1 ? " " : "") + piece.text
        lineWidth += gap + pieceWidth
        continue
      }
      if !line.isEmpty {
        lines.append(line)
        line = ""
        lineWidth = 0
      }
      // Hard-split a piece wider than a whole line.
      for character in piece.text {
        let characterWidth = width(of: character)
        if lineWidth + characterWidth > limit && !line.isEmpty {
          lines.append(line)
          line = ""
          lineWidth = 0
        }
        line.append(character)
        lineWidth += characterWidth
      }
    }
    lines.append(line)
    return lines
  }
}
