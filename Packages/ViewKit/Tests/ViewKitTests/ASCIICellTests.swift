import Essentials
import Testing

@testable import ViewKit

/// Table cells of printable ASCII are cut and padded on their bytes; every other cell goes
/// character by character. Both paths give the same text, width and output.
@Suite struct ASCIICellTests {
  /// ASCII at and around the column edges, and text that must take the general path: wide
  /// characters, combining marks, emoji sequences, controls (shown escaped), symbols.
  static let cells: [String] = [
    "", "a", "ab", "Shop router", "+8613800138000", "1.1.10", "46°C", "—", "2 min ago",
    "Offline · connection refused", "CHINA MOBILE 78%", "http://192.168.1.1:3000/api/health",
    String(repeating: "x", count: 7), String(repeating: "y", count: 8),
    String(repeating: "z", count: 9), String(repeating: "0123456789", count: 5),
    "  leading and trailing  ", "仓库路由器", "中国联通 40%", "验证码 123456 (有效期5分钟)", "e\u{301}cole",
    "cafe\u{301} au lait", "👨‍👩‍👧 family", "🇨🇳🇺🇸", "❤️ ok", "👍🏽", "📶📶📶📶📶📶📶", "ｗｉｄｅ",
    "bell\u{7}here", "tab\there", "line\nfeed", "\u{1B}[31mred\u{1B}[0m", "del\u{7F}", "nul\u{0}x",
    "Your code is ••••••, valid…",
  ]

  @Test func asciiCellsFitAsTheGeneralPathFitsThem() {
    for text in Self.cells {
      let measure = TableLayout.CellWidths.Measure(text)
      #expect(measure.isASCII == text.utf8.allSatisfy { (0x20..<0x7F).contains($0) }, "\(text)")
      for width in 0...40 {
        for truncation in Truncation.allCases {
          for alignment in TableAlignment.allCases {
            for isPadded in [false, true] {
              let slot = TableLayout.Slot(
                index: 0, width: width, alignment: alignment, truncation: truncation,
                isPadded: isPadded)
              let fast = slot.fit(text, measure)
              let general = slot.fitByCharacter(text, measure)
              #expect(
                fast.text == general.text && fast.simpleWidth == general.simpleWidth,
                "\(text.debugDescription) \(width) \(truncation) \(alignment) \(isPadded)")
            }
          }
        }
      }
    }
  }

  /// The byte screen for controls finds exactly what Essentials' scalar check finds: every
  /// scalar of the Basic Multilingual Plane and the emoji blocks, alone and between letters,
  /// with line feeds kept or not.
  @Test func controlsAreFoundOnTheBytesAsOnTheScalars() {
    var mismatches: [String] = []
    let scalars = (Array(0...0xFFFF) + Array(0x1F000...0x1FAFF)).compactMap {
      Unicode.Scalar(UInt32($0))
    }
    for scalar in scalars {
      for text in [String(scalar), "a\(scalar)b", "中\(scalar)", "\(scalar)\n"] {
        for lineFeeds in [UntrustedText.LineFeeds.symbol, .breakLines] {
          if NeutralisedText.dirty(text, lineFeeds)
            != UntrustedText.needsNeutralising(text, lineFeeds: lineFeeds)
          {
            mismatches.append(String(scalar.value, radix: 16))
          }
        }
      }
    }
    #expect(mismatches.isEmpty, "U+\(mismatches.prefix(20).joined(separator: ", U+"))")
  }

  /// ASCII paragraphs (runs of spaces, words longer than the line, an address) wrap on their
  /// bytes as they wrap character by character.
  @Test func asciiParagraphsWrapAsTheGeneralPathWrapsThem() {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let pool = Array("abc xyz  0123456789-,.:/")
    let texts =
      Self.cells.filter { $0.utf8.allSatisfy { (0x20..<0x7F).contains($0) } }
      + ["bench-0001, bench-0002, bench-0003", " x ", "   ", "http://h:1/a b"]
      + (0..<300).map { _ in String((0..<next(90)).map { _ in pool[next(pool.count)] }) }
    for text in texts {
      for width in [1, 2, 3, 5, 8, 13, 40, 118] {
        #expect(
          DisplayWidth.wrapASCIIParagraph(text[...], width: width)
            == DisplayWidth.wrapParagraphByCharacter(text[...], width: width),
          "\(text.debugDescription) \(width)")
      }
    }
  }

  /// Tables of every sample cell, each column with its own bounds, alignment and truncation,
  /// a selected and a marked row: the same output whichever path fits the cells.
  static func table(rotation: Int) -> Table {
    let columns = [
      TableColumn(id: "a", title: "Name", minWidth: 4, maxWidth: 8, priority: 9, sizing: .whole),
      TableColumn(id: "b", title: "状态", minWidth: 6, maxWidth: 12, priority: 8),
      TableColumn(
        id: "c", title: "Address", minWidth: 8, maxWidth: 20, priority: 5, truncation: .middle),
      TableColumn(id: "d", title: "N", minWidth: 3, maxWidth: 5, priority: 4, alignment: .trailing),
      TableColumn(id: "e", title: "Version", minWidth: 7, maxWidth: 9, priority: 3),
      TableColumn(id: "f", title: "Note", minWidth: 10, priority: 1, sizing: .fill),
    ]
    let rows = Self.cells.indices.map { row in
      TableRow(
        id: "r\(row)",
        cells: columns.indices.map { column in
          TableCell(
            Self.cells[(row + column * rotation) % Self.cells.count],
            tone: column == 1 ? .success : nil)
        })
    }
    return Table(columns: columns, rows: rows, selectedID: "r3", markedIDs: ["r5", "r8"])
  }

  /// Without colour a row of simple cells is written as one span (``Layout/writesPlainRows``);
  /// rows with a cell that is not simple text (and the marked, selected rows) take the
  /// general path: every width, from cutting most columns to none.
  @Test(arguments: [8, 30, 50, 80, 120, 200])
  func tablesRenderTheSameOnEitherPath(width: Int) {
    for rotation in [1, 3, 7] {
      let table = Self.table(rotation: rotation)
      #expect(TableLayout.CellWidths(table).cells.contains { $0.isASCII })
      for colorMode in [ColorMode.off, .ansi256] {
        let options = RenderOptions(width: width, colorMode: colorMode)
        let node = ViewNode.screen(
          Screen(title: "Nodes", subtitle: "37 instances", children: [.table(table)]))
        let fast = TextRenderer.render(node, options: options)
        let general = TextRenderer.render(
          node, options: options, layout: Layout(language: .english, usesFastPaths: false))
        #expect(fast == general, "rotation \(rotation), \(colorMode)")
        // The cut reaches the column edge: some cell ends in "…" on the fast path.
        #expect(width > 120 || fast.contains("…"))
      }
    }
  }

  @Test func plainRowsAreOneSpanOnlyWhenEverythingInThemIsSimple() {
    let table = Self.table(rotation: 1)
    let layout = Layout(language: .english, writesPlainRows: true)
    let lines = TableLayout(table: table, layout: layout).lines(width: 120)
    let general = TableLayout(table: table, layout: Layout(language: .english)).lines(width: 120)
    #expect(lines.count == general.count)
    var joined = 0
    for (line, reference) in zip(lines, general) {
      #expect(line.plain == reference.plain)
      #expect(line.width == reference.width)
      if line.spans.count == 1 && reference.spans.count > 1 { joined += 1 }
    }
    // Rows of simple cells are joined; a row with a combining mark or an emoji is not.
    #expect(joined > 10)
    #expect(joined < table.rows.count)
  }
}
