/// One string a phone screen shows, with the kind of place it is shown in (which decides
/// whether it must fit on one line, see ``PhoneFit``).
public struct PhoneText: Sendable, Hashable {
  /// Where a string is shown.
  public enum Role: String, Sendable, Hashable, CaseIterable {
    /// The navigation bar's inline title (one line).
    case title
    /// A home screen's large title (one line).
    case largeTitle
    /// A full-width button (one line).
    case button
    /// A text button in the navigation bar or a toolbar (one line).
    case toolbar
    /// An item of a pull-down menu (two lines at most).
    case menu
    /// A filter chip in a horizontally scrolling bar (one line).
    case chip
    /// A status badge beside a row's title (one line).
    case badge
    /// A swipe action (one line).
    case swipe
    /// A button of a confirmation dialog or alert (one line).
    case dialogButton
    /// A row's label, a section header (may wrap).
    case label
    /// Ordinary text (wraps).
    case body
    /// A device's or a user's own text (an SMS, a name): shown as it is, never checked for
    /// wording, and allowed to wrap or be cut.
    case foreign
  }

  /// The text.
  public var text: String
  /// Where it is shown.
  public var role: Role

  /// A string in a place.
  public init(_ text: String, _ role: Role = .body) {
    self.text = text
    self.role = role
  }
}

/// What a phone screen shows, in words: the walk's transcript and what its checks read.
public struct PhoneOutline: Sendable, Equatable {
  /// A row: a label and its value (a table cell keeps its column title as the label), or a
  /// line of parts, with the actions it offers.
  public struct Row: Sendable, Equatable {
    /// The label (a key, a column title), if any.
    public var label: PhoneText?
    /// The parts shown (value, subtitle, badges).
    public var parts: [PhoneText]
    /// The actions on the row (tap, swipe, its buttons).
    public var actions: [PhoneText]

    /// A row.
    public init(label: PhoneText? = nil, _ parts: [PhoneText], actions: [PhoneText] = []) {
      self.label = label
      self.parts = parts
      self.actions = actions
    }

    /// `label: value`.
    public static func pair(_ label: String, _ value: String, valueRole: PhoneText.Role = .body)
      -> Row
    {
      Row(label: PhoneText(label, .label), [PhoneText(value, valueRole)])
    }
  }

  /// A group of rows under an optional header.
  public struct Section: Sendable, Equatable {
    /// The header.
    public var title: PhoneText?
    /// The rows.
    public var rows: [Row]

    /// A section.
    public init(_ title: String? = nil, rows: [Row]) {
      self.title = title.map { PhoneText($0, .label) }
      self.rows = rows
    }
  }

  /// A field the user fills in.
  public struct Input: Sendable, Equatable {
    /// The field's label.
    public var label: PhoneText
    /// What it holds (a secret shown as dots).
    public var value: String
    /// `text`, `secure`, `picker`, `toggle`, `number` …
    public var kind: String
    /// A picker's choices.
    public var options: [PhoneText]
    /// What is wrong with it now.
    public var problem: PhoneText?

    /// A field.
    public init(
      _ label: String, value: String, kind: String = "text", options: [String] = [],
      problem: String? = nil
    ) {
      self.label = PhoneText(label, .label)
      self.value = kind == "secure" ? String(repeating: "•", count: value.count) : value
      self.kind = kind
      self.options = options.map { PhoneText($0, .body) }
      self.problem = problem.map { PhoneText($0, .body) }
    }
  }

  /// A confirmation or alert waiting for an answer.
  public struct Dialog: Sendable, Equatable {
    /// The question.
    public var title: PhoneText
    /// What it explains.
    public var message: PhoneText?
    /// Its buttons.
    public var buttons: [PhoneText]

    /// A dialog.
    public init(_ title: String, message: String? = nil, buttons: [String]) {
      self.title = PhoneText(title, .body)
      self.message = message.map { PhoneText($0, .body) }
      self.buttons = buttons.map { PhoneText($0, .dialogButton) }
    }
  }

  /// The navigation bar's title.
  public var title: PhoneText
  /// State lines above the content: loading, empty, failed, a sync in progress.
  public var status: [PhoneText]
  /// The content.
  public var sections: [Section]
  /// The screen's actions (toolbar, buttons, menus).
  public var actions: [PhoneText]
  /// Its fields.
  public var inputs: [Input]
  /// What the last action came to.
  public var notice: PhoneText?
  /// A confirmation waiting.
  public var dialog: Dialog?

  /// An outline.
  public init(
    title: PhoneText, status: [PhoneText] = [], sections: [Section] = [],
    actions: [PhoneText] = [], inputs: [Input] = [], notice: PhoneText? = nil,
    dialog: Dialog? = nil
  ) {
    self.title = title
    self.status = status
    self.sections = sections
    self.actions = actions
    self.inputs = inputs
    self.notice = notice
    self.dialog = dialog
  }

  /// Every string on the screen.
  public var texts: [PhoneText] {
    var all = [title] + status + actions
    for section in sections {
      all += section.title.map { [$0] } ?? []
      for row in section.rows {
        all += (row.label.map { [$0] } ?? []) + row.parts + row.actions
      }
    }
    for input in inputs {
      all += [input.label] + input.options + (input.problem.map { [$0] } ?? [])
    }
    all += notice.map { [$0] } ?? []
    if let dialog {
      all += [dialog.title] + (dialog.message.map { [$0] } ?? []) + dialog.buttons
    }
    return all
  }

  /// The outline as transcript lines: title, status, sections and rows, inputs, actions,
  /// notice and dialog, each on its own line.
  public var lines: [String] {
    var lines = ["title: \(title.text)"]
    lines += status.map { "status: \($0.text)" }
    for section in sections {
      if let title = section.title { lines.append("section: \(title.text)") }
      for row in section.rows {
        var line = "  - "
        if let label = row.label { line += label.text + ": " }
        line += row.parts.map(\.text).filter { !$0.isEmpty }.joined(separator: " · ")
        if !row.actions.isEmpty {
          line += "  [" + row.actions.map(\.text).joined(separator: " | ") + "]"
        }
        lines.append(line)
      }
    }
    for input in inputs {
      var line = "input (\(input.kind)): \(input.label.text) = \(input.value)"
      if !input.options.isEmpty {
        line += "  {" + input.options.map(\.text).joined(separator: " | ") + "}"
      }
      if let problem = input.problem { line += "  ! " + problem.text }
      lines.append(line)
    }
    if !actions.isEmpty {
      lines.append("actions: " + actions.map { "[\($0.text)]" }.joined(separator: " "))
    }
    if let notice { lines.append("notice: \(notice.text)") }
    if let dialog {
      var line = "dialog: \(dialog.title.text)"
      if let message = dialog.message { line += " — " + message.text }
      line += "  " + dialog.buttons.map { "[\($0.text)]" }.joined(separator: " ")
      lines.append(line)
    }
    return lines.map { $0.replacingOccurrences(of: "\n", with: " ⏎ ") }
  }
}
