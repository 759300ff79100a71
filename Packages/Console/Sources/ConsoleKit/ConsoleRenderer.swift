import Essentials
import Foundation
import ThemeKit
import ViewKit

/// Draws the console: exactly `height` lines, none wider than `width`, from the state alone.
///
/// Layout, top to bottom: the tab bar, the screen's path with its search and filter, the
/// body (the route's view through the text renderer, scrolled to keep the cursor row in
/// sight), the status line (last refresh, running work, latest error) and the key line
/// (hints, a prompt or a question). Every piece of text is neutralised (``UntrustedText``)
/// before it is measured and cut; the body is the text renderer's, which does the same.
public enum ConsoleRenderer {
  /// The smallest terminal the console lays out for.
  public static let minimumSize = (width: 40, height: 12)

  /// The screen for `state`.
  public static func render(
    _ state: ConsoleState, context: ConsoleContext, colorMode: ColorMode, theme: Theme,
    timeZone: TimeZone = .current
  ) -> String {
    let width = max(1, state.width)
    let height = max(1, state.height)
    let text = { (key: String, arguments: [String: String]) in context.text(key, arguments) }
    guard width >= minimumSize.width, height >= minimumSize.height else {
      let message = DisplayWidth.truncate(
        text(
          "screen.too-small", ["width": "\(minimumSize.width)", "height": "\(minimumSize.height)"]),
        to: width)
      return ([message] + Array(repeating: "", count: height - 1)).joined(separator: "\n")
    }
    guard !state.tabs.isEmpty else {
      let lines = [text("screen.no-tabs", [:])] + Array(repeating: "", count: height - 1)
      return lines.map { DisplayWidth.truncate($0, to: width) }.joined(separator: "\n")
    }
    let style = Style(colorMode: colorMode, theme: theme)
    let bodyHeight = height - 4
    let top = [
      tabBar(state, width: width, style: style),
      titleLine(state, context, width: width, style: style),
    ]
    let body = bodyLines(
      state, context, width: width, height: bodyHeight, style: style, colorMode: colorMode,
      theme: theme)
    let bottom = [
      statusLine(state, context, width: width, style: style, timeZone: timeZone),
      keyLine(state, context, width: width, style: style),
    ]
    return (top + body + bottom).joined(separator: "\n")
  }

  // MARK: - Chrome

  static func tabBar(_ state: ConsoleState, width: Int, style: Style) -> String {
    let brand = " MultiSimAdmin"
    var line = style.brand(brand)
    var used = DisplayWidth.of(brand)
    for (index, tab) in state.tabs.enumerated() {
      let isActive = index == state.activeTab
      let title = UntrustedText.neutralised(tab.title)
      let label = isActive ? "[\(title)]" : title
      guard used + 2 + DisplayWidth.of(label) <= width else { break }
      line += "  " + (isActive ? style.reverse(label) : label)
      used += 2 + DisplayWidth.of(label)
    }
    return line
  }

  static func titleLine(
    _ state: ConsoleState, _ context: ConsoleContext, width: Int, style: Style
  ) -> String {
    let screen = state.screen
    var parts = [state.stacks[state.activeTab].map(\.path).joined(separator: " › ")]
    if !screen.search.isEmpty {
      parts.append(context.text("title.search", ["text": screen.search]))
    }
    if !screen.filter.isEmpty {
      parts.append(context.text("title.filter", ["text": screen.filter]))
    }
    if !screen.marked.isEmpty {
      parts.append(context.text("title.marked", ["count": "\(screen.marked.count)"]))
    }
    let line = UntrustedText.neutralised(parts.joined(separator: "  ·  "))
    return style.muted(DisplayWidth.truncate(line, to: width))
  }

  static func statusLine(
    _ state: ConsoleState, _ context: ConsoleContext, width: Int, style: Style, timeZone: TimeZone
  ) -> String {
    var parts: [String] = []
    if state.screen.isLoading { parts.append(context.text("status.loading", [:])) }
    if let refreshed = state.lastRefresh {
      parts.append(context.text("status.refreshed", ["time": clockTime(refreshed, timeZone)]))
    }
    if state.running > 0 {
      parts.append(context.text("status.running", ["count": "\(state.running)"]))
    }
    if let notice = state.notice { parts.append(notice) }
    let left = UntrustedText.neutralised(parts.joined(separator: " · "))
    guard let error = state.latestError else {
      return DisplayWidth.truncate(left, to: width)
    }
    let errorText = UntrustedText.neutralised(
      "✖ " + error.split(whereSeparator: \.isNewline).joined(separator: " "))
    let room = width - DisplayWidth.of(left) - (left.isEmpty ? 0 : 3)
    if room >= 12 {
      return left + (left.isEmpty ? "" : " · ")
        + style.danger(DisplayWidth.truncate(errorText, to: room))
    }
    return style.danger(DisplayWidth.truncate(errorText, to: width))
  }

  static func keyLine(
    _ state: ConsoleState, _ context: ConsoleContext, width: Int, style: Style
  ) -> String {
    switch state.mode {
    case .prompting(let prompt):
      let shown = prompt.isSecret ? String(repeating: "•", count: prompt.text.count) : prompt.text
      return DisplayWidth.truncate(
        UntrustedText.neutralised("\(prompt.label) \(shown)▏"), to: width)
    case .confirming(let confirmation):
      return style.warning(
        DisplayWidth.truncate(
          UntrustedText.neutralised(
            confirmation.question + " " + context.text("confirm.yes-no", [:])), to: width))
    case .help:
      return DisplayWidth.truncate(context.text("keys.help-close", [:]), to: width)
    case .browsing:
      let actions = ConsoleUpdate.actions(state, context).map {
        "\($0.key) \($0.title.resolve(context.language))"
      }
      let hints =
        [context.text("keys.move", [:]), context.text("keys.open", [:])] + actions
        + [context.text("keys.help", [:]), context.text("keys.quit", [:])]
      let line = UntrustedText.neutralised(hints.joined(separator: "  "))
      return style.muted(DisplayWidth.truncate(line, to: width))
    }
  }

  // MARK: - Body

  static func bodyLines(
    _ state: ConsoleState, _ context: ConsoleContext, width: Int, height: Int, style: Style,
    colorMode: ColorMode, theme: Theme
  ) -> [String] {
    let lines: [String]
    if case .help = state.mode {
      lines = helpLines(state, context).map { DisplayWidth.truncate($0, to: width) }
    } else if let view = state.screen.view {
      let searchable = ConsoleUpdate.isSearchable(state, context)
      let screen = state.screen
      let decorated = SelectableRows.decorate(
        view,
        keep: {
          SelectableRows.matches($0, screen.filter)
            && SelectableRows.matches($0, searchable ? "" : screen.search)
        },
        cursor: screen.cursorID, marked: screen.marked, pending: state.pending)
      let rendered = TextRenderer.render(
        decorated,
        options: RenderOptions(
          width: width, colorMode: colorMode, language: context.language, theme: theme))
      lines = rendered.components(separatedBy: "\n")
    } else {
      lines = [context.text("status.loading", [:])]
    }
    let cursorLine = lines.firstIndex { ANSI.strip($0).hasPrefix("›") } ?? 0
    let start = cursorLine < height ? 0 : min(cursorLine - height + 2, max(0, lines.count - height))
    var window = Array(lines.dropFirst(start).prefix(height))
    window += Array(repeating: "", count: height - window.count)
    return window
  }

  static func helpLines(_ state: ConsoleState, _ context: ConsoleContext) -> [String] {
    let general: [(String, String)] = [
      ("↑ ↓ j k", "help.move"), ("Enter", "help.open"), ("Esc ⌫", "help.back"),
      ("Tab", "help.tab"), ("/", "help.search"), ("f", "help.filter"), ("r", "help.refresh"),
      ("space", "help.select"), ("?", "help.help"), ("q", "help.quit"),
    ].map { ($0.0, context.text($0.1, [:])) }
    let actions = ConsoleUpdate.actions(state, context).map {
      (String($0.key), $0.title.resolve(context.language))
    }
    let rows = (general + actions).map { key, meaning in
      "  " + DisplayWidth.pad(key, to: 10) + meaning
    }
    return [context.text("help.title", [:]), ""] + rows
  }

  static func clockTime(_ date: Date, _ timeZone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
    return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
  }
}

/// ANSI styling of the console's chrome, from the theme; plain text when colour is off.
struct Style {
  let colorMode: ColorMode
  let theme: Theme

  func reverse(_ text: String) -> String {
    colorMode == .off ? text : "\u{1b}[7m\(text)\u{1b}[0m"
  }

  func brand(_ text: String) -> String { colored(text, "semantic.brandAccent", bold: true) }
  func muted(_ text: String) -> String { colored(text, "semantic.muted") }
  func danger(_ text: String) -> String { colored(text, "semantic.danger") }
  func warning(_ text: String) -> String { colored(text, "semantic.warning") }

  func colored(_ text: String, _ token: String, bold: Bool = false) -> String {
    guard colorMode != .off, !text.isEmpty, let color = theme.color(named: token, appearance: .dark)
    else { return text }
    let weight = bold ? "1;" : ""
    switch colorMode {
    case .truecolor:
      return "\u{1b}[\(weight)38;2;\(color.r);\(color.g);\(color.b)m\(text)\u{1b}[0m"
    default:
      return "\u{1b}[\(weight)38;5;\(ANSIPalette.nearestIndex(to: color))m\(text)\u{1b}[0m"
    }
  }
}

/// Escape-code helpers.
enum ANSI {
  /// `text` without SGR escape sequences.
  static func strip(_ text: String) -> String {
    guard text.contains("\u{1b}") else { return text }
    var result = ""
    var inEscape = false
    for scalar in text.unicodeScalars {
      if inEscape {
        if (0x40...0x7e).contains(scalar.value) && scalar != "[" { inEscape = false }
      } else if scalar == "\u{1b}" {
        inEscape = true
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
