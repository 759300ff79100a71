/// A short status label in a tone: `[online]`.
public struct Badge: Codable, Sendable, Equatable {
  /// The label.
  public var text: String
  /// Its colour.
  public var tone: Tone

  /// A badge.
  public init(_ text: String, tone: Tone = .neutral) {
    self.text = text
    self.tone = tone
  }
}

/// A run of text with a style.
public struct Text: Codable, Sendable, Equatable {
  /// The text; newlines start new paragraphs.
  public var text: String
  /// Its role.
  public var style: TextStyle

  /// Text.
  public init(_ text: String, style: TextStyle = .body) {
    self.text = text
    self.style = style
  }
}

/// An action bound to a command line, e.g. `fleet test n1`.
public struct Button: Codable, Sendable, Equatable {
  /// The label.
  public var title: String
  /// What runs when it is chosen: `msa` arguments without the program name.
  public var command: String
  /// Its emphasis.
  public var role: ButtonRole

  /// A button.
  public init(title: String, command: String, role: ButtonRole = .secondary) {
    self.title = title
    self.command = command
    self.role = role
  }
}

/// A form field with its current value and validation message.
public struct FormField: Codable, Sendable, Equatable, Identifiable {
  /// Stable id (the option it fills).
  public var id: String
  /// The label.
  public var label: String
  /// The current value.
  public var value: String
  /// Shown, muted, when the value is empty.
  public var placeholder: String?
  /// What is wrong with the value; shown under it in the danger tone.
  public var message: String?
  /// Passwords: the value is never shown.
  public var isSecure: Bool

  /// A field.
  public init(
    id: String, label: String, value: String = "", placeholder: String? = nil,
    message: String? = nil, isSecure: Bool = false
  ) {
    self.id = id
    self.label = label
    self.value = value
    self.placeholder = placeholder
    self.message = message
    self.isSecure = isSecure
  }
}

/// What a screen shows when there is nothing yet.
public struct EmptyState: Codable, Sendable, Equatable {
  /// The headline.
  public var title: String
  /// One or two sentences.
  public var message: String?
  /// The way out, e.g. "Add a device".
  public var action: Button?

  /// An empty state.
  public init(title: String, message: String? = nil, action: Button? = nil) {
    self.title = title
    self.message = message
    self.action = action
  }
}

/// What a screen shows when loading failed.
public struct ErrorState: Codable, Sendable, Equatable {
  /// The headline.
  public var title: String
  /// What went wrong, in plain words.
  public var message: String
  /// The command that tries again.
  public var retryCommand: String?

  /// An error state.
  public init(title: String, message: String, retryCommand: String? = nil) {
    self.title = title
    self.message = message
    self.retryCommand = retryCommand
  }
}

/// A one-line notice with a tone symbol: ℹ ⚠ ✖ ✔.
public struct Banner: Codable, Sendable, Equatable {
  /// The notice.
  public var text: String
  /// Its tone; chooses the symbol and colour.
  public var tone: Tone

  /// A banner.
  public init(_ text: String, tone: Tone = .info) {
    self.text = text
    self.tone = tone
  }
}

/// Work done so far: `Syncing [#####-----] 5/10`.
public struct Progress: Codable, Sendable, Equatable {
  /// What is in progress.
  public var label: String
  /// Units finished.
  public var completed: Int
  /// Units in all; unknown when `nil`.
  public var total: Int?

  /// A progress line.
  public init(label: String, completed: Int, total: Int? = nil) {
    self.label = label
    self.completed = completed
    self.total = total
  }
}
