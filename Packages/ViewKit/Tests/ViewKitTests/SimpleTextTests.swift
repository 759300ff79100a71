import Testing

@testable import ViewKit

/// The renderer's shortcuts for simple text (every scalar a character of its own) give the
/// same widths, cuts and lines as the general, character-by-character rules.
@Suite struct SimpleTextTests {
  /// The scalar rule as it reads without shortcuts: controls 0, marks and format characters
  /// 0, emoji presentation, regional indicators and East Asian Wide blocks 2, otherwise 1.
  static func referenceWidth(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if value < 0x7F { return 1 }
    if DisplayWidth.zeroWidth.contains(where: { $0.contains(value) }) { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if scalar.properties.isEmojiPresentation { return 2 }
    if DisplayWidth.isRegionalIndicator(scalar) { return 2 }
    if DisplayWidth.wide.contains(where: { $0.contains(value) }) { return 2 }
    return 1
  }

  /// Every scalar of the Basic Multilingual Plane and the emoji blocks (the shortcuts are all
  /// there).
  static var scalars: [Unicode.Scalar] {
    (Array(0...0xFFFF) + Array(0x1F000...0x1FAFF)).compactMap { Unicode.Scalar(UInt32($0)) }
  }

  @Test func scalarWidthsFollowTheUnicodeRule() {
    var mismatches: [String] = []
    for scalar in Self.scalars where DisplayWidth.width(of: scalar) != Self.referenceWidth(scalar) {
      mismatches.append(String(scalar.value, radix: 16))
    }
    #expect(mismatches.isEmpty, "U+\(mismatches.prefix(20).joined(separator: ", U+"))")
  }

  @Test func simpleScalarWidthsAreTheWidthsOfScalarsThatStandAlone() {
    var mismatches: [String] = []
    for scalar in Self.scalars {
      let expected = DisplayWidth.standsAlone(scalar.value) ? DisplayWidth.width(of: scalar) : nil
      if DisplayWidth.simpleWidth(of: scalar) != expected {
        mismatches.append(String(scalar.value, radix: 16))
      }
    }
    #expect(mismatches.isEmpty, "U+\(mismatches.prefix(20).joined(separator: ", U+"))")
  }

  @Test func everyScalarThatStandsAloneIsACharacterOfItsOwn() {
    var joining: [String] = []
    for scalar in Self.scalars where DisplayWidth.standsAlone(scalar.value) {
      let alone = String(scalar)
      // Joins a preceding letter: a mark, a joiner. Joins a following one: a prepended mark.
      // Joins itself: Hangul jamo, regional indicators.
      if ("a" + alone + "a").count != 3 || (alone + alone).count != 2
        || ("中" + alone + "😀").count != 3
      {
        joining.append(String(scalar.value, radix: 16))
      }
    }
    #expect(joining.isEmpty, "U+\(joining.prefix(20).joined(separator: ", U+"))")
  }

  static let samples = [
    "", "hello", "Online · connection refused", "仓库路由器", "中国联通 40%", "46°C", "—",
    "Your code is ••••••, val…", "📶 Roof unit 8", "Büro Köln LTE", "한국어", "ｗｉｄｅ",
    "e\u{301}", "👨‍👩‍👧 family", "🇨🇳🇺🇸", "❤️", "\u{1B}[1;31mred\u{1B}[0m", "a\u{200B}b", "tab\there",
    "line\nbreak", "soft\u{AD}hyphen", "か\u{3099}", "👍🏽", "─────", "↓ 10086", "。，",
  ]

  @Test(arguments: samples)
  func simpleWidthIsTheCharacterWidthOrNothing(text: String) {
    let general = DisplayWidth.clusterWidth(text)
    if let simple = DisplayWidth.simpleWidth(text) {
      #expect(simple == general)
    }
    #expect(DisplayWidth.of(text) == general)
  }

  @Test func textThatMayJoinOrHoldsControlsIsNotSimple() {
    for text in [
      "e\u{301}", "👨‍👩‍👧", "🇨🇳", "❤️", "\u{1B}[0m", "a\u{200B}b", "tab\t", "a\nb", "か\u{3099}",
      "👍🏽",
    ] {
      #expect(DisplayWidth.simpleWidth(text) == nil, "\(text.debugDescription)")
    }
    for text in ["", "hello", "中国联通 40%", "46°C", "Online · refused", "📶", "한국어", "↓"] {
      #expect(DisplayWidth.simpleWidth(text) != nil, "\(text)")
    }
  }

  /// Simple text built from a fixed pool of scalars by a fixed pseudo-random sequence.
  static func simpleTexts(count: Int) -> [String] {
    let pool = Array("abc xyz  12·—°…•─中国联通仓库한국ｗ📶😀é")
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    return (0..<count).map { _ in String((0..<next(40)).map { _ in pool[next(pool.count)] }) }
  }

  @Test func simpleCutsAreTheCharacterCuts() {
    for text in Self.simpleTexts(count: 400) {
      #expect(DisplayWidth.isSimple(text))
      for width in 2...12 {
        for mode in Truncation.allCases {
          #expect(
            DisplayWidth.shortenedSimple(text.unicodeScalars, to: width, mode: mode)
              == DisplayWidth.shortenedByCharacter(text, to: width, mode: mode),
            "\(text) \(width) \(mode)")
        }
      }
    }
  }

  @Test func simpleWrappingIsTheCharacterWrapping() {
    for text in Self.simpleTexts(count: 400) {
      for width in [1, 2, 3, 5, 8, 13] {
        #expect(
          DisplayWidth.wrapSimpleParagraph(text[...], width: width)
            == DisplayWidth.wrapParagraphByCharacter(text[...], width: width),
          "\(text) \(width)")
      }
    }
  }

  @Test func textThatFitsWrapsToItself() {
    #expect(DisplayWidth.isUnchangedByWrapping("Shop router · 2 min ago", width: 23))
    #expect(DisplayWidth.isUnchangedByWrapping("中国联通", width: 8))
    #expect(!DisplayWidth.isUnchangedByWrapping("中国联通", width: 7))
    #expect(!DisplayWidth.isUnchangedByWrapping(" leading", width: 20))
    #expect(!DisplayWidth.isUnchangedByWrapping("trailing ", width: 20))
    #expect(!DisplayWidth.isUnchangedByWrapping("two  spaces", width: 20))
    #expect(!DisplayWidth.isUnchangedByWrapping("one\ntwo", width: 20))
    #expect(!DisplayWidth.isUnchangedByWrapping("", width: 20))
    for text in Self.simpleTexts(count: 400) + Self.samples {
      for width in [4, 10, 40] where DisplayWidth.isUnchangedByWrapping(text, width: width) {
        #expect(
          DisplayWidth.wrapParagraphByCharacter(text[...], width: width) == [text], "\(text)")
      }
    }
  }

  @Test func lineWidthIsTheWidthOfItsJoinedText() {
    let lines = [
      StyledLine([Span("Shop router"), Span("  "), Span("中国联通 40%", .tone("x"))]),
      StyledLine([Span("e"), Span("\u{301}")]),
      StyledLine([Span("🇨"), Span("🇳")]),
      StyledLine([Span("\u{1B}[1"), Span("m bold")]),
      StyledLine([Span("👍"), Span("🏽"), Span(" ok")]),
      StyledLine(),
    ]
    for line in lines {
      #expect(line.width == DisplayWidth.of(line.plain), "\(line.plain.debugDescription)")
    }
  }

  @Test func blankAndTrimmedLinesAreFoundByTheirSpaces() {
    #expect(StyledLine().isBlank)
    #expect(StyledLine([Span("  "), Span(" ")]).isBlank)
    #expect(!StyledLine([Span("  "), Span("\u{301}")]).isBlank)
    let line = StyledLine([Span("a", .tone("x")), Span("  ")])
    #expect(line.trimmed() == StyledLine([Span("a", .tone("x"))]))
    let unpadded = StyledLine([Span("a "), Span("b")])
    #expect(unpadded.trimmed() == unpadded)
  }

  @Test func tableMeasuresEveryCellOnce() {
    let table = Table(
      columns: [TableColumn(id: "a", title: "名前"), TableColumn(id: "b", title: "Status")],
      rows: [
        TableRow(id: "1", cells: ["Shop router", TableCell("Online", tone: .success)]),
        TableRow(id: "2", cells: ["仓库路由器"]),
        TableRow(id: "3", cells: ["👨‍👩‍👧", "e\u{301}"]),
      ])
    let widths = TableLayout.CellWidths(table)
    #expect(widths.titles.map(\.width) == [4, 6])
    #expect(widths.cells.map(\.width) == [11, 6, 10, 0, 2, 1])
    #expect(widths.cells.map(\.isSimple) == [true, true, true, true, false, false])
    #expect(widths.cell(1, 0).width == 10)
  }

  @Test(arguments: [12, 20, 30, 44, 80])
  func tableSpansCarryTheirOwnWidths(width: Int) {
    let table = Table(
      columns: [
        TableColumn(id: "name", title: "Name", minWidth: 4, maxWidth: 12),
        TableColumn(id: "addr", title: "地址", minWidth: 6, priority: 1, truncation: .middle),
        TableColumn(id: "n", title: "N", minWidth: 3, alignment: .trailing),
        TableColumn(id: "note", title: "Note", minWidth: 4, priority: -1),
      ],
      rows: [
        TableRow(id: "1", cells: ["Shop router", "http://192.168.1.1:3000", "46°C", "—"]),
        TableRow(id: "2", cells: ["仓库路由器仓库路由器", "https://wh.example.com", "7", "验证码 ••••••"]),
        TableRow(id: "3", cells: ["👨‍👩‍👧 family", "e\u{301}e\u{301}", "🇨🇳", "📶📶📶📶📶📶📶"]),
        TableRow(id: "4", cells: ["short"]),
      ], selectedID: "2", markedIDs: ["3"])
    let lines = TableLayout(table: table, layout: Layout(language: .english)).lines(width: width)
    for line in lines {
      for span in line.spans {
        #expect(span.simpleWidth == DisplayWidth.simpleWidth(span.text), "\(span.text)")
      }
      #expect(line.width == DisplayWidth.of(line.plain), "\(line.plain)")
    }
  }

  @Test func spansMeasureTheirText() {
    #expect(Span("中国联通 40%").simpleWidth == 12)
    #expect(Span("e\u{301}").simpleWidth == nil)
    #expect(Span("", .plain).simpleWidth == 0)
    let trimmed = StyledLine([Span("a"), Span("中  ")]).trimmed()
    #expect(trimmed.spans.map(\.simpleWidth) == [1, 2])
  }

  @Test func painterReusesAStyleSequence() {
    var painter = Painter(options: RenderOptions(colorMode: .ansi256))
    let line = StyledLine([
      Span("ok", .tone("semantic.success", bold: true)), Span(" "),
      Span("ok", .tone("semantic.success", bold: true)),
    ])
    var first = ""
    painter.paint(line, into: &first)
    var second = ""
    painter.paint(line, into: &second)
    #expect(first == second)
    let opening = painter.opening(.tone("semantic.success", bold: true))
    #expect(opening.hasPrefix("\u{1B}[1;38;5;"))
    #expect(first == opening + "ok\u{1B}[0m " + opening + "ok\u{1B}[0m")
    #expect(painter.opening(.plain) == "")
  }
}
