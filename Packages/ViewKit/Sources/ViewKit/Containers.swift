/// A whole page: a title, an optional subtitle, then its content.
public struct Screen: Codable, Sendable, Equatable {
  /// Shown first, in the brand colour.
  public var title: String
  /// One line under the title.
  public var subtitle: String?
  /// The content.
  public var children: [ViewNode]

  /// A screen.
  public init(title: String, subtitle: String? = nil, children: [ViewNode] = []) {
    self.title = title
    self.subtitle = subtitle
    self.children = children
  }
}

/// A titled group of content without a frame.
public struct Section: Codable, Sendable, Equatable {
  /// The heading; none for an untitled group.
  public var title: String?
  /// The content.
  public var children: [ViewNode]

  /// A section.
  public init(title: String? = nil, children: [ViewNode] = []) {
    self.title = title
    self.children = children
  }
}

/// A framed group of content.
public struct Card: Codable, Sendable, Equatable {
  /// Shown in the frame's top edge.
  public var title: String?
  /// The content.
  public var children: [ViewNode]

  /// A card.
  public init(title: String? = nil, children: [ViewNode] = []) {
    self.title = title
    self.children = children
  }
}
