/// Rows and columns that shrink to the width: low-priority columns go first.
public struct Table: Codable, Sendable, Equatable {
  /// The columns, left to right.
  public var columns: [TableColumn]
  /// The rows; each has one cell per column.
  public var rows: [TableRow]
  /// The row the cursor is on.
  public var selectedID: String?
  /// Rows chosen for a batch action.
  public var markedIDs: [String]

  /// A table.
  public init(
    columns: [TableColumn], rows: [TableRow], selectedID: String? = nil, markedIDs: [String] = []
  ) {
    self.columns = columns
    self.rows = rows
    self.selectedID = selectedID
    self.markedIDs = markedIDs
  }
}

/// Where a cell's text sits.
public enum TableAlignment: String, Codable, Sendable, CaseIterable {
  /// Left in left-to-right text.
  case leading
  /// Right; for numbers.
  case trailing
}

/// Which part of a too-long text an ellipsis replaces.
public enum Truncation: String, Codable, Sendable, CaseIterable {
  /// Keep the start: `Shenzhen Offi…`.
  case tail
  /// Keep both ends: `http://10.0…:3000`; for addresses and ids.
  case middle
}

/// How a column takes width beyond its minimum.
public enum ColumnSizing: String, Codable, Sendable, CaseIterable {
  /// Grows towards its natural width, highest priority first (the default).
  case natural
  /// Kept whole: its natural width (up to `maxWidth`) counts as its minimum, so columns of
  /// lower priority are dropped before it is cut. For what a row is about: a name, a status
  /// with its reason.
  case whole
  /// Free text (a message body, a preview): it takes what is left only after every other
  /// visible column has its natural width.
  case fill
}

/// A table column and its sizing rules.
public struct TableColumn: Codable, Sendable, Equatable, Identifiable {
  /// Stable id.
  public var id: String
  /// The header text.
  public var title: String
  /// The column is never narrower than this (columns are dropped instead).
  public var minWidth: Int
  /// The column never grows past this; unbounded when `nil`.
  public var maxWidth: Int?
  /// Lower priorities are dropped first when the width is short.
  public var priority: Int
  /// Where the text sits.
  public var alignment: TableAlignment
  /// How a too-long cell is shortened.
  public var truncation: Truncation
  /// How the column takes width beyond its minimum.
  public var sizing: ColumnSizing
  /// For a ``ColumnSizing/fill`` column: the width it should have before any column of lower
  /// priority is shown. While it is narrower, those columns are dropped, lowest first (a
  /// message's text before its instance and SIM number). Nil: whatever is left.
  public var comfortableWidth: Int?

  /// A column.
  public init(
    id: String, title: String, minWidth: Int = 4, maxWidth: Int? = nil, priority: Int = 0,
    alignment: TableAlignment = .leading, truncation: Truncation = .tail,
    sizing: ColumnSizing = .natural, comfortableWidth: Int? = nil
  ) {
    self.id = id
    self.title = title
    self.minWidth = minWidth
    self.maxWidth = maxWidth
    self.priority = priority
    self.alignment = alignment
    self.truncation = truncation
    self.sizing = sizing
    self.comfortableWidth = comfortableWidth
  }

  enum CodingKeys: String, CodingKey {
    case id, title, minWidth, maxWidth, priority, alignment, truncation, sizing, comfortableWidth
  }

  /// Decodes a column; `sizing` may be absent (then `natural`), as in trees written before it,
  /// and `comfortableWidth` too.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(String.self, forKey: .id),
      title: try container.decode(String.self, forKey: .title),
      minWidth: try container.decode(Int.self, forKey: .minWidth),
      maxWidth: try container.decodeIfPresent(Int.self, forKey: .maxWidth),
      priority: try container.decode(Int.self, forKey: .priority),
      alignment: try container.decode(TableAlignment.self, forKey: .alignment),
      truncation: try container.decode(Truncation.self, forKey: .truncation),
      sizing: try container.decodeIfPresent(ColumnSizing.self, forKey: .sizing) ?? .natural,
      comfortableWidth: try container.decodeIfPresent(Int.self, forKey: .comfortableWidth))
  }

  /// Encodes the column; `sizing` only when it is not `natural`, `comfortableWidth` when set.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encode(minWidth, forKey: .minWidth)
    try container.encodeIfPresent(maxWidth, forKey: .maxWidth)
    try container.encode(priority, forKey: .priority)
    try container.encode(alignment, forKey: .alignment)
    try container.encode(truncation, forKey: .truncation)
    if sizing != .natural { try container.encode(sizing, forKey: .sizing) }
    try container.encodeIfPresent(comfortableWidth, forKey: .comfortableWidth)
  }
}

/// A table row with a stable id.
public struct TableRow: Codable, Sendable, Equatable, Identifiable {
  /// Stable across refreshes.
  public var id: String
  /// One cell per column, in column order.
  public var cells: [TableCell]
  /// The route that Enter opens for this row (e.g. `fleet/3f2a…`), if any.
  public var link: String?
  /// What the console's `c` copies for this row (a message's verification code), if anything.
  /// Kept in memory only: never encoded, so a view document, `msa view --json` or a snapshot
  /// never carries it, however masked the cells are.
  public var copyValue: String?

  enum CodingKeys: String, CodingKey {
    case id, cells, link
  }

  /// A row.
  public init(id: String, cells: [TableCell], link: String? = nil, copyValue: String? = nil) {
    self.id = id
    self.cells = cells
    self.link = link
    self.copyValue = copyValue
  }
}

/// One table cell.
public struct TableCell: Codable, Sendable, Equatable, ExpressibleByStringLiteral {
  /// The text.
  public var text: String
  /// Its colour; ordinary text when `nil`.
  public var tone: Tone?

  /// A cell.
  public init(_ text: String, tone: Tone? = nil) {
    self.text = text
    self.tone = tone
  }

  /// A plain cell from a literal.
  public init(stringLiteral value: String) {
    self.init(value)
  }
}
