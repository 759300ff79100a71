/// Fits a ``Table`` into a width.
///
/// Each column wants its natural width (the widest of its header and cells, within
/// `minWidth...maxWidth`). Columns are separated by two spaces. When even the minimum widths
/// do not fit, the lowest-priority column (the rightmost among equals) is dropped, repeatedly,
/// and a note says how many are hidden. Extra width then grows columns towards their natural
/// width, highest priority first. Cells are shortened by their column's truncation rule.
struct TableLayout {
  let table: Table
  let layout: Layout

  static let gap = 2

  var hasMarkers: Bool { table.selectedID != nil || !table.markedIDs.isEmpty }

  /// The display width of every header and cell, measured once for sizing the columns and
  /// again used for shortening and padding the cells.
  struct CellWidths: Equatable {
    /// Per column, its header's width.
    var titles: [Int]
    /// Row by row, each row's cells' widths in column order (0 for a missing cell).
    var cells: [Int]

    init(_ table: Table) {
      let columnCount = table.columns.count
      titles = table.columns.map { DisplayWidth.of($0.title) }
      cells = []
      cells.reserveCapacity(table.rows.count * columnCount)
      for row in table.rows.indices {
        let rowCells = table.rows[row].cells
        for column in 0..<columnCount {
          cells.append(column < rowCells.count ? DisplayWidth.of(rowCells[column].text) : 0)
        }
      }
    }

    /// The width of the cell of row `row` in column `column`.
    func cell(_ row: Int, _ column: Int) -> Int {
      cells[row * titles.count + column]
    }
  }

  /// Visible column indices (in order) and their widths.
  func columnWidths(width: Int, measured: CellWidths) -> [(index: Int, width: Int)] {
    let columns = table.columns
    let available = width - (hasMarkers ? 3 : 0)
    let natural = columns.indices.map { index in
      var widest = measured.titles[index]
      for row in table.rows.indices { widest = max(widest, measured.cell(row, index)) }
      let capped = columns[index].maxWidth.map { min(widest, $0) } ?? widest
      return max(columns[index].minWidth, capped)
    }
    var visible = Array(columns.indices)
    func required(_ indices: [Int]) -> Int {
      indices.map { columns[$0].minWidth }.reduce(0, +) + Self.gap * max(0, indices.count - 1)
    }
    while visible.count > 1 && required(visible) > available {
      // Lowest priority goes first; among equals, the rightmost.
      let victim = visible.min { a, b in
        columns[a].priority != columns[b].priority
          ? columns[a].priority < columns[b].priority : a > b
      }
      visible.removeAll { $0 == victim }
    }
    var widths = Dictionary(
      uniqueKeysWithValues: visible.map { ($0, min(columns[$0].minWidth, available)) })
    var extra = available - required(visible)
    let byPriority = visible.sorted { a, b in
      columns[a].priority != columns[b].priority ? columns[a].priority > columns[b].priority : a < b
    }
    for index in byPriority where extra > 0 {
      let current = widths[index] ?? 0
      let grow = min(extra, max(0, natural[index] - current))
      widths[index] = current + grow
      extra -= grow
    }
    return visible.map { ($0, widths[$0] ?? 0) }
  }

  /// A visible column as its cells are fitted into it.
  struct Slot {
    /// The column's index in the table.
    var index: Int
    var width: Int
    var alignment: TableAlignment
    var truncation: Truncation
    /// Whether cells are padded to the width (all but a last, leading-aligned column).
    var isPadded: Bool

    /// `text`, `measured` columns wide, shortened by the column's rule and padded.
    func fit(_ text: String, measured: Int) -> String {
      var shown = text
      var shownWidth = measured
      if measured > width {
        shown = DisplayWidth.shortened(text, to: width, mode: truncation)
        shownWidth = DisplayWidth.of(shown)
      }
      guard isPadded else { return shown }
      return DisplayWidth.pad(shown, measured: shownWidth, to: width, alignment: alignment)
    }
  }

  func lines(width: Int) -> [StyledLine] {
    guard !table.columns.isEmpty else { return [] }
    let measured = CellWidths(table)
    let layout = columnWidths(width: width, measured: measured)
    let markerWidth = hasMarkers ? 3 : 0
    let tableWidth =
      markerWidth + layout.map(\.width).reduce(0, +) + Self.gap * max(0, layout.count - 1)
    let slots = layout.enumerated().map { offset, column in
      let definition = table.columns[column.index]
      return Slot(
        index: column.index, width: column.width, alignment: definition.alignment,
        truncation: definition.truncation,
        isPadded: offset < layout.count - 1 || definition.alignment != .leading)
    }
    let gap = String(repeating: " ", count: Self.gap)
    let spansPerRow = (hasMarkers ? 1 : 0) + 2 * slots.count

    /// One line of the table; `cell(column)` gives the text, its width and its style.
    func row(
      marker: String, reverse: Bool, _ cell: (Int) -> (text: String, width: Int, style: SpanStyle)
    ) -> StyledLine {
      var line = StyledLine()
      line.spans.reserveCapacity(spansPerRow)
      if hasMarkers { line.append(marker, .tone(Layout.primary)) }
      for (offset, slot) in slots.enumerated() {
        if offset > 0 { line.append(gap) }
        let (text, measured, style) = cell(slot.index)
        line.append(slot.fit(text, measured: measured), style)
      }
      if reverse {
        for index in line.spans.indices { line.spans[index].style.reverse = true }
      }
      return line
    }

    var output: [StyledLine] = []
    output.reserveCapacity(table.rows.count + 3)
    let headerStyle = SpanStyle.tone(Layout.muted, bold: true)
    output.append(
      row(marker: "   ", reverse: false) { index in
        (table.columns[index].title, measured.titles[index], headerStyle)
      })
    output.append(StyledLine(String(repeating: "─", count: tableWidth), .tone(Layout.line)))
    let marked = Set(table.markedIDs)
    for rowIndex in table.rows.indices {
      let cells = table.rows[rowIndex].cells
      let selected = table.selectedID != nil && table.rows[rowIndex].id == table.selectedID
      let marker =
        hasMarkers
        ? (selected ? "›" : " ") + (marked.contains(table.rows[rowIndex].id) ? "●" : " ") + " "
        : ""
      output.append(
        row(marker: marker, reverse: selected) { index in
          let text = index < cells.count ? cells[index].text : ""
          let tone = index < cells.count ? cells[index].tone : nil
          return (
            text, measured.cell(rowIndex, index),
            SpanStyle(token: (tone ?? .neutral).tokenName, bold: selected)
          )
        })
    }
    if table.rows.isEmpty {
      output.append(StyledLine(self.layout.text("table.noRows"), .tone(Layout.muted)))
    }
    let hidden = table.columns.count - layout.count
    if hidden > 0 {
      output += self.layout.wrapped(
        self.layout.text("table.hiddenColumns", ["count": String(hidden)]), width: width,
        .tone(Layout.muted))
    }
    return output
  }
}
