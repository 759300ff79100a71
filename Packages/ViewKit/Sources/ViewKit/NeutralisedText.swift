import Essentials

/// The renderer's boundary for untrusted text: every string of a view tree with its controls
/// replaced by visible stand-ins (``UntrustedText``) before anything is measured, wrapped or
/// cut, so widths are those of what is shown and a cut can never split an escape sequence.
///
/// Where a node shows several lines (a text, a value, a banner, a message) a line feed stays a
/// line break and a tab becomes spaces; where it shows one line (a table cell, a title, a
/// list row, a badge) a line feed is `⏎` and a tab one space.
enum NeutralisedText {
  /// `node` with every string neutralised; `node` itself (no copy) when nothing needs it.
  static func of(_ node: ViewNode) -> ViewNode {
    var node = node
    node.neutraliseText()
    return node
  }

  /// Replaces `value` when it holds a control; a clean value is left untouched (no write, so
  /// no copy of the tree around it).
  static func fix(_ value: inout String, _ lineFeeds: UntrustedText.LineFeeds) {
    if let shown = UntrustedText.neutralisedIfNeeded(value, lineFeeds: lineFeeds) {
      value = shown
    }
  }

  static func fix(_ value: inout String?, _ lineFeeds: UntrustedText.LineFeeds) {
    if let text = value, let shown = UntrustedText.neutralisedIfNeeded(text, lineFeeds: lineFeeds) {
      value = shown
    }
  }

  /// Whether a string needs fixing (read only: a clean tree is never written to).
  static func dirty(_ value: String, _ lineFeeds: UntrustedText.LineFeeds = .symbol) -> Bool {
    let found = value.utf8.withContiguousStorageIfAvailable {
      holdsControl($0, keepingLineFeeds: lineFeeds == .breakLines)
    }
    return found ?? UntrustedText.needsNeutralising(value, lineFeeds: lineFeeds)
  }

  /// ``UntrustedText/needsNeutralising(_:lineFeeds:)`` read on valid UTF-8 bytes, without
  /// decoding scalars: C0 and DEL (a line feed only unless kept), C1 (`C2 80`–`C2 9F`), the
  /// Arabic letter mark (`D8 9C`) and the bidi marks, embeddings, overrides and isolates
  /// (`E2 80 8E`–`8F`, `E2 80 AA`–`AE`, `E2 81 A6`–`A9`).
  static func holdsControl(_ bytes: UnsafeBufferPointer<UInt8>, keepingLineFeeds: Bool) -> Bool {
    let count = bytes.count
    var index = 0
    while index < count {
      let byte = bytes[index]
      index += 1
      if byte >= 0x20 && byte < 0x7F { continue }
      if byte < 0x20 {
        if byte == 0x0A && keepingLineFeeds { continue }
        return true
      }
      if byte == 0x7F { return true }
      let next = index < count ? bytes[index] : 0
      switch byte {
      case 0xC2 where (0x80...0x9F).contains(next): return true
      case 0xD8 where next == 0x9C: return true
      case 0xE2 where index + 1 < count:
        let last = bytes[index + 1]
        if next == 0x80 && (last == 0x8E || last == 0x8F || (0xAA...0xAE).contains(last)) {
          return true
        }
        if next == 0x81 && (0xA6...0xA9).contains(last) { return true }
      default: break
      }
    }
    return false
  }

  static func dirty(_ value: String?, _ lineFeeds: UntrustedText.LineFeeds = .symbol) -> Bool {
    value.map { dirty($0, lineFeeds) } ?? false
  }
}

extension ViewNode {
  /// Neutralises every string of the tree in place; whether anything changed.
  @discardableResult
  mutating func neutraliseText() -> Bool {
    switch self {
    case .screen(var screen):
      guard screen.neutralise() else { return false }
      self = .screen(screen)
      return true
    case .section(var section):
      guard section.neutralise() else { return false }
      self = .section(section)
      return true
    case .card(var card):
      guard card.neutralise() else { return false }
      self = .card(card)
      return true
    case .stack(var nodes):
      guard Self.neutralise(&nodes) else { return false }
      self = .stack(nodes)
      return true
    case .inline(var nodes):
      guard Self.neutralise(&nodes) else { return false }
      self = .inline(nodes)
      return true
    case .keyValue(var row):
      guard NeutralisedText.dirty(row.key) || NeutralisedText.dirty(row.value, .breakLines) else {
        return false
      }
      NeutralisedText.fix(&row.key, .symbol)
      NeutralisedText.fix(&row.value, .breakLines)
      self = .keyValue(row)
      return true
    case .list(var list):
      guard list.neutralise() else { return false }
      self = .list(list)
      return true
    case .table(var table):
      guard table.neutralise() else { return false }
      self = .table(table)
      return true
    case .badge(var badge):
      guard NeutralisedText.dirty(badge.text) else { return false }
      NeutralisedText.fix(&badge.text, .symbol)
      self = .badge(badge)
      return true
    case .text(var text):
      guard NeutralisedText.dirty(text.text, .breakLines) else { return false }
      NeutralisedText.fix(&text.text, .breakLines)
      self = .text(text)
      return true
    case .button(var button):
      guard button.neutralise() else { return false }
      self = .button(button)
      return true
    case .field(var field):
      guard
        NeutralisedText.dirty(field.label) || NeutralisedText.dirty(field.value, .breakLines)
          || NeutralisedText.dirty(field.placeholder)
          || NeutralisedText.dirty(field.message, .breakLines)
      else { return false }
      NeutralisedText.fix(&field.label, .symbol)
      NeutralisedText.fix(&field.value, .breakLines)
      NeutralisedText.fix(&field.placeholder, .symbol)
      NeutralisedText.fix(&field.message, .breakLines)
      self = .field(field)
      return true
    case .empty(var empty):
      var action = empty.action
      let actionChanged = action?.neutralise() ?? false
      guard
        actionChanged || NeutralisedText.dirty(empty.title, .breakLines)
          || NeutralisedText.dirty(empty.message, .breakLines)
      else { return false }
      NeutralisedText.fix(&empty.title, .breakLines)
      NeutralisedText.fix(&empty.message, .breakLines)
      empty.action = action
      self = .empty(empty)
      return true
    case .error(var error):
      guard
        NeutralisedText.dirty(error.title, .breakLines)
          || NeutralisedText.dirty(error.message, .breakLines)
          || NeutralisedText.dirty(error.retryCommand)
      else { return false }
      NeutralisedText.fix(&error.title, .breakLines)
      NeutralisedText.fix(&error.message, .breakLines)
      NeutralisedText.fix(&error.retryCommand, .symbol)
      self = .error(error)
      return true
    case .banner(var banner):
      guard NeutralisedText.dirty(banner.text, .breakLines) else { return false }
      NeutralisedText.fix(&banner.text, .breakLines)
      self = .banner(banner)
      return true
    case .progress(var progress):
      guard NeutralisedText.dirty(progress.label) else { return false }
      NeutralisedText.fix(&progress.label, .symbol)
      self = .progress(progress)
      return true
    }
  }

  /// Neutralises `nodes`; whether any changed (the array is written only then).
  static func neutralise(_ nodes: inout [ViewNode]) -> Bool {
    var changed = false
    for index in nodes.indices {
      var node = nodes[index]
      if node.neutraliseText() {
        nodes[index] = node
        changed = true
      }
    }
    return changed
  }
}

extension Screen {
  mutating func neutralise() -> Bool {
    let children = ViewNode.neutralise(&self.children)
    guard children || NeutralisedText.dirty(title) || NeutralisedText.dirty(subtitle) else {
      return false
    }
    NeutralisedText.fix(&title, .symbol)
    NeutralisedText.fix(&subtitle, .symbol)
    return true
  }
}

extension Section {
  mutating func neutralise() -> Bool {
    let children = ViewNode.neutralise(&self.children)
    guard children || NeutralisedText.dirty(title) else { return false }
    NeutralisedText.fix(&title, .symbol)
    return true
  }
}

extension Card {
  mutating func neutralise() -> Bool {
    let children = ViewNode.neutralise(&self.children)
    guard children || NeutralisedText.dirty(title) else { return false }
    NeutralisedText.fix(&title, .symbol)
    return true
  }
}

extension Button {
  mutating func neutralise() -> Bool {
    guard NeutralisedText.dirty(title) || NeutralisedText.dirty(command) else { return false }
    NeutralisedText.fix(&title, .symbol)
    NeutralisedText.fix(&command, .symbol)
    return true
  }
}

extension ListNode {
  mutating func neutralise() -> Bool {
    var changed = false
    for index in items.indices {
      let item = items[index]
      guard
        NeutralisedText.dirty(item.title) || NeutralisedText.dirty(item.subtitle)
          || NeutralisedText.dirty(item.trailing)
          || item.badges.contains(where: { NeutralisedText.dirty($0.text) })
      else { continue }
      var fixed = item
      NeutralisedText.fix(&fixed.title, .symbol)
      NeutralisedText.fix(&fixed.subtitle, .symbol)
      NeutralisedText.fix(&fixed.trailing, .symbol)
      for badge in fixed.badges.indices {
        NeutralisedText.fix(&fixed.badges[badge].text, .symbol)
      }
      items[index] = fixed
      changed = true
    }
    return changed
  }
}

extension Table {
  mutating func neutralise() -> Bool {
    var changed = false
    for index in columns.indices where NeutralisedText.dirty(columns[index].title) {
      NeutralisedText.fix(&columns[index].title, .symbol)
      changed = true
    }
    // Read in place (a large table's rows and cells are not copied to be looked at).
    let dirtyRows = rows.withUnsafeBufferPointer { rows in
      rows.indices.filter { row in
        rows[row].cells.withUnsafeBufferPointer { cells in
          cells.indices.contains { NeutralisedText.dirty(cells[$0].text) }
        }
      }
    }
    for index in dirtyRows {
      var cells = rows[index].cells
      for cell in cells.indices { NeutralisedText.fix(&cells[cell].text, .symbol) }
      rows[index].cells = cells
      changed = true
    }
    return changed
  }
}
