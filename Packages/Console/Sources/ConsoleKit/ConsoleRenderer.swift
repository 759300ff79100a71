import Essentials
import FeatureKit
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
  /// The keys that answer a question, after it on the key line. Key names are the keys
  /// themselves in every language (like the key column of the help).
  static let answerKeys = "[y/n]"

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
    let bodyHeight = state.bodyHeight
    let results = resultLines(state.screen.result, width: width).map {
      state.screen.result?.isFailure == true ? style.danger($0) : $0
    }
    let top = [
      tabBar(state, width: width, style: style),
      titleLine(state, context, width: width, style: style),
    ]
    let body = bodyLines(
      state, context, width: width, height: bodyHeight, style: style, colorMode: colorMode,
      theme: theme)
    let question = questionLines(state).dropLast().map { style.warning($0) }
    let bottom =
      results + [statusLine(state, context, width: width, style: style, timeZone: timeZone)]
      + question + [keyLine(state, context, width: width, style: style)]
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
    if state.mode == .browsing {
      let total = content(state, context).lines.count
      let height = state.bodyHeight
      if total > height {
        let first = min(screen.scroll, total - height) + 1
        parts.append(
          context.text(
            "title.lines",
            ["first": "\(first)", "last": "\(first + height - 1)", "total": "\(total)"]))
      }
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
    if let watch = state.watch, watch.screenID == state.screen.id {
      parts.append(context.text("status.watching", ["seconds": "\(watch.interval)"]))
    }
    let left = UntrustedText.neutralised(parts.joined(separator: " · "))
    guard let result = state.screen.result,
      resultLines(result, width: width).isEmpty
    else {
      return DisplayWidth.truncate(left, to: width)
    }
    let resultText = UntrustedText.neutralised(
      (result.isFailure ? "✖ " : "") + AppText.clause(result.text))
    let room = width - DisplayWidth.of(left) - (left.isEmpty ? 0 : 3)
    let paint = { (text: String) in result.isFailure ? style.danger(text) : text }
    if room >= 12 {
      return left + (left.isEmpty ? "" : " · ") + paint(DisplayWidth.truncate(resultText, to: room))
    }
    return paint(DisplayWidth.truncate(resultText, to: width))
  }

  /// Room kept on the status line for "Refreshed 12:34:56 · 2 running · ".
  static let statusRoom = 32

  /// A result too long to share the status line: its own lines above it (at most three,
  /// broken between words), else none.
  static func resultLines(_ result: ScreenResult?, width: Int) -> [String] {
    guard let result else { return [] }
    let text = UntrustedText.neutralised(
      (result.isFailure ? "✖ " : "") + AppText.clause(result.text))
    guard DisplayWidth.of(text) > width - statusRoom, width > 0 else { return [] }
    return ConsoleText.wrap(text, width: width, lines: 3)
  }

  /// A question too long for the key line: all its lines but the last, which the key line
  /// shows with "[y/n]".
  static func questionLines(_ state: ConsoleState) -> [String] {
    guard case .confirming(let confirmation) = state.mode else { return [] }
    return ConsoleText.wrap(
      UntrustedText.neutralised(confirmation.question + " " + answerKeys),
      width: max(1, state.width), lines: 4)
  }

  static func keyLine(
    _ state: ConsoleState, _ context: ConsoleContext, width: Int, style: Style
  ) -> String {
    switch state.mode {
    case .prompting(let prompt):
      // A full-width colon carries its own space: "搜索：验", "Search: 验".
      let gap = prompt.label.hasSuffix("：") ? "" : " "
      return DisplayWidth.truncate(
        UntrustedText.neutralised("\(prompt.label)\(gap)\(prompt.text)▏"), to: width)
    case .form:
      return style.muted(DisplayWidth.truncate(context.text("keys.form", [:]), to: width))
    case .confirming:
      return style.warning(questionLines(state).last ?? "")
    case .help:
      return style.muted(DisplayWidth.truncate(context.text("keys.help-close", [:]), to: width))
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
    let lines = content(state, context, colorMode: colorMode, theme: theme).lines
    let scroll: Int
    switch state.mode {
    case .help(let offset): scroll = offset
    case .form: scroll = 0
    default: scroll = state.screen.scroll
    }
    let start = min(max(0, scroll), max(0, lines.count - height))
    var window = Array(lines.dropFirst(start).prefix(height))
    window += Array(repeating: "", count: height - window.count)
    return window
  }

  /// Every line of the body before scrolling, and the line of the cursor row if there is
  /// one. The update measures with it (colour off), the renderer draws with it.
  static func content(
    _ state: ConsoleState, _ context: ConsoleContext, colorMode: ColorMode = .off,
    theme: Theme = .standard
  ) -> (lines: [String], cursorLine: Int?) {
    let width = max(1, state.width)
    switch state.mode {
    case .help:
      return (helpLines(state, context).map { DisplayWidth.truncate($0, to: width) }, nil)
    case .form(let form):
      return (formLines(form, width: width), nil)
    default:
      break
    }
    guard let view = state.screen.view else { return ([context.text("status.loading", [:])], nil) }
    let searchable = AppUpdate.isSearchable(state.app, context.app)
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
    let lines = rendered.components(separatedBy: "\n")
    let cursorLine =
      screen.cursorID == nil ? nil : lines.firstIndex { ANSIPalette.strip($0).hasPrefix("›") }
    return (lines, cursorLine)
  }

  /// A form: its title, then one line per field (label, value; the focused one marked and
  /// showing the end of what is typed), then what is wrong.
  static func formLines(_ form: FormState, width: Int) -> [String] {
    let labelWidth = min(
      width / 3, form.fields.map { DisplayWidth.of($0.label) }.max() ?? 0)
    var lines = [DisplayWidth.truncate(form.title, to: width), ""]
    for (index, field) in form.fields.enumerated() {
      let focused = index == form.focus
      let value =
        field.isSecret
        ? String(repeating: "•", count: field.value.count)
        : UntrustedText.neutralised(field.value)
      let prefix =
        (focused ? "› " : "  ")
        + DisplayWidth.pad(
          DisplayWidth.truncate(field.label, to: labelWidth), to: labelWidth) + "  "
      let room = max(1, width - DisplayWidth.of(prefix) - 1)
      var shown = value
      if focused {
        while DisplayWidth.of(shown) > room - 1, !shown.isEmpty { shown.removeFirst() }
        shown += "▏"
      } else {
        shown = DisplayWidth.truncate(shown, to: room)
      }
      lines.append(DisplayWidth.truncate(prefix + shown, to: width).trailingSpacesRemoved)
    }
    if let problem = form.problem {
      lines += ["", DisplayWidth.truncate("✖ " + problem, to: width)]
    }
    return lines
  }

  static func helpLines(_ state: ConsoleState, _ context: ConsoleContext) -> [String] {
    let actions = ConsoleUpdate.actions(state, context)
    // The route's own refresh (a sync, a test of every row) is what `r` does here: it is
    // listed once, under its own title.
    let refresh = actions.first { $0.key == RouteAction.refreshKey }
    let general: [(String, String)] = [
      ("↑ ↓ j k", context.text("help.move", [:])),
      ("PgUp PgDn", context.text("help.page", [:])),
      ("Home End g G", context.text("help.ends", [:])),
      ("Enter", context.text("help.open", [:])), ("Esc ⌫", context.text("help.back", [:])),
      ("Tab", context.text("help.tab", [:])), ("/", context.text("help.search", [:])),
      ("f", context.text("help.filter", [:])),
      (
        "r", refresh.map { $0.title.resolve(context.language) } ?? context.text("help.refresh", [:])
      ),
      ("space", context.text("help.select", [:])),
    ]
    let watching: [(String, String)] =
      refresh == nil
      ? [] : [(String(ConsoleUpdate.watchKey), context.text("help.watch", [:]))]
    let copying: [(String, String)] =
      context.clipboard && ConsoleUpdate.hasCopyValues(state.screen.view)
      ? [(String(ConsoleUpdate.copyKey), context.text("help.copy", [:]))] : []
    let closing: [(String, String)] = [
      ("?", context.text("help.help", [:])), ("q", context.text("help.quit", [:])),
    ]
    let own = actions.filter { $0.key != RouteAction.refreshKey }.map {
      (String($0.key), $0.title.resolve(context.language))
    }
    let rows = (general + watching + copying + closing + own).map { key, meaning in
      "  " + DisplayWidth.pad(key, to: 14) + meaning
    }
    return [context.text("help.title", [:]), ""] + rows
  }

  static func clockTime(_ date: Date, _ timeZone: TimeZone) -> String {
    CivilTime(date, offsetSeconds: timeZone.secondsFromGMT(for: date)).timeText
  }
}

/// The console's chrome in the theme's colours, through ViewKit's one ``ANSIPalette`` (the
/// same codes the view renderer writes); plain text when colour is off.
struct Style {
  let colorMode: ColorMode
  let theme: Theme

  func reverse(_ text: String) -> String {
    ANSIPalette.painted(text, color: nil, reverse: true, mode: colorMode)
  }

  func brand(_ text: String) -> String { colored(text, "semantic.brandAccent", bold: true) }
  func muted(_ text: String) -> String { colored(text, "semantic.muted") }
  func danger(_ text: String) -> String { colored(text, "semantic.danger") }
  func warning(_ text: String) -> String { colored(text, "semantic.warning") }

  func colored(_ text: String, _ token: String, bold: Bool = false) -> String {
    guard let color = theme.color(named: token, appearance: .dark) else { return text }
    return ANSIPalette.painted(text, color: color, bold: bold, mode: colorMode)
  }
}
