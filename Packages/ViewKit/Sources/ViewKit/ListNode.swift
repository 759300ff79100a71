/// A list of items with stable ids, one line each.
public struct ListNode: Codable, Sendable, Equatable {
  /// The items, in order.
  public var items: [ListItem]
  /// The item the cursor is on.
  public var selectedID: String?
  /// Items chosen for a batch action.
  public var markedIDs: [String]

  /// A list.
  public init(items: [ListItem], selectedID: String? = nil, markedIDs: [String] = []) {
    self.items = items
    self.selectedID = selectedID
    self.markedIDs = markedIDs
  }
}

/// One row of a ``ListNode``.
public struct ListItem: Codable, Sendable, Equatable, Identifiable {
  /// Stable across refreshes, so selection survives them.
  public var id: String
  /// The main text.
  public var title: String
  /// Secondary text after the title.
  public var subtitle: String?
  /// Status badges after the text.
  public var badges: [Badge]
  /// Right-aligned text (a time, a count).
  public var trailing: String?
  /// The route that Enter opens for this item (e.g. `messages/10086`), if any.
  public var link: String?

  /// A list item.
  public init(
    id: String, title: String, subtitle: String? = nil, badges: [Badge] = [],
    trailing: String? = nil, link: String? = nil
  ) {
    self.id = id
    self.title = title
    self.subtitle = subtitle
    self.badges = badges
    self.trailing = trailing
    self.link = link
  }
}
