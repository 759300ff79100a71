/// How a span of text is drawn when colour is on.
struct SpanStyle: Hashable, Sendable {
  var token: String?
  var bold = false
  var italic = false
  var reverse = false

  static let plain = SpanStyle()
  static func tone(_ token: String, bold: Bool = false) -> SpanStyle {
    SpanStyle(token: token, bold: bold)
  }
}

/// A run of text with one style, measured once.
struct Span: Equatable, Sendable {
  let text: String
  var style: SpanStyle
  /// The columns of `text` when it is simple text (``DisplayWidth/simpleWidth(_:)``), `nil`
  /// when it is not.
  let simpleWidth: Int?

  init(_ text: String, _ style: SpanStyle = .plain) {
    self.init(text, style, simpleWidth: DisplayWidth.simpleWidth(text))
  }

  /// A span whose text has been measured already: `simpleWidth` must be
  /// ``DisplayWidth/simpleWidth(_:)`` of `text`.
  init(_ text: String, _ style: SpanStyle, simpleWidth: Int?) {
    self.text = text
    self.style = style
    self.simpleWidth = simpleWidth
  }
}

/// One output line as styled spans; measured without styles.
struct StyledLine: Equatable, Sendable {
  var spans: [Span]

  init(_ spans: [Span] = []) {
    self.spans = spans
  }

  init(_ text: String, _ style: SpanStyle = .plain) {
    self.spans = text.isEmpty ? [] : [Span(text, style)]
  }

  static let blank = StyledLine()

  var plain: String { spans.map(\.text).joined() }

  /// The columns of ``plain``. Spans of simple text are measured one by one (their widths
  /// add up, as each scalar is a character of its own); otherwise the joined text is.
  var width: Int {
    var total = 0
    for span in spans {
      guard let columns = span.simpleWidth else { return DisplayWidth.of(plain) }
      total += columns
    }
    return total
  }

  /// Whether the line is empty or only spaces.
  var isBlank: Bool {
    spans.allSatisfy { span in span.text.utf8.allSatisfy { $0 == 0x20 } }
  }

  /// This line after `prefix` spans.
  func prefixed(_ prefix: [Span]) -> StyledLine {
    isBlank ? self : StyledLine(prefix + spans)
  }

  /// Appends `text` in `style`.
  mutating func append(_ text: String, _ style: SpanStyle = .plain) {
    if !text.isEmpty { spans.append(Span(text, style)) }
  }

  /// Appends `text` in `style`, its ``Span/simpleWidth`` measured already.
  mutating func append(_ text: String, _ style: SpanStyle, simpleWidth: Int?) {
    if !text.isEmpty { spans.append(Span(text, style, simpleWidth: simpleWidth)) }
  }

  /// The line with trailing spaces removed.
  func trimmed() -> StyledLine {
    if let last = spans.last?.text.utf8.last, last != 0x20 { return self }
    var spans = self.spans
    while let last = spans.last {
      var text = last.text
      while text.last == " " { text.removeLast() }
      if text.isEmpty {
        spans.removeLast()
      } else {
        spans[spans.count - 1] = Span(text, last.style)
        break
      }
    }
    return StyledLine(spans)
  }

  /// The line cut to `width` columns, ending in "…" if anything was cut.
  func truncated(to width: Int) -> StyledLine {
    guard self.width > width else { return self }
    var result: [Span] = []
    var used = 0
    let budget = max(0, width - 1)
    for span in spans {
      let room = budget - used
      if room <= 0 { break }
      let piece = DisplayWidth.prefix(Array(span.text), room)
      if !piece.isEmpty { result.append(Span(piece, span.style)) }
      used += DisplayWidth.of(piece)
      if piece.count < span.text.count { break }
    }
    if width >= 1 {
      result.append(Span(String(DisplayWidth.ellipsis), result.last?.style ?? .plain))
    }
    return StyledLine(result)
  }
}
