/// Fits a ``Table`` into a width.
///
/// Each column wants its natural width (the widest of its header and cells, within
/// `minWidth...maxWidth`). Columns are separated by two spaces. When even the minimum widths
/// do not fit, the lowest-priority column (the rightmost among equals) is dropped, repeatedly,
/// and a note says how many are hidden; a ``ColumnSizing/whole`` column is cut only when
/// nothing of lower priority is left to drop. Extra width then grows columns towards their
/// natural width, highest priority first, and ``ColumnSizing/fill`` columns last. Cells are
/// shortened by their column's truncation rule.
struct TableLayout {
  let table: Table
  let layout: Layout

  static let gap = 2

  var hasMarkers: Bool { table.selectedID != nil || !table.markedIDs.isEmpty }

  /// The display width of every header and cell, measured once for sizing the columns, and
  /// then for shortening, padding and measuring the cells' spans.
  struct CellWidths: Equatable {
    /// A text's columns, and whether it is simple text (then its spans' widths are known).
    struct Measure: Equatable {
      var width: Int
      var isSimple: Bool
      /// Whether the text is printable ASCII: a character a byte, one column each, so that it
      /// is cut and padded on its UTF-8 bytes (``Slot/fitASCII(_:columns:)``).
      var isASCII: Bool

      init(_ text: String) {
        if let width = DisplayWidth.asciiWidth(text) {
          self.init(width: width, isSimple: true, isASCII: true)
        } else if let width = DisplayWidth.simpleWidth(text) {
          self.init(width: width, isSimple: true)
        } else {
          self.init(width: DisplayWidth.clusterWidth(text), isSimple: false)
        }
      }

      init(width: Int, isSimple: Bool, isASCII: Bool = false) {
        self.width = width
        self.isSimple = isSimple
        self.isASCII = isASCII
      }
    }

    /// Per column, its header.
    var titles: [Measure]
    /// Row by row, each row's cells in column order (a missing cell is empty).
    var cells: [Measure]

    init(_ table: Table) {
      let columnCount = table.columns.count
      titles = table.columns.map { Measure($0.title) }
      cells = []
      cells.reserveCapacity(table.rows.count * columnCount)
      let empty = Measure(width: 0, isSimple: true, isASCII: true)
      for row in table.rows.indices {
        let rowCells = table.rows[row].cells
        for column in 0..<columnCount {
          cells.append(column < rowCells.count ? Measure(rowCells[column].text) : empty)
        }
      }
    }

    /// The cell of row `row` in column `column`.
    func cell(_ row: Int, _ column: Int) -> Measure {
      cells[row * titles.count + column]
    }
  }

  /// Visible column indices (in order) and their widths.
  ///
  /// 1. Each column's natural width is its widest header or cell, within its bounds; a
  ///    ``ColumnSizing/whole`` column asks for it as its minimum.
  /// 2. While the minimums do not fit, the lowest-priority column (the rightmost among equals)
  ///    is dropped; when that would be a whole column, whole columns fall back to their
  ///    `minWidth` (and are cut) instead, and dropping carries on from there.
  /// 3. The width left grows the other columns towards their natural width, highest priority
  ///    first; ``ColumnSizing/fill`` columns get what is left after that. A fill column cut
  ///    below its ``TableColumn/comfortableWidth`` (or its natural width, when smaller) has the
  ///    columns of lower priority dropped, lowest first, until it has it or none is left; then
  ///    a fill column is dropped while a column of higher priority is still cut.
  func columnWidths(width: Int, measured: CellWidths) -> [(index: Int, width: Int)] {
    let columns = table.columns
    let available = width - (hasMarkers ? 3 : 0)
    let natural = columns.indices.map { index in
      var widest = measured.titles[index].width
      for row in table.rows.indices { widest = max(widest, measured.cell(row, index).width) }
      let capped = columns[index].maxWidth.map { min(widest, $0) } ?? widest
      return max(columns[index].minWidth, capped)
    }
    var floor = columns.indices.map { index in
      columns[index].sizing == .whole ? natural[index] : columns[index].minWidth
    }
    var visible = Array(columns.indices)
    func required(_ indices: [Int]) -> Int {
      indices.map { floor[$0] }.reduce(0, +) + Self.gap * max(0, indices.count - 1)
    }
    func lowestPriority() -> Int? {
      visible.min { a, b in
        columns[a].priority != columns[b].priority
          ? columns[a].priority < columns[b].priority : a > b
      }
    }
    var wholeKept = true
    while visible.count > 1 && required(visible) > available, let victim = lowestPriority() {
      if wholeKept && columns[victim].sizing == .whole {
        wholeKept = false
        floor = columns.indices.map { columns[$0].minWidth }
        continue
      }
      visible.removeAll { $0 == victim }
    }
    func grown(_ visible: [Int]) -> [Int: Int] {
      var widths = Dictionary(
        uniqueKeysWithValues: visible.map { ($0, min(floor[$0], available)) })
      var extra = available - required(visible)
      let byPriority = visible.sorted { a, b in
        columns[a].priority != columns[b].priority
          ? columns[a].priority > columns[b].priority : a < b
      }
      let fixedFirst =
        byPriority.filter { columns[$0].sizing != .fill }
        + byPriority.filter { columns[$0].sizing == .fill }
      for index in fixedFirst where extra > 0 {
        let current = widths[index] ?? 0
        let grow = min(extra, max(0, natural[index] - current))
        widths[index] = current + grow
        extra -= grow
      }
      return widths
    }
    var widths = grown(visible)
    // A fill column cut below its comfortable width (or below its natural width, when that
    // is smaller): lower-priority columns make room for it.
    while let fill = visible.first(where: { index in
      columns[index].sizing == .fill
        && (widths[index] ?? 0) < min(columns[index].comfortableWidth ?? 0, natural[index])
    }),
      let victim = visible.filter({ columns[$0].priority < columns[fill].priority }).min(by: {
        a, b in
        columns[a].priority != columns[b].priority
          ? columns[a].priority < columns[b].priority : a > b
      })
    {
      visible.removeAll { $0 == victim }
      widths = grown(visible)
    }
    // A fill column holds only what is left: while a column of higher priority is cut below
    // its natural width, the fill column gives its minimum back.
    while visible.count > 1,
      let fill = visible.first(where: { candidate in
        columns[candidate].sizing == .fill
          && visible.contains {
            columns[$0].sizing != .fill && columns[$0].priority > columns[candidate].priority
              && (widths[$0] ?? 0) < natural[$0]
          }
      })
    {
      visible.removeAll { $0 == fill }
      widths = grown(visible)
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

    /// `text` shortened by the column's rule and padded, with its
    /// ``Span/simpleWidth``: on the bytes for printable ASCII, else character by character.
    func fit(_ text: String, _ measure: CellWidths.Measure) -> (text: String, simpleWidth: Int?) {
      if measure.isASCII, let fitted = fitASCII(text, columns: measure.width) { return fitted }
      guard measure.isSimple else { return fitByCharacter(text, measure) }
      return fitSimple(text, columns: measure.width)
    }

    /// ``fitByCharacter(_:_:)`` for simple text `columns` wide: cut scalar by scalar, padded
    /// into one buffer of the final size.
    func fitSimple(_ text: String, columns: Int) -> (text: String, simpleWidth: Int?) {
      var shown = text
      var shownWidth = columns
      if columns > width && width > 1 && truncation == .tail {
        // ``DisplayWidth/shortened(_:to:mode:)`` of simple text at the tail, measured as it
        // is cut: its head's columns and the ellipsis' one (no second and third walk).
        let head = DisplayWidth.prefixEnd(text.unicodeScalars, width - 1)
        shown = String(Substring(text.unicodeScalars[..<head.end]))
        shown.append(DisplayWidth.ellipsis)
        shownWidth = head.used + 1
      } else if columns > width {
        shown = DisplayWidth.shortened(text, to: width, mode: truncation)
        shownWidth = DisplayWidth.of(shown)
      }
      let padding = isPadded ? max(0, width - shownWidth) : 0
      guard padding > 0 else { return (shown, shownWidth) }
      let spacesFirst = alignment == .trailing
      let fitted = shown.utf8.withContiguousStorageIfAvailable { bytes in
        String(unsafeUninitializedCapacity: bytes.count + padding) { buffer in
          let start = spacesFirst ? padding : 0
          let spaces = spacesFirst ? 0 : bytes.count
          _ = UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + bytes.count)])
            .initialize(fromContentsOf: bytes)
          UnsafeMutableBufferPointer(rebasing: buffer[spaces..<(spaces + padding)])
            .initialize(repeating: 0x20)
          return bytes.count + padding
        }
      }
      return (
        fitted ?? DisplayWidth.pad(shown, measured: shownWidth, to: width, alignment: alignment),
        shownWidth + padding
      )
    }

    /// ``fitByCharacter(_:_:)`` for printable ASCII text `columns` wide (a character a byte):
    /// the cut and the padding made on the UTF-8 bytes, into one buffer of the final size.
    /// `nil` when the text's bytes are not contiguous (then the general path measures it).
    func fitASCII(_ text: String, columns: Int) -> (text: String, simpleWidth: Int)? {
      let plan = ASCIIPlan(self, columns: columns)
      guard plan.isCut || plan.padding > 0 else { return (text, columns) }
      let count = plan.byteCount
      let fitted = text.utf8.withContiguousStorageIfAvailable { source in
        String(unsafeUninitializedCapacity: count) { buffer in
          var at = 0
          plan.write(source) { byte in
            buffer[at] = byte
            at += 1
          }
          return at
        }
      }
      return fitted.map { ($0, plan.width) }
    }

    /// ``fitASCII(_:columns:)`` appended to `output`; the columns written, or nil when the
    /// text's bytes are not contiguous.
    func appendASCII(_ text: String, columns: Int, to output: inout [UInt8]) -> Int? {
      let plan = ASCIIPlan(self, columns: columns)
      let written: Void? = text.utf8.withContiguousStorageIfAvailable { source in
        plan.write(source) { output.append($0) }
      }
      return written == nil ? nil : plan.width
    }

    /// How printable ASCII text `columns` wide fits the slot: the whole text, or its head and
    /// tail around "…" (1 column, 3 bytes), and the spaces before or after it.
    struct ASCIIPlan {
      var head: Int
      var tail = 0
      var isCut = false
      var ellipsis = false
      var padding = 0
      var leading = 0

      init(_ slot: Slot, columns: Int) {
        head = columns
        if columns > slot.width {
          isCut = true
          ellipsis = slot.width >= 1
          let budget = max(0, slot.width - 1)
          head = slot.truncation == .tail ? budget : (budget + 1) / 2
          tail = budget - head
        }
        let shown = head + tail + (ellipsis ? 1 : 0)
        padding = slot.isPadded ? max(0, slot.width - shown) : 0
        leading = slot.alignment == .trailing ? padding : 0
      }

      /// The columns written.
      var width: Int { head + tail + (ellipsis ? 1 : 0) + padding }
      /// The bytes written.
      var byteCount: Int { head + tail + (ellipsis ? 3 : 0) + padding }

      /// Puts the fitted bytes of `source` (the text's UTF-8) one by one.
      @inline(__always)
      func write(_ source: UnsafeBufferPointer<UInt8>, _ put: (UInt8) -> Void) {
        for _ in 0..<leading { put(0x20) }
        for index in 0..<head { put(source[index]) }
        if ellipsis {
          put(0xE2)
          put(0x80)
          put(0xA6)
        }
        for index in (source.count - tail)..<source.count { put(source[index]) }
        for _ in leading..<padding { put(0x20) }
      }
    }

    /// ``fit(_:_:)`` for any text, character by character (the general path).
    func fitByCharacter(_ text: String, _ measure: CellWidths.Measure) -> (
      text: String, simpleWidth: Int?
    ) {
      var shown = text
      var shownWidth = measure.width
      if measure.width > width {
        shown = DisplayWidth.shortened(text, to: width, mode: truncation)
        shownWidth = DisplayWidth.of(shown)
      }
      let fitted =
        isPadded
        ? DisplayWidth.pad(shown, measured: shownWidth, to: width, alignment: alignment) : shown
      // Cut and padded, simple text stays simple; its width is the column's unless it was
      // already narrower (or, for the ragged last column, its own).
      guard measure.isSimple else { return (fitted, DisplayWidth.simpleWidth(fitted)) }
      return (fitted, isPadded ? max(width, shownWidth) : shownWidth)
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

    /// One line of the table; `cell(column)` gives the text, its measure and its style.
    func row(
      marker: String, reverse: Bool,
      _ cell: (Int) -> (text: String, measure: CellWidths.Measure, style: SpanStyle)
    ) -> StyledLine {
      var line = StyledLine()
      line.spans.reserveCapacity(spansPerRow)
      if hasMarkers { line.append(marker, .tone(Layout.primary)) }
      for (offset, slot) in slots.enumerated() {
        if offset > 0 { line.append(gap, .plain, simpleWidth: Self.gap) }
        let (text, measure, style) = cell(slot.index)
        let fitted =
          self.layout.usesFastPaths ? slot.fit(text, measure) : slot.fitByCharacter(text, measure)
        line.append(fitted.text, style, simpleWidth: fitted.simpleWidth)
      }
      if reverse {
        for index in line.spans.indices { line.spans[index].style.reverse = true }
      }
      return line
    }

    /// Without colour (``Layout/writesPlainRows``) a row of simple cells is one span: the
    /// cells fitted and joined with their gaps in one buffer, the bytes
    /// ``TextRenderer/plainText(_:)`` would write for the spans (whose styles it does not
    /// draw). Nil when a piece is not simple text (then the row is laid out span by span).
    var buffer: [UInt8] = []
    func plainRow(marker: String, _ rowIndex: Int, _ cells: [TableCell]) -> StyledLine? {
      buffer.removeAll(keepingCapacity: true)
      var columns = 0
      if hasMarkers {
        guard let markerWidth = DisplayWidth.simpleWidth(marker) else { return nil }
        buffer.append(contentsOf: marker.utf8)
        columns += markerWidth
      }
      for (offset, slot) in slots.enumerated() {
        if offset > 0 {
          buffer.append(0x20)
          buffer.append(0x20)
          columns += Self.gap
        }
        let text = slot.index < cells.count ? cells[slot.index].text : ""
        let measure = measured.cell(rowIndex, slot.index)
        if measure.isASCII,
          let written = slot.appendASCII(text, columns: measure.width, to: &buffer)
        {
          columns += written
          continue
        }
        guard measure.isSimple else { return nil }
        if measure.width <= slot.width {
          // Nothing to cut: the text and its padding (``Slot/fitSimple(_:columns:)``).
          let padding = slot.isPadded ? slot.width - measure.width : 0
          let spacesFirst = slot.alignment == .trailing
          if spacesFirst { buffer.append(contentsOf: repeatElement(0x20, count: padding)) }
          buffer.append(contentsOf: text.utf8)
          if !spacesFirst { buffer.append(contentsOf: repeatElement(0x20, count: padding)) }
          columns += measure.width + padding
          continue
        }
        let fitted = slot.fitSimple(text, columns: measure.width)
        guard let written = fitted.simpleWidth else { return nil }
        buffer.append(contentsOf: fitted.text.utf8)
        columns += written
      }
      guard !buffer.isEmpty else { return StyledLine() }
      return StyledLine([
        Span(String(decoding: buffer, as: UTF8.self), .plain, simpleWidth: columns)
      ])
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
      if self.layout.writesPlainRows, let line = plainRow(marker: marker, rowIndex, cells) {
        output.append(line)
        continue
      }
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
