import Essentials
import ThemeKit

/// Renders a view tree as terminal text: a pure, deterministic function of tree and options.
///
/// Every line fits `options.width` columns (CJK and emoji count 2), no line ends in a space,
/// and the output ends without a blank line. Untrusted text is neutralised first (every
/// control shown by a visible stand-in, see ``UntrustedText``), so layout is measured on what
/// is shown; colour (ANSI SGR from the theme's semantic tokens) is applied last, only when
/// colour is on: the only escape sequences in the output are the theme's.
/// The layout rules are listed in the package README.
public enum TextRenderer {
  /// The narrowest width the renderer lays out for.
  public static let minimumWidth = 8

  /// The text of `node` under `options`.
  public static func render(_ node: ViewNode, options: RenderOptions) -> String {
    render(node, options: options, layout: Layout(language: options.language))
  }

  /// ``render(_:options:)`` with `layout`'s paths (the tests compare the fast and the general).
  static func render(_ node: ViewNode, options: RenderOptions, layout: Layout) -> String {
    let width = max(minimumWidth, options.width)
    var layout = layout
    layout.writesPlainRows = options.colorMode == .off && layout.usesFastPaths
    let laidOut = layout.lines(NeutralisedText.of(node), width: width)
    var lines: [StyledLine] = []
    lines.reserveCapacity(laidOut.count)
    for line in laidOut {
      let fitted = line.truncated(to: width).trimmed()
      if fitted.isBlank && (lines.last?.isBlank ?? true) { continue }
      lines.append(fitted)
    }
    while lines.last?.isBlank == true { lines.removeLast() }
    if options.colorMode == .off && layout.usesFastPaths { return plainText(lines) }
    var painter = Painter(options: options)
    var output = ""
    output.reserveCapacity(
      lines.reduce(lines.count) { sum, line in
        line.spans.reduce(sum) { $0 + $1.text.utf8.count }
      })
    for (offset, line) in lines.enumerated() {
      if offset > 0 { output.append("\n") }
      painter.paint(line, into: &output)
    }
    return output
  }

  /// `lines` without colour, as ``Painter`` writes them, copied into one buffer of their
  /// exact size (measured first) instead of appended span by span.
  static func plainText(_ lines: [StyledLine]) -> String {
    var count = max(0, lines.count - 1)
    for line in lines {
      for span in line.spans {
        count += span.simpleWidth != nil ? span.text.utf8.count : Painter.content(span).utf8.count
      }
    }
    return String(unsafeUninitializedCapacity: count) { buffer in
      var at = 0
      func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        let end = min(count, at + bytes.count)
        _ = UnsafeMutableBufferPointer(rebasing: buffer[at..<end])
          .initialize(fromContentsOf: bytes[..<(end - at)])
        at = end
      }
      for index in lines.indices {
        if index > 0 && at < count {
          buffer[at] = 0x0A
          at += 1
        }
        let spans = lines[index].spans
        for span in spans.indices {
          // Simple text is written as it is (``Painter/content(_:)``), read in place.
          let written: Void? =
            spans[span].simpleWidth == nil
            ? nil : spans[span].text.utf8.withContiguousStorageIfAvailable(write)
          if written == nil {
            var content = Painter.content(spans[span])
            content.withUTF8(write)
          }
        }
      }
      return at
    }
  }

  /// Renders a document's root.
  public static func render(_ document: ViewDocument, options: RenderOptions) -> String {
    render(document.root, options: options)
  }
}

// MARK: - Colour

/// Turns styled lines into strings, adding SGR codes when colour is on.
struct Painter {
  let options: RenderOptions
  /// The SGR code that opens each style seen so far ("" for none): styles repeat on every
  /// line, and finding a colour (the nearest palette entry for 256 colours) is not free.
  private var openings: [SpanStyle: String] = [:]

  init(options: RenderOptions) {
    self.options = options
  }

  /// Appends `line` to `output`: each span's text neutralised (a no-op after the tree was, and
  /// free for simple text, which has no control), then its colour around it.
  mutating func paint(_ line: StyledLine, into output: inout String) {
    guard options.colorMode != .off else {
      for span in line.spans { output.append(Self.content(span)) }
      return
    }
    for span in line.spans {
      let opening = self.opening(span.style)
      if opening.isEmpty {
        output.append(Self.content(span))
      } else {
        output.append(opening)
        output.append(Self.content(span))
        output.append(ANSIPalette.reset)
      }
    }
  }

  /// A span's text as it may reach a terminal.
  static func content(_ span: Span) -> String {
    span.simpleWidth != nil ? span.text : UntrustedText.neutralised(span.text)
  }

  /// The SGR sequence that sets `style`, or "" when the style draws as plain text.
  mutating func opening(_ style: SpanStyle) -> String {
    if let known = openings[style] { return known }
    let color = style.token.flatMap { options.theme.color(named: $0, appearance: options.scheme) }
    let opening = ANSIPalette.opening(
      color: color, bold: style.bold, italic: style.italic, reverse: style.reverse,
      mode: options.colorMode)
    openings[style] = opening
    return opening
  }
}

// MARK: - Layout

/// Lays nodes out as styled lines of at most a given width.
struct Layout {
  let language: AppLanguage
  /// Whether the fast paths are taken: printable ASCII table cells cut and padded on their
  /// bytes, output without colour written into one buffer. `false` takes the general paths
  /// (character by character, span by span) everywhere, for the tests that compare the two.
  var usesFastPaths = true
  /// Whether the output is drawn without colour by ``TextRenderer/plainText(_:)`` (set by
  /// the renderer on the fast paths): a table row may then be one span of plain text.
  var writesPlainRows = false

  static let ink = "semantic.ink"
  static let muted = "semantic.muted"
  static let line = "semantic.line"
  static let brand = "semantic.brand"
  static let danger = "semantic.danger"
  static let primary = "semantic.primary"

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    ViewKitStrings.text(key, language, arguments)
  }

  func lines(_ node: ViewNode, width: Int) -> [StyledLine] {
    switch node {
    case .screen(let screen): return self.screen(screen, width: width)
    case .section(let section): return self.section(section, width: width)
    case .card(let card): return self.card(card, width: width)
    case .stack(let nodes): return blocks(nodes, width: width)
    case .keyValue(let row): return keyValues([row], width: width)
    case .list(let list): return self.list(list, width: width)
    case .table(let table): return TableLayout(table: table, layout: self).lines(width: width)
    case .badge(let badge): return [StyledLine([badgeSpan(badge, width: width)])]
    case .text(let text): return self.text(text, width: width)
    case .button(let button): return [StyledLine([buttonSpan(button, width: width)])]
    case .field(let field): return self.field(field, width: width)
    case .empty(let empty): return self.empty(empty, width: width)
    case .error(let error): return self.error(error, width: width)
    case .banner(let banner): return self.banner(banner, width: width)
    case .progress(let progress): return self.progress(progress, width: width)
    case .inline(let nodes): return inline(nodes, width: width)
    }
  }

  /// Wraps `text` and styles every line alike.
  func wrapped(_ text: String, width: Int, _ style: SpanStyle = .plain) -> [StyledLine] {
    DisplayWidth.wrap(text, width: width).map { StyledLine($0, style) }
  }

  // MARK: Containers

  /// Children one after another; a blank line separates block nodes (sections, cards, lists,
  /// tables, states) from their neighbours; consecutive key/value rows align their keys.
  func blocks(_ nodes: [ViewNode], width: Int) -> [StyledLine] {
    var output: [StyledLine] = []
    var previousIsBlock = false
    var index = 0
    while index < nodes.count {
      let node = nodes[index]
      var chunk: [StyledLine]
      if case .keyValue = node {
        var rows: [KeyValue] = []
        while index < nodes.count, case .keyValue(let row) = nodes[index] {
          rows.append(row)
          index += 1
        }
        chunk = keyValues(rows, width: width)
      } else {
        chunk = lines(node, width: width)
        index += 1
      }
      let isBlock = Self.isBlock(node)
      if !output.isEmpty && (isBlock || previousIsBlock) { output.append(.blank) }
      output += chunk
      previousIsBlock = isBlock
    }
    return output
  }

  static func isBlock(_ node: ViewNode) -> Bool {
    switch node {
    case .keyValue, .text, .badge, .button, .field, .banner, .progress, .inline: false
    default: true
    }
  }

  func screen(_ screen: Screen, width: Int) -> [StyledLine] {
    var output = wrapped(screen.title, width: width, SpanStyle.tone(Self.brand, bold: true))
    if let subtitle = screen.subtitle {
      output += wrapped(subtitle, width: width, .tone(Self.muted))
    }
    output.append(StyledLine(String(repeating: "─", count: width), .tone(Self.line)))
    return output + blocks(screen.children, width: width)
  }

  func section(_ section: Section, width: Int) -> [StyledLine] {
    var output: [StyledLine] = []
    if let title = section.title {
      output += wrapped(title, width: width, .tone(Self.ink, bold: true))
    }
    return output + blocks(section.children, width: width)
  }

  /// Narrower than this, a card is drawn as an indented group instead of a box.
  static let minimumBoxWidth = 20

  func card(_ card: Card, width: Int) -> [StyledLine] {
    let border = SpanStyle.tone(Self.line)
    guard width >= Self.minimumBoxWidth else {
      var output: [StyledLine] = []
      if let title = card.title {
        output += wrapped(title, width: width, .tone(Self.ink, bold: true))
      }
      return output + blocks(card.children, width: width - 2).map { $0.prefixed([Span("  ")]) }
    }
    let inner = width - 4
    var top = StyledLine("┌", border)
    var used = 1
    if let title = card.title, !title.isEmpty {
      let shown = DisplayWidth.truncate(title, to: width - 6)
      top.append("─ ", border)
      top.append(shown, .tone(Self.ink, bold: true))
      top.append(" ", border)
      used += 3 + DisplayWidth.of(shown)
    }
    top.append(String(repeating: "─", count: width - used - 1) + "┐", border)
    var output = [top]
    for line in blocks(card.children, width: inner) {
      var row = StyledLine("│ ", border)
      row.spans += line.spans
      row.append(String(repeating: " ", count: max(0, inner - line.width)))
      row.append(" │", border)
      output.append(row)
    }
    output.append(StyledLine("└" + String(repeating: "─", count: width - 2) + "┘", border))
    return output
  }

  // MARK: Rows

  func keyValues(_ rows: [KeyValue], width: Int) -> [StyledLine] {
    let widest = rows.map { DisplayWidth.of($0.key) }.max() ?? 0
    let keyWidth = min(widest, max(4, width / 3))
    let valueWidth = width - keyWidth - 2
    var output: [StyledLine] = []
    for row in rows {
      let valueStyle = SpanStyle(token: (row.tone ?? .neutral).tokenName)
      let key = DisplayWidth.truncate(row.key, to: keyWidth)
      if valueWidth < 8 {
        output.append(StyledLine(DisplayWidth.truncate(row.key, to: width), .tone(Self.muted)))
        output += wrapped(row.value, width: width - 2, valueStyle).map {
          $0.prefixed([Span("  ")])
        }
        continue
      }
      let values = DisplayWidth.wrap(row.value, width: valueWidth)
      for (offset, value) in values.enumerated() {
        var line = StyledLine()
        if offset == 0 {
          line.append(DisplayWidth.pad(key, to: keyWidth), .tone(Self.muted))
        } else {
          line.append(String(repeating: " ", count: keyWidth))
        }
        line.append("  ")
        line.append(value, valueStyle)
        output.append(line)
      }
    }
    return output
  }

  func list(_ list: ListNode, width: Int) -> [StyledLine] {
    guard !list.items.isEmpty else {
      return [StyledLine(DisplayWidth.truncate(text("view.noItems"), to: width), .tone(Self.muted))]
    }
    let hasMarkers = list.selectedID != nil || !list.markedIDs.isEmpty
    let available = hasMarkers ? width - 3 : width
    return list.items.map { item in
      var line = StyledLine()
      if hasMarkers {
        let selected = item.id == list.selectedID
        let marked = list.markedIDs.contains(item.id)
        line.append((selected ? "›" : " ") + (marked ? "●" : " ") + " ", .tone(Self.primary))
      }
      line.spans += listItem(item, width: available, selected: item.id == list.selectedID).spans
      return line
    }
  }

  /// `title · subtitle [badge] [badge]      trailing` in `width` columns: the trailing text
  /// stays right-aligned; then the subtitle, then the badges give way before the title does.
  func listItem(_ item: ListItem, width: Int, selected: Bool) -> StyledLine {
    var trailing = item.trailing ?? ""
    if DisplayWidth.of(trailing) > width / 2 {
      trailing = DisplayWidth.truncate(trailing, to: width / 2)
    }
    let trailingWidth = DisplayWidth.of(trailing)
    let leftBudget = trailing.isEmpty ? width : width - trailingWidth - 2
    var badges = item.badges.map { "[\($0.text)]" }
    var badgesWidth: Int {
      badges.isEmpty ? 0 : DisplayWidth.of(badges.joined(separator: " ")) + 1
    }
    let titleWidth = DisplayWidth.of(item.title)
    while !badges.isEmpty && leftBudget - badgesWidth < min(titleWidth, 12) {
      badges.removeLast()
    }
    let title = DisplayWidth.truncate(item.title, to: max(1, leftBudget - badgesWidth))
    var line = StyledLine(title, SpanStyle(token: Self.ink, bold: selected))
    var used = DisplayWidth.of(title)
    if let subtitle = item.subtitle, !subtitle.isEmpty {
      let room = leftBudget - badgesWidth - used - 3
      if room >= 4 {
        let shown = DisplayWidth.truncate(subtitle, to: room)
        line.append(" · " + shown, .tone(Self.muted))
        used += 3 + DisplayWidth.of(shown)
      }
    }
    for (badge, label) in zip(item.badges, badges) {
      line.append(" ")
      line.append(label, .tone(badge.tone.tokenName))
      used += 1 + DisplayWidth.of(label)
    }
    if !trailing.isEmpty {
      line.append(String(repeating: " ", count: max(2, width - used - trailingWidth)))
      line.append(trailing, .tone(Self.muted))
    }
    return line
  }

  // MARK: Leaves

  func badgeSpan(_ badge: Badge, width: Int) -> Span {
    Span(
      "[" + DisplayWidth.truncate(badge.text, to: max(1, width - 2)) + "]",
      .tone(badge.tone.tokenName))
  }

  func buttonSpan(_ button: Button, width: Int) -> Span {
    Span(
      "[ " + DisplayWidth.truncate(button.title, to: max(1, width - 4)) + " ]",
      .tone(button.role.tokenName, bold: button.role == .primary))
  }

  func text(_ text: Text, width: Int) -> [StyledLine] {
    var style = SpanStyle(token: text.style.tokenName)
    switch text.style {
    case .title, .headline: style.bold = true
    case .emphasis: style.italic = true
    case .body, .caption, .muted, .code: break
    }
    return wrapped(text.text, width: width, style)
  }

  func field(_ field: FormField, width: Int) -> [StyledLine] {
    let label = DisplayWidth.truncate(field.label, to: max(4, width / 3)) + ":"
    let labelWidth = DisplayWidth.of(label) + 1
    var value = field.isSecure && !field.value.isEmpty ? "••••" : field.value
    var valueStyle = SpanStyle(token: Self.ink)
    if value.isEmpty, let placeholder = field.placeholder {
      value = placeholder
      valueStyle = .tone(Self.muted)
    }
    var output: [StyledLine] = []
    for (offset, piece) in DisplayWidth.wrap(value, width: width - labelWidth).enumerated() {
      var line = StyledLine()
      line.append(offset == 0 ? label + " " : String(repeating: " ", count: labelWidth))
      if offset == 0 { line.spans[0].style = .tone(Self.muted) }
      line.append(piece, valueStyle)
      output.append(line)
    }
    if let message = field.message, !message.isEmpty {
      output += wrapped(message, width: width - 2, .tone(Self.danger)).map {
        $0.prefixed([Span("  ")])
      }
    }
    return output
  }

  /// Lines centred in `width` (the left margin only: no trailing spaces).
  func centred(_ lines: [StyledLine], width: Int) -> [StyledLine] {
    lines.map { line in
      let margin = max(0, (width - line.width) / 2)
      return margin == 0 ? line : line.prefixed([Span(String(repeating: " ", count: margin))])
    }
  }

  func empty(_ empty: EmptyState, width: Int) -> [StyledLine] {
    let measure = min(width, 60)
    var output = wrapped(empty.title, width: measure, .tone(Self.ink, bold: true))
    if let message = empty.message {
      output += wrapped(message, width: measure, .tone(Self.muted))
    }
    if let action = empty.action {
      output.append(StyledLine([buttonSpan(action, width: width)]))
    }
    return centred(output, width: width)
  }

  func error(_ error: ErrorState, width: Int) -> [StyledLine] {
    let measure = min(width, 60)
    var output = wrapped("✖ " + error.title, width: measure, .tone(Self.danger, bold: true))
    output += wrapped(error.message, width: measure, .tone(Self.ink))
    if let command = error.retryCommand {
      output += wrapped(
        text("error.retry", ["command": command]), width: measure, .tone(Self.muted))
    }
    return centred(output, width: width)
  }

  static func symbol(for tone: Tone) -> String {
    switch tone {
    case .warning: "⚠"
    case .danger: "✖"
    case .success: "✔"
    case .neutral, .info, .muted, .brand, .primary: "ℹ"
    }
  }

  func banner(_ banner: Banner, width: Int) -> [StyledLine] {
    let style = SpanStyle.tone(banner.tone.tokenName)
    return DisplayWidth.wrap(banner.text, width: width - 2).enumerated().map { offset, piece in
      StyledLine((offset == 0 ? Self.symbol(for: banner.tone) + " " : "  ") + piece, style)
    }
  }

  /// The longest bar a progress line draws.
  static let maximumBar = 20

  func progress(_ progress: Progress, width: Int) -> [StyledLine] {
    let labelStyle = SpanStyle.tone(Self.ink)
    guard let total = progress.total, total > 0 else {
      let count = " · \(progress.completed)"
      let label = DisplayWidth.truncate(progress.label, to: max(1, width - DisplayWidth.of(count)))
      return [StyledLine([Span(label, labelStyle), Span(count, .tone(Self.muted))])]
    }
    let counts = "\(progress.completed)/\(total)"
    let room = width - DisplayWidth.of(counts) - 3  // "[", "]" and the space before the counts
    let labelWidth = DisplayWidth.of(progress.label)
    func bar(_ columns: Int) -> [Span] {
      let fraction = min(1, max(0, Double(progress.completed) / Double(total)))
      let filled = Int((fraction * Double(columns)).rounded(.down))
      return [
        Span("["), Span(String(repeating: "#", count: filled), .tone(Self.primary)),
        Span(String(repeating: "-", count: columns - filled), .tone(Self.muted)),
        Span("] " + counts),
      ]
    }
    let preferredBar = min(Self.maximumBar, max(10, room - labelWidth - 1))
    let barWidth = min(preferredBar, room - (labelWidth > 0 ? 1 + min(labelWidth, 8) : 0))
    if barWidth >= 5 {
      guard labelWidth > 0 else { return [StyledLine(bar(barWidth))] }
      let label = DisplayWidth.truncate(progress.label, to: room - 1 - barWidth)
      return [StyledLine([Span(label + " ", labelStyle)] + bar(barWidth))]
    }
    let labelLine = StyledLine(DisplayWidth.truncate(progress.label, to: width), labelStyle)
    guard room >= 1 else {
      return [labelLine, StyledLine(DisplayWidth.truncate(counts, to: width))]
    }
    return [labelLine, StyledLine(bar(min(Self.maximumBar, room)))]
  }

  /// Small nodes side by side, separated by a space, starting a new line when the next does
  /// not fit; a node that is not small interrupts the run and is laid out as a block.
  func inline(_ nodes: [ViewNode], width: Int) -> [StyledLine] {
    var output: [StyledLine] = []
    var current = StyledLine()
    func flush() {
      if !current.spans.isEmpty { output.append(current) }
      current = StyledLine()
    }
    for node in nodes {
      var fragment: [Span]
      switch node {
      case .badge(let badge): fragment = [badgeSpan(badge, width: width)]
      case .button(let button): fragment = [buttonSpan(button, width: width)]
      case .keyValue(let row):
        fragment = [
          Span(row.key, .tone(Self.muted)),
          Span(" " + row.value, SpanStyle(token: (row.tone ?? .neutral).tokenName)),
        ]
      case .text(let text) where !text.text.contains("\n"):
        fragment = self.text(text, width: Int.max / 2).first?.spans ?? []
      default:
        flush()
        output += lines(node, width: width)
        continue
      }
      let piece = StyledLine(fragment).truncated(to: width)
      if current.spans.isEmpty {
        current = piece
      } else if current.width + 1 + piece.width <= width {
        current.append(" ")
        current.spans += piece.spans
      } else {
        flush()
        current = piece
      }
    }
    flush()
    return output
  }
}
