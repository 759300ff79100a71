import Essentials
import FeatureKit
import Foundation
import ThemeKit
import ViewKit

/// A colour of the theme for the phone in both appearances, as red, green and blue from 0 to 1.
public struct PhoneInk: Sendable, Equatable {
  /// In light appearance.
  public var light: [Double]
  /// In dark appearance.
  public var dark: [Double]

  /// The ink of `tone` from the theme's tokens; nil when the theme lacks them.
  public static func of(_ tone: Tone?, theme: Theme = .standard) -> PhoneInk? {
    guard let tone,
      let light = theme.color(named: tone.tokenName, appearance: .light),
      let dark = theme.color(named: tone.tokenName, appearance: .dark)
    else { return nil }
    let parts = { (color: RGBColor) in [color.r, color.g, color.b].map { Double($0) / 255 } }
    return PhoneInk(light: parts(light), dark: parts(dark))
  }
}

/// A short status label with its colour.
public struct PhoneBadge: Sendable, Equatable {
  /// The label.
  public var text: String
  /// Its colour.
  public var ink: PhoneInk?
}

/// One row of a phone screen's list.
public struct PhoneRow: Sendable, Equatable, Identifiable {
  /// What the row shows.
  public enum Kind: Sendable, Equatable {
    /// A row of a table or list: the cursor can stand on it, actions apply to it.
    case item
    /// A key and its value (`LabeledContent`).
    case keyValue
    /// A line of text, a banner, a progress line or a button's title.
    case text
    /// A form field shown on the screen (its value in `detail`).
    case field
  }

  /// Unique in its screen; an item's own row id.
  public var id: String
  /// What it is.
  public var kind: Kind
  /// The main text (an item's name, a key, a line).
  public var title: String
  /// Smaller text under it (an item's other cells).
  public var subtitle: String?
  /// Text at the trailing edge (a value, a count).
  public var detail: String?
  /// The colour of the row's text or value, from a theme token.
  public var ink: PhoneInk?
  /// Badges after the title.
  public var badges: [PhoneBadge]
  /// The route tapping it opens.
  public var link: String?
  /// Whether it is marked for a batch action.
  public var isMarked: Bool
  /// Whether an action of its is still running.
  public var isPending: Bool

  /// A row.
  public init(
    id: String, kind: Kind, title: String, subtitle: String? = nil, detail: String? = nil,
    tone: Tone? = nil, badges: [Badge] = [], link: String? = nil, isMarked: Bool = false,
    isPending: Bool = false
  ) {
    self.id = id
    self.kind = kind
    self.title = title
    self.subtitle = subtitle
    self.detail = detail
    ink = PhoneInk.of(tone)
    self.badges = badges.map { PhoneBadge(text: $0.text, ink: PhoneInk.of($0.tone)) }
    self.link = link
    self.isMarked = isMarked
    self.isPending = isPending
  }
}

/// One section of a phone screen's list.
public struct PhoneSection: Sendable, Equatable, Identifiable {
  /// Its place on the screen.
  public var id: Int
  /// Its header.
  public var title: String?
  /// Its rows.
  public var rows: [PhoneRow]
}

/// What a phone screen shows instead of a list.
public enum PhonePlaceholder: Sendable, Equatable {
  /// Loading for the first time.
  case loading
  /// Nothing to show (the view's own empty state, or a filter that left no row).
  case empty(title: String, message: String?)
  /// The route failed.
  case failed(title: String, message: String)
}

/// A phone screen: its title and the sections of one `List`, laid out from the route's view
/// tree (the SwiftUI shell only draws this), or a placeholder.
public struct PhoneScreen: Sendable, Equatable {
  /// The navigation title.
  public var title: String
  /// The subtitle, if any.
  public var subtitle: String?
  /// The list's sections.
  public var sections: [PhoneSection]
  /// What to show instead, when there is nothing to list.
  public var placeholder: PhonePlaceholder?

  /// The layout of `screen` in `state` (its rows filtered and searched, marked and pending
  /// rows flagged).
  public static func of(_ screen: ScreenState, in state: AppState, _ context: AppContext)
    -> PhoneScreen
  {
    let fallbackTitle = context.route(screen.path)?.title.resolve(context.language) ?? screen.path
    guard let view = screen.view else {
      return PhoneScreen(title: fallbackTitle, sections: [], placeholder: .loading)
    }
    var layout = PhoneScreen(title: fallbackTitle, sections: [], placeholder: nil)
    let searchable = context.route(screen.path)?.isSearchable ?? false
    let keep: (SelectableRow) -> Bool = {
      SelectableRows.matches($0, screen.filter)
        && SelectableRows.matches($0, searchable ? "" : screen.search)
    }
    var builder = Builder(marked: screen.marked, pending: state.pending, keep: keep)
    builder.add(view, into: &layout)
    builder.finish(into: &layout)
    if layout.placeholder == nil && layout.sections.allSatisfy(\.rows.isEmpty) {
      layout.placeholder = .empty(title: context.string("phone.empty"), message: nil)
    }
    return layout
  }

  /// Flattens the view tree into sections: containers with a title start a section, rows of
  /// tables and lists become items, the rest become key-value or text rows.
  struct Builder {
    let marked: Set<String>
    let pending: Set<String>
    let keep: (SelectableRow) -> Bool
    var title: String?
    var rows: [PhoneRow] = []
    var nextID = 0

    init(marked: Set<String>, pending: Set<String>, keep: @escaping (SelectableRow) -> Bool) {
      self.marked = marked
      self.pending = pending
      self.keep = keep
    }

    mutating func finish(into layout: inout PhoneScreen) {
      if !rows.isEmpty || title != nil {
        layout.sections.append(PhoneSection(id: layout.sections.count, title: title, rows: rows))
      }
      title = nil
      rows = []
    }

    mutating func line(_ text: String, tone: Tone? = nil) {
      nextID += 1
      rows.append(PhoneRow(id: "#\(nextID)", kind: .text, title: text, tone: tone))
    }

    mutating func add(_ view: ViewNode, into layout: inout PhoneScreen) {
      switch view {
      case .screen(let screen):
        if !screen.title.isEmpty { layout.title = screen.title }
        layout.subtitle = screen.subtitle
        for child in screen.children { add(child, into: &layout) }
      case .section(let section):
        finish(into: &layout)
        title = section.title
        for child in section.children { add(child, into: &layout) }
        finish(into: &layout)
      case .card(let card):
        finish(into: &layout)
        title = card.title
        for child in card.children { add(child, into: &layout) }
        finish(into: &layout)
      case .stack(let nodes):
        for node in nodes { add(node, into: &layout) }
      case .inline(let nodes):
        let texts = nodes.compactMap(Self.plainText)
        if !texts.isEmpty { line(texts.joined(separator: " ")) }
      case .keyValue(let pair):
        nextID += 1
        rows.append(
          PhoneRow(
            id: "#\(nextID)", kind: .keyValue, title: pair.key, detail: pair.value, tone: pair.tone
          ))
      case .table(let table):
        for row in table.rows {
          let text = row.cells.map(\.text).joined(separator: " ")
          guard keep(SelectableRow(id: row.id, link: row.link, text: text)) else { continue }
          let rest = row.cells.dropFirst()
          rows.append(
            PhoneRow(
              id: row.id, kind: .item, title: row.cells.first?.text ?? row.id,
              subtitle: rest.filter { $0.tone == nil }.map(\.text).filter { !$0.isEmpty }
                .joined(separator: " · ").nonEmpty,
              badges: rest.compactMap { cell in
                cell.tone.map { Badge(cell.text, tone: $0) }
              }.filter { !$0.text.isEmpty },
              link: row.link, isMarked: marked.contains(row.id),
              isPending: pending.contains(row.id)))
        }
      case .list(let list):
        for item in list.items {
          let text =
            ([item.title, item.subtitle ?? "", item.trailing ?? ""] + item.badges.map(\.text))
            .joined(separator: " ")
          guard keep(SelectableRow(id: item.id, link: item.link, text: text)) else { continue }
          rows.append(
            PhoneRow(
              id: item.id, kind: .item, title: item.title, subtitle: item.subtitle,
              detail: item.trailing, badges: item.badges, link: item.link,
              isMarked: marked.contains(item.id), isPending: pending.contains(item.id)))
        }
      case .badge(let badge):
        nextID += 1
        rows.append(PhoneRow(id: "#\(nextID)", kind: .text, title: "", badges: [badge]))
      case .text(let text):
        line(text.text, tone: text.style == .muted || text.style == .caption ? .muted : nil)
      case .button(let button):
        line(button.title, tone: .primary)
      case .field(let field):
        nextID += 1
        rows.append(
          PhoneRow(
            id: "#\(nextID)", kind: .field, title: field.label,
            detail: field.isSecure ? nil : field.value))
      case .empty(let empty):
        if layout.placeholder == nil {
          layout.placeholder = .empty(title: empty.title, message: empty.message)
        }
      case .error(let error):
        layout.placeholder = .failed(title: error.title, message: error.message)
      case .banner(let banner):
        line(banner.text, tone: banner.tone)
      case .progress(let progress):
        line(
          progress.label + " "
            + (progress.total.map { "\(progress.completed)/\($0)" }
              ?? "\(progress.completed)"))
      }
    }

    static func plainText(_ node: ViewNode) -> String? {
      switch node {
      case .text(let text): text.text
      case .badge(let badge): badge.text
      default: nil
      }
    }
  }
}

/// An action as the phone offers it: on a row (swipe actions, its context menu) or on the
/// screen (the toolbar's menu).
public struct PhoneAction: Sendable, Equatable, Identifiable {
  /// The route action's key, sent back in ``AppMessage/perform(action:)``.
  public var key: Character
  /// Its title in the app's language.
  public var title: String
  /// Whether it asks for a confirmation first (drawn as destructive).
  public var isDestructive: Bool
  /// The key as the identity.
  public var id: Character { key }

  /// The actions of the screen shown: those that act on a row, and those that act on the
  /// screen (or on the marked rows). The refresh action is the pull to refresh, not listed.
  public static func of(_ state: AppState, _ context: AppContext) -> (
    row: [PhoneAction], screen: [PhoneAction]
  ) {
    let all = AppUpdate.actions(state, context).filter { $0.key != RouteAction.refreshKey }
    let make = { (action: RouteAction) in
      PhoneAction(
        key: action.key, title: action.title.resolve(context.language),
        isDestructive: action.confirmation != nil)
    }
    let onRow = { (action: RouteAction) in
      action.needsSelection || action.arguments.contains("{selection}")
    }
    let marked = !state.screen.marked.isEmpty
    return (
      all.filter(onRow).map(make),
      all.filter { !onRow($0) || (marked && $0.opens == nil) }.map(make)
    )
  }
}
