import ViewKit

/// A row the cursor can stand on: from the first table or list of a view.
public struct SelectableRow: Sendable, Equatable {
  /// The row's stable id.
  public let id: String
  /// The route Enter opens, if any.
  public let link: String?
  /// All its text, for filtering.
  public let text: String
}

/// Finding, filtering and decorating the selectable rows of a view tree.
public enum SelectableRows {
  /// The rows of the first table or list in `view`, depth first.
  public static func rows(in view: ViewNode?) -> [SelectableRow] {
    guard let view else { return [] }
    switch view {
    case .table(let table):
      return table.rows.map { row in
        SelectableRow(
          id: row.id, link: row.link, text: row.cells.map(\.text).joined(separator: " "))
      }
    case .list(let list):
      return list.items.map { item in
        let text =
          [item.title, item.subtitle ?? "", item.trailing ?? ""]
          + item.badges.map(\.text)
        return SelectableRow(id: item.id, link: item.link, text: text.joined(separator: " "))
      }
    default:
      for child in view.children {
        let found = rows(in: child)
        if !found.isEmpty { return found }
      }
      return []
    }
  }

  /// Names of the rows of the first table or list, by id: the cells of `columns` joined by
  /// " · " (all of them, uncut), else a table row's first cell or a list item's title.
  public static func names(in view: ViewNode?, columns: [String]) -> [String: String] {
    guard let view else { return [:] }
    switch view {
    case .table(let table):
      let indices = columns.compactMap { id in table.columns.firstIndex { $0.id == id } }
      return Dictionary(
        table.rows.map { row in
          let cells = (indices.isEmpty ? [0] : indices).compactMap {
            row.cells.indices.contains($0) ? row.cells[$0].text : nil
          }.filter { !$0.isEmpty }
          return (row.id, cells.joined(separator: " · "))
        }, uniquingKeysWith: { first, _ in first })
    case .list(let list):
      return Dictionary(
        list.items.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
    default:
      for child in view.children {
        let found = names(in: child, columns: columns)
        if !found.isEmpty { return found }
      }
      return [:]
    }
  }

  /// The values of the form fields in `view`, by field id.
  public static func fields(in view: ViewNode?) -> [String: String] {
    guard let view else { return [:] }
    if case .field(let field) = view { return [field.id: field.value] }
    return view.children.reduce(into: [:]) { found, child in
      found.merge(fields(in: child)) { first, _ in first }
    }
  }

  /// Whether `row` passes a filter (case-insensitive substring; empty passes all).
  public static func matches(_ row: SelectableRow, _ filter: String) -> Bool {
    filter.isEmpty || row.text.localizedCaseInsensitiveContains(filter)
  }

  /// `view` with the first table or list filtered, the cursor and marks set, and pending rows
  /// flagged with a leading `…`.
  public static func decorate(
    _ view: ViewNode, keep: (SelectableRow) -> Bool, cursor: String?, marked: Set<String>,
    pending: Set<String>
  ) -> ViewNode {
    var done = false
    return decorate(
      view, keep: keep, cursor: cursor, marked: marked, pending: pending, done: &done)
  }

  private static func decorate(
    _ view: ViewNode, keep: (SelectableRow) -> Bool, cursor: String?, marked: Set<String>,
    pending: Set<String>, done: inout Bool
  ) -> ViewNode {
    guard !done else { return view }
    func children(_ nodes: [ViewNode]) -> [ViewNode] {
      nodes.map {
        decorate($0, keep: keep, cursor: cursor, marked: marked, pending: pending, done: &done)
      }
    }
    switch view {
    case .table(var table):
      done = true
      table.rows = table.rows.filter { row in
        keep(
          SelectableRow(
            id: row.id, link: row.link, text: row.cells.map(\.text).joined(separator: " ")))
      }.map { row in
        guard pending.contains(row.id), !row.cells.isEmpty else { return row }
        var row = row
        row.cells[0].text = "… " + row.cells[0].text
        return row
      }
      table.selectedID = cursor
      table.markedIDs = table.rows.map(\.id).filter(marked.contains)
      return .table(table)
    case .list(var list):
      done = true
      let rows = Dictionary(
        rows(in: .list(list)).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      list.items = list.items.filter { item in rows[item.id].map(keep) ?? true }.map { item in
        guard pending.contains(item.id) else { return item }
        var item = item
        item.title = "… " + item.title
        return item
      }
      list.selectedID = cursor
      list.markedIDs = list.items.map(\.id).filter(marked.contains)
      return .list(list)
    case .screen(var screen):
      screen.children = children(screen.children)
      return .screen(screen)
    case .section(var section):
      section.children = children(section.children)
      return .section(section)
    case .card(var card):
      card.children = children(card.children)
      return .card(card)
    case .stack(let nodes):
      return .stack(children(nodes))
    default:
      return view
    }
  }
}
