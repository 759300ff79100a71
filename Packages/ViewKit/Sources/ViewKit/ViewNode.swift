import Foundation

/// One node of a view tree: semantic content that every renderer maps to its own platform.
///
/// Encoded as one flat object with a `type` tag: `{"type": "keyValue", "key": "…", "value": "…"}`;
/// `stack` and `inline` keep their nodes under `children`.
public indirect enum ViewNode: Codable, Sendable, Equatable {
  /// A whole page.
  case screen(Screen)
  /// A titled group without a frame.
  case section(Section)
  /// A framed group.
  case card(Card)
  /// A vertical group with no chrome.
  case stack([ViewNode])
  /// A labelled value.
  case keyValue(KeyValue)
  /// Items with stable ids.
  case list(ListNode)
  /// Rows and columns.
  case table(Table)
  /// A status label.
  case badge(Badge)
  /// Styled text.
  case text(Text)
  /// An action bound to a command.
  case button(Button)
  /// A form field.
  case field(FormField)
  /// Nothing to show yet.
  case empty(EmptyState)
  /// Loading failed.
  case error(ErrorState)
  /// A notice.
  case banner(Banner)
  /// Work in progress.
  case progress(Progress)
  /// A horizontal run of small nodes (badges, text, buttons), wrapping when needed.
  case inline([ViewNode])

  /// The `type` tag this node is encoded with.
  public var typeName: String {
    switch self {
    case .screen: "screen"
    case .section: "section"
    case .card: "card"
    case .stack: "stack"
    case .keyValue: "keyValue"
    case .list: "list"
    case .table: "table"
    case .badge: "badge"
    case .text: "text"
    case .button: "button"
    case .field: "field"
    case .empty: "empty"
    case .error: "error"
    case .banner: "banner"
    case .progress: "progress"
    case .inline: "inline"
    }
  }

  /// The nodes directly inside this one.
  public var children: [ViewNode] {
    switch self {
    case .screen(let screen): screen.children
    case .section(let section): section.children
    case .card(let card): card.children
    case .stack(let nodes), .inline(let nodes): nodes
    case .empty(let empty): empty.action.map { [.button($0)] } ?? []
    default: []
    }
  }

  // MARK: - Tokens

  /// Every theme token this tree names, sorted: its tones and styles, and the tokens the
  /// renderers use for chrome (ink, muted, line, brand, danger).
  public func tokenNames() -> [String] {
    var names: Set<String> = []
    collectTokens(into: &names)
    return names.sorted()
  }

  func collectTokens(into names: inout Set<String>) {
    names.insert("semantic.ink")
    switch self {
    case .screen: names.formUnion(["semantic.brand", "semantic.muted", "semantic.line"])
    case .card: names.insert("semantic.line")
    case .keyValue(let row):
      names.insert("semantic.muted")
      if let tone = row.tone { names.insert(tone.tokenName) }
    case .list(let list):
      names.insert("semantic.muted")
      for badge in list.items.flatMap(\.badges) { names.insert(badge.tone.tokenName) }
    case .table(let table):
      names.formUnion(["semantic.muted", "semantic.line"])
      for tone in table.rows.flatMap(\.cells).compactMap(\.tone) { names.insert(tone.tokenName) }
    case .badge(let badge): names.insert(badge.tone.tokenName)
    case .text(let text): names.insert(text.style.tokenName)
    case .button(let button): names.insert(button.role.tokenName)
    case .field: names.formUnion(["semantic.muted", "semantic.danger"])
    case .empty: names.insert("semantic.muted")
    case .error: names.formUnion(["semantic.danger", "semantic.muted"])
    case .banner(let banner): names.insert(banner.tone.tokenName)
    case .progress: names.formUnion(["semantic.primary", "semantic.muted"])
    case .section, .stack, .inline: break
    }
    for child in children { child.collectTokens(into: &names) }
  }

  // MARK: - Coding

  enum TagKey: String, CodingKey {
    case type
    case children
  }

  /// Decodes a tagged node; an unknown `type` is a `DecodingError.dataCorrupted` naming it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: TagKey.self)
    let type = try container.decode(String.self, forKey: .type)
    switch type {
    case "screen": self = .screen(try Screen(from: decoder))
    case "section": self = .section(try Section(from: decoder))
    case "card": self = .card(try Card(from: decoder))
    case "stack": self = .stack(try container.decode([ViewNode].self, forKey: .children))
    case "keyValue": self = .keyValue(try KeyValue(from: decoder))
    case "list": self = .list(try ListNode(from: decoder))
    case "table": self = .table(try Table(from: decoder))
    case "badge": self = .badge(try Badge(from: decoder))
    case "text": self = .text(try Text(from: decoder))
    case "button": self = .button(try Button(from: decoder))
    case "field": self = .field(try FormField(from: decoder))
    case "empty": self = .empty(try EmptyState(from: decoder))
    case "error": self = .error(try ErrorState(from: decoder))
    case "banner": self = .banner(try Banner(from: decoder))
    case "progress": self = .progress(try Progress(from: decoder))
    case "inline": self = .inline(try container.decode([ViewNode].self, forKey: .children))
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container,
        debugDescription: ViewKitStrings.text(
          "view.unknownType", .english, ["type": type]))
    }
  }

  /// Encodes the node's fields and its `type` tag into one object.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .screen(let value): try value.encode(to: encoder)
    case .section(let value): try value.encode(to: encoder)
    case .card(let value): try value.encode(to: encoder)
    case .stack(let nodes), .inline(let nodes):
      var container = encoder.container(keyedBy: TagKey.self)
      try container.encode(nodes, forKey: .children)
    case .keyValue(let value): try value.encode(to: encoder)
    case .list(let value): try value.encode(to: encoder)
    case .table(let value): try value.encode(to: encoder)
    case .badge(let value): try value.encode(to: encoder)
    case .text(let value): try value.encode(to: encoder)
    case .button(let value): try value.encode(to: encoder)
    case .field(let value): try value.encode(to: encoder)
    case .empty(let value): try value.encode(to: encoder)
    case .error(let value): try value.encode(to: encoder)
    case .banner(let value): try value.encode(to: encoder)
    case .progress(let value): try value.encode(to: encoder)
    }
    var container = encoder.container(keyedBy: TagKey.self)
    try container.encode(typeName, forKey: .type)
  }
}
