/// The semantic colour of a badge, banner, value or cell; never a raw colour.
public enum Tone: String, Codable, Sendable, CaseIterable {
  /// Ordinary text colour.
  case neutral
  /// Informational.
  case info
  /// Something worked or is healthy.
  case success
  /// Needs attention soon.
  case warning
  /// Failed, broken or destructive.
  case danger
  /// De-emphasised.
  case muted
  /// The brand colour.
  case brand
  /// The primary-action colour.
  case primary

  /// The theme token this tone is drawn with.
  public var tokenName: String {
    switch self {
    case .neutral: "semantic.ink"
    case .info: "semantic.info"
    case .success: "semantic.success"
    case .warning: "semantic.warning"
    case .danger: "semantic.danger"
    case .muted: "semantic.muted"
    case .brand: "semantic.brand"
    case .primary: "semantic.primary"
    }
  }
}

/// The role of a run of text.
public enum TextStyle: String, Codable, Sendable, CaseIterable {
  /// A screen-level title.
  case title
  /// A heading inside a screen.
  case headline
  /// Ordinary text.
  case body
  /// Small print.
  case caption
  /// De-emphasised text.
  case muted
  /// Commands, identifiers, addresses.
  case code
  /// Stressed text.
  case emphasis

  /// The theme token this style's colour comes from.
  public var tokenName: String {
    switch self {
    case .title: "semantic.brand"
    case .headline, .body, .emphasis: "semantic.ink"
    case .caption, .muted: "semantic.muted"
    case .code: "semantic.primary"
    }
  }
}

/// How a button presents its command.
public enum ButtonRole: String, Codable, Sendable, CaseIterable {
  /// The main action of a screen.
  case primary
  /// Any other action.
  case secondary
  /// An action that deletes or cannot be undone.
  case destructive

  /// The theme token of the button's label.
  public var tokenName: String {
    switch self {
    case .primary: "semantic.primary"
    case .secondary: "semantic.ink"
    case .destructive: "semantic.danger"
    }
  }
}
