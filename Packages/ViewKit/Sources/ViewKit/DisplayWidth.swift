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
    simpleWidth(string) ?? clusterWidth(string)
  }

  /// The general measure: character by character (grapheme clusters), skipping escape
  /// sequences.
  static func clusterWidth<S: StringProtocol>(_ string: S) -> Int {
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

  // MARK: - Simple text

  /// The width of `string` when every scalar in it is a character of its own (see
  /// ``standsAlone(_:)``): then it is the sum of the scalars' widths, found without grapheme
  /// breaking, and equal to ``clusterWidth(_:)``. `nil` when a scalar may join a neighbour
  /// or is a control (ESC included), so that only the general measure is exact.
  static func simpleWidth<S: StringProtocol>(_ string: S) -> Int? {
    // Printable ASCII, the usual case, is one column a byte.
    if let width = asciiWidth(string) { return width }
    var total = 0
    for scalar in string.unicodeScalars {
      guard let columns = simpleWidth(of: scalar) else { return nil }
      total += columns
    }
    return total
  }

  /// The width of `string` when it is printable ASCII (then each byte is a character of one
  /// column), else `nil`. Only looks at contiguous UTF-8 (every native string); `nil` for
  /// other storage, which the callers then measure scalar by scalar.
  @inline(__always)
  static func asciiWidth<S: StringProtocol>(_ string: S) -> Int? {
    let ascii = string.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
      for byte in bytes where byte < 0x20 || byte >= 0x7F { return nil }
      return bytes.count
    }
    return ascii ?? nil
  }

  /// The width of `scalar` if it stands alone (``standsAlone(_:)``), else `nil`; the most
  /// common blocks first, without the Unicode property look-ups.
  @inline(__always)
  static func simpleWidth(of scalar: Unicode.Scalar) -> Int? {
    switch scalar.value {
    case 0x20..<0x7F, 0xA0...0xAC, 0xAE...0x2FF: return 1
    case 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x21FF, 0x2500...0x259F: return 1
    case 0x3000...0x3029, 0x3030...0x303E, 0x3041...0x3096, 0x309B...0x30FF: return 2
    case 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF60: return 2
    case let value: return standsAlone(value) ? width(of: scalar) : nil
    }
  }

  /// Whether `string` is simple text: every scalar a character of its own, no controls.
  static func isSimple<S: StringProtocol>(_ string: S) -> Bool {
    simpleWidth(string) != nil
  }

  /// Whether the scalar `value` is always a grapheme cluster of its own between two such
  /// scalars: printable and of Grapheme_Cluster_Break "Other" (no combining mark, joiner,
  /// variation selector, prepended mark, Hangul jamo, regional indicator or control), in the
  /// blocks that UI text mostly uses. Conservative: anything else takes the general path.
  static func standsAlone(_ value: UInt32) -> Bool {
    switch value {
    case 0x20..<0x7F, 0xA0...0xAC, 0xAE...0x2FF: true  // ASCII, Latin-1 (not soft hyphen), Latin
    case 0x2010...0x2027, 0x2030...0x205E: true  // general punctuation: dashes, quotes, "…"
    case 0x2070...0x20C0, 0x2100...0x2BFF: true  // super/subscripts, currency, symbols, arrows
    case 0x2E80...0x2FDF, 0x3000...0x3029, 0x3030...0x3096, 0x309B...0x33FF: true  // CJK, kana
    case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xF900...0xFAFF: true
    case 0xFF01...0xFF60, 0xFFE0...0xFFE6: true  // fullwidth forms
    case 0x1F300...0x1F3FA, 0x1F400...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF: true  // emoji
    default: false
    }
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
    // Blocks whose width is known without the Unicode property look-ups below (the result is
    // the same; the tests compare the two for every scalar).
    switch value {
    case 0x20..<0x7F: return 1  // printable ASCII
    case ..<0xA0: return 0  // C0 and C1 controls, DEL
    case 0xAD: return 0  // soft hyphen (a format character)
    case ..<0x300: return 1  // Latin-1 and Latin Extended: no mark, nothing wide
    case 0x2010...0x2027, 0x2030...0x205E: return 1  // punctuation: dashes, quotes, "•", "…"
    case 0x2190...0x21FF, 0x2500...0x259F: return 1  // arrows, box drawing, blocks
    case 0x3000...0x3029, 0x3030...0x303E, 0x3041...0x3096, 0x309B...0x30FF: return 2  // kana
    case 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF60: return 2  // CJK, Hangul, fullwidth
    default: break
    }
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
    return isWide(first)
  }

  /// Whether `scalar` is in the East Asian Wide or Fullwidth blocks.
  static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    wide.contains { $0.contains(scalar.value) }
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
    return shortened(string, to: width, mode: mode)
  }

  /// `string`, already known to be wider than `width`, shortened as
  /// ``truncate(_:to:mode:)`` does.
  static func shortened(_ string: String, to width: Int, mode: Truncation) -> String {
    guard width > 1 else { return width == 1 ? String(ellipsis) : "" }
    if isSimple(string) { return shortenedSimple(string.unicodeScalars, to: width, mode: mode) }
    return shortenedByCharacter(string, to: width, mode: mode)
  }

  /// ``shortened(_:to:mode:)`` for any text (`width` > 1), character by character.
  static func shortenedByCharacter(_ string: String, to width: Int, mode: Truncation) -> String {
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

  /// ``shortened(_:to:mode:)`` for simple text, whose characters are its scalars: the same
  /// cuts, made on the scalars.
  static func shortenedSimple(
    _ scalars: String.UnicodeScalarView, to width: Int, mode: Truncation
  ) -> String {
    let budget = width - 1
    switch mode {
    case .tail:
      var result = String(Substring(scalars[..<prefixEnd(scalars, budget).end]))
      result.append(ellipsis)
      return result
    case .middle:
      let head = prefixEnd(scalars, (budget + 1) / 2)
      let tailStart = suffixStart(scalars, budget - head.used)
      var result = String(Substring(scalars[..<head.end]))
      result.append(ellipsis)
      result.append(contentsOf: Substring(scalars[tailStart...]))
      return result
    }
  }

  /// Where the longest run of whole scalars from the start within `width` columns ends, and
  /// its width.
  static func prefixEnd(_ scalars: String.UnicodeScalarView, _ width: Int)
    -> (end: String.Index, used: Int)
  {
    var used = 0
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let columns = self.width(of: scalars[index])
      if used + columns > width { break }
      used += columns
      index = scalars.index(after: index)
    }
    return (index, used)
  }

  /// Where the longest run of whole scalars up to the end within `width` columns starts.
  static func suffixStart(_ scalars: String.UnicodeScalarView, _ width: Int) -> String.Index {
    var used = 0
    var start = scalars.endIndex
    while start > scalars.startIndex {
      let previous = scalars.index(before: start)
      let columns = self.width(of: scalars[previous])
      if used + columns > width { break }
      used += columns
      start = previous
    }
    return start
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
    pad(string, measured: of(string), to: width, alignment: alignment)
  }

  /// ``pad(_:to:alignment:)`` for a string already measured as `measured` columns wide.
  static func pad(
    _ string: String, measured: Int, to width: Int, alignment: TableAlignment = .leading
  ) -> String {
    let missing = max(0, width - measured)
    guard missing > 0 else { return string }
    let spaces = String(repeating: " ", count: missing)
    return alignment == .leading ? string + spaces : spaces + string
  }

  // MARK: - Wrapping

  /// Lines of at most `width` columns: words wrap at spaces, CJK text breaks between any two
  /// wide characters, a word longer than the width is cut, and `\n` starts a new line.
  /// Runs of spaces collapse to one; no line starts or ends with a space. Where the text has
  /// no space, no line begins with closing punctuation (`，。、；：！？）」』】》…`, `,.;:!?)]}`)
  /// or ends with opening punctuation (`（「『【《〈“`, `([{`) unless the pair is wider than a
  /// line (the kinsoku rule of Chinese and Japanese, UAX #14's in small).
  public static func wrap(_ string: String, width: Int) -> [String] {
    let width = max(1, width)
    if isUnchangedByWrapping(string, width: width) { return [string] }
    // Without a line feed there is a single paragraph (the split looks at characters).
    if !string.utf8.contains(0x0A) { return wrapParagraph(string[...], width: width) }
    var lines: [String] = []
    for paragraph in string.split(separator: "\n", omittingEmptySubsequences: false) {
      lines += wrapParagraph(Substring(paragraph), width: width)
    }
    return lines
  }

  /// Whether wrapping `string` to `width` gives it back as its one line: simple text (so no
  /// line break, tab or escape) that fits, with no space to drop (leading, trailing or a run).
  static func isUnchangedByWrapping(_ string: String, width: Int) -> Bool {
    var previous: UInt8 = 0x20  // so that a leading space counts as a run
    for byte in string.utf8 {
      if byte == 0x20 && previous == 0x20 { return false }
      previous = byte
    }
    guard previous != 0x20, let columns = simpleWidth(string) else { return false }
    return columns <= width
  }

  static func wrapParagraph(_ paragraph: Substring, width: Int) -> [String] {
    if asciiWidth(paragraph) != nil { return wrapASCIIParagraph(paragraph, width: width) }
    return isSimple(paragraph)
      ? wrapSimpleParagraph(paragraph, width: width)
      : wrapParagraphByCharacter(paragraph, width: width)
  }

  /// ``wrapParagraph(_:width:)`` for printable ASCII, a character a byte of one column: words
  /// are runs of bytes between spaces (no wide character, so no break inside a word). Each
  /// line is filled on its bytes and made a `String` once (the 1,000-name plain-HTTP banner
  /// is a hundred lines of a thousand words).
  static func wrapASCIIParagraph(_ paragraph: Substring, width: Int) -> [String] {
    let wrapped = paragraph.utf8.withContiguousStorageIfAvailable {
      wrapASCIIBytes($0, width: width)
    }
    return wrapped ?? wrapASCIIBytes(Array(paragraph.utf8), width: width)
  }

  /// ``wrapASCIIParagraph(_:width:)`` of the paragraph's bytes, as ``LineFiller`` fills it:
  /// a column a byte, so the columns used are the bytes of the line.
  private static func wrapASCIIBytes<Bytes: RandomAccessCollection<UInt8>>(
    _ bytes: Bytes, width: Int
  ) -> [String] where Bytes.Index == Int {
    var lines: [String] = []
    var line: [UInt8] = []
    line.reserveCapacity(width)
    var pendingSpace = false
    func flush() {
      lines.append(String(decoding: line, as: UTF8.self))
      line.removeAll(keepingCapacity: true)
    }
    func place(_ start: Int, _ end: Int) {
      let columns = end - start
      let space = pendingSpace && !line.isEmpty
      if line.count + columns + (space ? 1 : 0) <= width {
        if space { line.append(0x20) }
      } else if !line.isEmpty {
        flush()
      }
      pendingSpace = false
      if columns <= width - line.count {
        line.append(contentsOf: bytes[start..<end])
        return
      }
      // A word wider than the whole line: cut into line-sized pieces.
      for index in start..<end {
        if line.count + 1 > width { flush() }
        line.append(bytes[index])
      }
    }
    var wordStart: Int?
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == 0x20 {
        if let start = wordStart {
          place(start, index)
          wordStart = nil
        }
        pendingSpace = true
      } else if wordStart == nil {
        wordStart = index
      }
      index += 1
    }
    if let start = wordStart { place(start, bytes.endIndex) }
    if !line.isEmpty || lines.isEmpty { flush() }
    return lines
  }

  /// ``wrapParagraph(_:width:)`` for simple text, whose characters are its scalars: words are
  /// runs of scalars, found without grapheme breaking.
  static func wrapSimpleParagraph(_ paragraph: Substring, width: Int) -> [String] {
    var filler = LineFiller(width: width)
    let scalars = paragraph.unicodeScalars
    var wordStart: String.Index?
    var wordColumns = 0
    func placeWord(endingAt end: String.Index) {
      guard let start = wordStart else { return }
      filler.place(Substring(scalars[start..<end]), columns: wordColumns)
      wordStart = nil
      wordColumns = 0
    }
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let scalar = scalars[index]
      if scalar == " " {
        placeWord(endingAt: index)
        filler.pendingSpace = true
      } else if isWide(scalar)
        && !(wordStart.map { isURL(scalars[$0..<index]) } ?? false && !isCJKPunctuation(scalar))
      {
        // Wide CJK: a break is allowed before and after each character, except inside an
        // address (`http://主机:3000`), which ends only at a space or CJK punctuation.
        placeWord(endingAt: index)
        filler.place(Substring(String(scalar)), columns: self.width(of: scalar))
      } else {
        if wordStart == nil { wordStart = index }
        wordColumns += self.width(of: scalar)
      }
      index = scalars.index(after: index)
    }
    placeWord(endingAt: scalars.endIndex)
    return filler.finish()
  }

  /// ``wrapParagraph(_:width:)`` for any text, character by character.
  static func wrapParagraphByCharacter(_ paragraph: Substring, width: Int) -> [String] {
    var filler = LineFiller(width: width)
    var word = ""
    for character in paragraph {
      if character == " " || character == "\t" {
        if !word.isEmpty {
          filler.place(word)
          word = ""
        }
        filler.pendingSpace = true
      } else if isWideText(character)
        && !(isURL(word.unicodeScalars[...])
          && !character.unicodeScalars.contains(where: isCJKPunctuation))
      {
        // Wide CJK: a break is allowed before and after each character (not in an address).
        if !word.isEmpty {
          filler.place(word)
          word = ""
        }
        filler.place(String(character))
      } else {
        word.append(character)
      }
    }
    if !word.isEmpty { filler.place(word) }
    return filler.finish()
  }

  /// Whether a word so far is an address (`scheme://…`), which no line break may split.
  static func isURL(_ word: Substring.UnicodeScalarView) -> Bool {
    var previous: (Unicode.Scalar, Unicode.Scalar) = (" ", " ")
    for scalar in word {
      if scalar == "/" && previous == (":", "/") { return true }
      previous = (previous.1, scalar)
    }
    return false
  }

  /// Full-width punctuation that ends an address written inside Chinese text.
  static func isCJKPunctuation(_ scalar: Unicode.Scalar) -> Bool {
    (0x3000...0x303F).contains(scalar.value) || (0xFF01...0xFF0F).contains(scalar.value)
      || (0xFF1A...0xFF20).contains(scalar.value)
  }

  /// Punctuation that no line may begin with: full-width and CJK closing marks, the closing
  /// quotes, `…`, and their ASCII counterparts.
  static func isClosingPunctuation(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x21, 0x29, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x5D, 0x7D: true  // ! ) , . : ; ? ] }
    case 0x2019, 0x201D, 0x2025, 0x2026: true  // ’ ” ‥ …
    case 0x3001, 0x3002, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B:
      true  // 、。〉》」』】〕〗〙〛
    case 0xFF01, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF3D, 0xFF5D: true  // ！）…
    default: false
    }
  }

  /// Punctuation that no line may end with: full-width and CJK opening marks, the opening
  /// quotes, and their ASCII counterparts.
  static func isOpeningPunctuation(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x28, 0x5B, 0x7B, 0x2018, 0x201C: true  // ( [ { ‘ “
    case 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A: true  // 〈《「『【…
    case 0xFF08, 0xFF3B, 0xFF5B: true  // （ ［ ｛
    default: false
    }
  }

  /// Whether no line may break between two units that touch (no space between them).
  static func keepsTogether(_ previous: Substring, _ next: Substring) -> Bool {
    if let first = next.unicodeScalars.first, isClosingPunctuation(first) { return true }
    if let last = previous.unicodeScalars.last, isOpeningPunctuation(last) { return true }
    return false
  }

  /// The lines of one paragraph as they fill, unit (word or wide character) by unit.
  struct LineFiller {
    let width: Int
    var lines: [String] = []
    var line = ""
    var used = 0
    var pendingSpace = false
    /// The units placed last that no line break may separate (a word and the closing mark
    /// after it, an opening mark and what follows), held until the next unit may break
    /// from them; with the space before each.
    private var held: [(unit: Substring, columns: Int, spaced: Bool)] = []
    private var heldColumns = 0

    init(width: Int) {
      self.width = width
    }

    mutating func place(_ unit: String) {
      place(unit[...], columns: of(unit))
    }

    /// Places `unit`, which is `columns` wide, after the space pending if any.
    mutating func place(_ unit: Substring, columns: Int) {
      let spaced = pendingSpace
      pendingSpace = false
      if !spaced, let last = held.last, keepsTogether(last.unit, unit) {
        held.append((unit, columns, false))
        heldColumns += columns
        return
      }
      release()
      held.append((unit, columns, spaced))
      heldColumns = columns
    }

    /// Lays out the held units: together when they fit on a line, else one by one.
    private mutating func release() {
      guard let first = held.first else { return }
      if held.count == 1 {
        lay(first.unit, columns: first.columns, spaced: first.spaced)
      } else if heldColumns <= width {
        var joined = ""
        for part in held { joined += part.unit }
        lay(joined[...], columns: heldColumns, spaced: first.spaced)
      } else {
        for part in held { lay(part.unit, columns: part.columns, spaced: part.spaced) }
      }
      held.removeAll(keepingCapacity: true)
      heldColumns = 0
    }

    /// Puts `unit` (`columns` wide) on the line, after a space when `spaced`, or on the next.
    private mutating func lay(_ unit: Substring, columns: Int, spaced: Bool) {
      let needed = columns + (spaced && used > 0 ? 1 : 0)
      if used + needed <= width {
        if spaced && used > 0 {
          line += " "
          used += 1
        }
      } else if used > 0 {
        lines.append(line)
        line = ""
        used = 0
      }
      if columns <= width - used {
        line.append(contentsOf: unit)
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

    /// The lines, the last one included (one empty line for an empty paragraph).
    mutating func finish() -> [String] {
      release()
      if !line.isEmpty || lines.isEmpty { lines.append(line) }
      return lines
    }
  }
}
