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

  func cell(_ row: TableRow, _ column: Int) -> TableCell {
    column < row.cells.count ? row.cells[column] : TableCell("")
  }

  /// Visible column indices (in order) and their widths.
  func columnWidths(width: Int) -> [(index: Int, width: Int)] {
    let columns = table.columns
    let available = width - (hasMarkers ? 3 : 0)
    let natural = columns.indices.map { index in
      let widest =
        ([DisplayWidth.of(columns[index].title)]
        + table.rows.map { DisplayWidth.of(cell($0, index).text) }).max() ?? 0
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

  func lines(width: Int) -> [StyledLine] {
    guard !table.columns.isEmpty else { return [] }
    let layout = columnWidths(width: width)
    let markerWidth = hasMarkers ? 3 : 0
    let tableWidth =
      markerWidth + layout.map(\.width).reduce(0, +) + Self.gap * max(0, layout.count - 1)

    func row(_ texts: [(String, SpanStyle)], marker: String, reverse: Bool) -> StyledLine {
      var line = StyledLine()
      if hasMarkers { line.append(marker, .tone(Layout.primary)) }
      for (offset, (column, text)) in zip(layout, texts).enumerated() {
        if offset > 0 { line.append(String(repeating: " ", count: Self.gap)) }
        let definition = table.columns[column.index]
        let shown = DisplayWidth.truncate(text.0, to: column.width, mode: definition.truncation)
        let isLast = offset == layout.count - 1
        let padded =
          isLast && definition.alignment == .leading
          ? shown : DisplayWidth.pad(shown, to: column.width, alignment: definition.alignment)
        line.append(padded, text.1)
      }
      if reverse {
        for index in line.spans.indices { line.spans[index].style.reverse = true }
      }
      return line
    }

    var output: [StyledLine] = []
    let header = layout.map { column in
      (table.columns[column.index].title, SpanStyle.tone(Layout.muted, bold: true))
    }
    output.append(row(header, marker: "   ", reverse: false))
    output.append(StyledLine(String(repeating: "─", count: tableWidth), .tone(Layout.line)))
    for tableRow in table.rows {
      let selected = tableRow.id == table.selectedID
      let marked = table.markedIDs.contains(tableRow.id)
      let texts = layout.map { column -> (String, SpanStyle) in
        let cell = cell(tableRow, column.index)
        return (cell.text, SpanStyle(token: (cell.tone ?? .neutral).tokenName, bold: selected))
      }
      let marker = (selected ? "›" : " ") + (marked ? "●" : " ") + " "
      output.append(row(texts, marker: marker, reverse: selected))
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
