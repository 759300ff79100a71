import Essentials
import FeatureKit
import Foundation
import ViewKit

/// The pure heart of the console: (state, message) → (next state, effects).
///
/// Key presses become the app core's steps (``AppUpdate``), with what only a terminal has
/// in between: scrolling by lines, the bottom-line prompts and the key help.
public enum ConsoleUpdate {
  /// The effects that load the first tab's first screen.
  public static func start(_ state: ConsoleState) -> [ConsoleEffect] {
    AppUpdate.start(state.app)
  }

  /// Applies `message` to `state` and returns what the runtime must do next.
  public static func update(
    _ state: inout ConsoleState, _ message: ConsoleMessage, context: ConsoleContext
  ) -> [ConsoleEffect] {
    switch message {
    case .resized(let width, let height):
      state.width = width
      state.height = height
      settleScroll(&state, context)
      return []
    case .loaded(let path, let view, let date):
      loaded(&state, path: path, view: view, at: date, context)
      return []
    case .finished(let batch, let affected, let outcome):
      AppUpdate.finished(
        &state.app, batch: batch, affected: affected, outcome: outcome,
        reopenForm: state.mode == .browsing, context.app)
      return [reload(&state)]
    case .tick:
      state.refreshesItself = true
      // A `--refresh` tick never piles a screen's refresh (a sync) on one still running,
      // however long a device makes it take (issue 36): the screen's data is reloaded, and the
      // next tick after the run ends refreshes it again.
      if state.running > 0, AppUpdate.hasRefreshAction(state.app, context.app) {
        return [reload(&state)]
      }
      return refresh(&state, context)
    case .heartbeat:
      return heartbeat(&state, context)
    case .stop, .terminalGone:
      return quit(&state)
    case .key(let key):
      if state.tabs.isEmpty {
        return key == .character("q") || key == .control("c") ? quit(&state) : []
      }
      switch state.mode {
      case .help(let scroll):
        return help(&state, key, scroll: scroll, context)
      case .confirming(let confirmation):
        return confirm(&state, key, confirmation, context)
      case .prompting(let prompt):
        return type(&state, key, prompt, context)
      case .form(let form):
        return edit(&state, key, form, context)
      case .browsing:
        return browse(&state, key, context)
      }
    }
  }

  static func loaded(
    _ state: inout ConsoleState, path: String, view: ViewNode, at date: Date,
    _ context: ConsoleContext
  ) {
    // A watched screen (or any, under `--refresh`) whose cursor is on its first row follows
    // the top, as `tail -f` follows the end: what a refresh brings comes first (the newest
    // code on the Messages tab), and `c` then copies it, not the row that was first before.
    let followsTop =
      (state.watch?.screenID == state.screen.id || state.refreshesItself)
      && state.screen.path == path
      && state.screen.cursorID != nil
      && state.screen.cursorID == AppUpdate.visibleRows(state.app, context.app).first?.id
    AppUpdate.loaded(&state.app, path: path, view: view, at: date, context.app)
    if followsTop, let top = AppUpdate.visibleRows(state.app, context.app).first?.id {
      state.app.screen.cursorID = top
    }
    settleScroll(&state, context)
    if state.mode == .browsing { AppUpdate.openRouteForm(&state.app, path: path, context.app) }
  }

  // MARK: - Browsing

  static func browse(_ state: inout ConsoleState, _ key: Key, _ context: ConsoleContext)
    -> [ConsoleEffect]
  {
    let page = max(1, state.bodyHeight - 1)
    switch key {
    case .character("q"), .control("c"):
      return quit(&state)
    case .up, .character("k"): move(&state, by: -1, context)
    case .down, .character("j"): move(&state, by: 1, context)
    case .pageUp: move(&state, by: -page, context)
    case .pageDown: move(&state, by: page, context)
    case .home, .character("g"): move(&state, by: -Int.max / 2, context)
    case .end, .character("G"): move(&state, by: Int.max / 2, context)
    case .tab, .backTab:
      let step = key == .tab ? 1 : state.tabs.count - 1
      let effects = AppUpdate.selectTab(&state.app, (state.activeTab + step) % state.tabs.count)
      settleScroll(&state, context)
      return effects
    case .enter:
      guard let cursor = state.screen.cursorID else { return [] }
      return AppUpdate.open(&state.app, row: cursor, context.app)
    case .escape, .backspace, .left:
      if let cleared = AppUpdate.clearSearchAndFilter(&state.app, context.app) { return cleared }
      let effects = AppUpdate.pop(&state.app)
      settleScroll(&state, context)
      return effects
    case .character("/"):
      state.mode = .prompting(
        Prompt(purpose: .search, label: context.text("prompt.search"), text: state.screen.search))
    case .character("f"):
      state.mode = .prompting(
        Prompt(purpose: .filter, label: context.text("prompt.filter"), text: state.screen.filter))
    case .character(" "):
      guard let cursor = state.screen.cursorID else { return [] }
      AppUpdate.toggleMark(&state.app, cursor)
      move(&state, by: 1, context)
    case .character("?"):
      state.mode = .help(scroll: 0)
    case .character(RouteAction.refreshKey):
      return refresh(&state, context)
    case .character(copyKey) where context.clipboard && copyValue(state) != nil:
      state.clipboard = copyValue(state)
      state.screen.result = ScreenResult(context.text("notice.copied"))
    case .character(watchKey):
      return toggleWatch(&state, context)
    case .character(let character):
      return AppUpdate.perform(&state.app, character, context.app)
    default:
      break
    }
    return []
  }

  /// The key that copies the selected row's value (a message's code).
  static let copyKey: Character = "c"

  /// What `c` copies: the cursor row's ``TableRow/copyValue``.
  static func copyValue(_ state: ConsoleState) -> String? {
    guard let cursor = state.screen.cursorID else { return nil }
    return copyValue(in: state.screen.view, row: cursor)
  }

  /// Whether any row of `view` has something for `c` to copy.
  static func hasCopyValues(_ view: ViewNode?) -> Bool {
    guard let view else { return false }
    if case .table(let table) = view { return table.rows.contains { $0.copyValue != nil } }
    return view.children.contains { hasCopyValues($0) }
  }

  static func copyValue(in view: ViewNode?, row: String) -> String? {
    guard let view else { return nil }
    if case .table(let table) = view {
      return table.rows.first { $0.id == row }?.copyValue
    }
    for child in view.children {
      if let value = copyValue(in: child, row: row) { return value }
    }
    return nil
  }

  /// The key that watches the screen: its refresh (a sync) every few seconds while it is open.
  static let watchKey: Character = "w"

  /// `w`: starts watching the screen (refreshing it at once) or stops.
  static func toggleWatch(_ state: inout ConsoleState, _ context: ConsoleContext)
    -> [ConsoleEffect]
  {
    if state.watch?.screenID == state.screen.id {
      state.watch = nil
      state.screen.result = ScreenResult(context.text("notice.watch-stopped"))
      return []
    }
    guard AppUpdate.hasRefreshAction(state.app, context.app) else {
      state.screen.result = ScreenResult(context.text("notice.nothing-to-watch"), isFailure: true)
      return []
    }
    state.watch = Watch(
      screenID: state.screen.id, interval: context.watchInterval,
      remaining: context.watchInterval)
    return refresh(&state, context)
  }

  /// A second passed: a watched screen still open is refreshed when its interval is up and
  /// nothing it started is still running (a slow sync is never piled on).
  static func heartbeat(_ state: inout ConsoleState, _ context: ConsoleContext)
    -> [ConsoleEffect]
  {
    guard var watch = state.watch else { return [] }
    guard state.stacks.joined().contains(where: { $0.id == watch.screenID }) else {
      state.watch = nil
      return []
    }
    watch.remaining -= 1
    guard watch.remaining <= 0, state.screen.id == watch.screenID, state.running == 0,
      state.mode == .browsing
    else {
      state.watch = watch
      return []
    }
    watch.remaining = watch.interval
    state.watch = watch
    return refresh(&state, context)
  }

  /// `r` or a `--refresh` tick: reload, and run the route's own refresh action if it has one
  /// (which, like any action started, leaves a prompt or the help).
  static func refresh(_ state: inout ConsoleState, _ context: ConsoleContext) -> [ConsoleEffect] {
    guard !state.tabs.isEmpty else { return [] }
    if AppUpdate.hasRefreshAction(state.app, context.app) { state.overlay = nil }
    return AppUpdate.refresh(&state.app, context.app)
  }

  static func reload(_ state: inout ConsoleState) -> ConsoleEffect {
    AppUpdate.reload(&state.app)
  }

  static func quit(_ state: inout ConsoleState) -> [ConsoleEffect] {
    state.shouldQuit = true
    return [.quit]
  }

  static func help(
    _ state: inout ConsoleState, _ key: Key, scroll: Int, _ context: ConsoleContext
  ) -> [ConsoleEffect] {
    let lines = ConsoleRenderer.helpLines(state, context).count
    let limit = max(0, lines - state.bodyHeight)
    let page = max(1, state.bodyHeight - 1)
    let step: Int? =
      switch key {
      case .up, .character("k"): -1
      case .down, .character("j"): 1
      case .pageUp: -page
      case .pageDown: page
      case .home, .character("g"): -lines
      case .end, .character("G"): lines
      default: nil
      }
    guard let step else {
      state.mode = .browsing
      return []
    }
    state.mode = .help(scroll: min(max(0, scroll + step), limit))
    return []
  }

  // MARK: - Rows, cursor and scrolling

  /// The route's actions this build can carry out.
  static func actions(_ state: ConsoleState, _ context: ConsoleContext) -> [RouteAction] {
    AppUpdate.actions(state.app, context.app)
  }

  /// The rows the user sees.
  static func visibleRows(_ state: ConsoleState, _ context: ConsoleContext) -> [SelectableRow] {
    AppUpdate.visibleRows(state.app, context.app)
  }

  /// Moves the cursor by `step` rows; on a screen without rows, or at the first or last row,
  /// scrolls the body instead (so text above and below a table is reachable too).
  static func move(_ state: inout ConsoleState, by step: Int, _ context: ConsoleContext) {
    let rows = visibleRows(state, context)
    let current = rows.firstIndex { $0.id == state.screen.cursorID } ?? 0
    let target =
      rows.isEmpty
      ? 0 : min(max(0, current.addingReportingOverflow(step).partialValue), rows.count - 1)
    if rows.isEmpty || target == current {
      let layout = ConsoleRenderer.content(state, context)
      let limit = max(0, layout.lines.count - state.bodyHeight)
      state.screen.scroll = min(
        max(0, state.screen.scroll.addingReportingOverflow(step).partialValue), limit)
      state.screen.followsEnd = state.screen.scroll == limit && step > 0
      if rows.isEmpty { return }
    }
    state.screen.cursorID = rows[target].id
    state.screen.followsEnd = false
    revealCursor(&state, context)
  }

  /// Keeps the scroll within the content, at its end when the screen follows it, and the
  /// cursor row in sight.
  static func settleScroll(_ state: inout ConsoleState, _ context: ConsoleContext) {
    guard !state.tabs.isEmpty else { return }
    let layout = ConsoleRenderer.content(state, context)
    let limit = max(0, layout.lines.count - state.bodyHeight)
    state.screen.scroll = state.screen.followsEnd ? limit : min(state.screen.scroll, limit)
    revealCursor(&state, context)
  }

  static func revealCursor(_ state: inout ConsoleState, _ context: ConsoleContext) {
    guard let line = ConsoleRenderer.content(state, context).cursorLine else { return }
    let height = state.bodyHeight
    if line < state.screen.scroll {
      state.screen.scroll = line
    } else if line >= state.screen.scroll + height {
      state.screen.scroll = line - height + 1
    }
  }

  /// A batch's runs started (the console's tests start one by hand).
  static func start(_ state: inout ConsoleState, _ batch: Batch, _ effects: [ConsoleEffect])
    -> [ConsoleEffect]
  {
    AppUpdate.start(&state.app, batch, effects)
  }

  static func confirm(
    _ state: inout ConsoleState, _ key: Key, _ confirmation: PendingConfirmation,
    _ context: ConsoleContext
  ) -> [ConsoleEffect] {
    switch key {
    case .character("y"), .character("Y"):
      return AppUpdate.answer(&state.app, yes: true, confirmation, context.app)
    case .character("n"), .character("N"), .escape, .control("c"):
      return AppUpdate.answer(&state.app, yes: false, confirmation, context.app)
    default:
      return []
    }
  }

  // MARK: - Prompts and forms

  static func type(
    _ state: inout ConsoleState, _ key: Key, _ prompt: Prompt, _ context: ConsoleContext
  ) -> [ConsoleEffect] {
    var prompt = prompt
    switch key {
    case .character(let character):
      prompt.text.append(character)
    case .backspace:
      if !prompt.text.isEmpty { prompt.text.removeLast() }
    case .escape, .control("c"):
      state.mode = .browsing
      return []
    case .enter:
      state.mode = .browsing
      return submit(&state, prompt, context)
    default:
      break
    }
    state.mode = .prompting(prompt)
    return []
  }

  static func submit(_ state: inout ConsoleState, _ prompt: Prompt, _ context: ConsoleContext)
    -> [ConsoleEffect]
  {
    switch prompt.purpose {
    case .filter:
      AppUpdate.filter(&state.app, prompt.text, context.app)
      settleScroll(&state, context)
      return []
    case .search:
      let effects = AppUpdate.search(&state.app, prompt.text, context.app)
      if AppUpdate.isSearchable(state.app, context.app) { return effects }
      settleScroll(&state, context)
      return []
    }
  }

  static func edit(
    _ state: inout ConsoleState, _ key: Key, _ form: FormState, _ context: ConsoleContext
  ) -> [ConsoleEffect] {
    var form = form
    let last = form.fields.count - 1
    switch key {
    case .character(let character):
      form.fields[form.focus].value.append(character)
      form.problem = nil
    case .backspace:
      if !form.fields[form.focus].value.isEmpty { form.fields[form.focus].value.removeLast() }
    case .control("u"):
      form.fields[form.focus].value = ""
    case .tab, .down:
      form.focus = min(last, form.focus + 1)
    case .backTab, .up:
      form.focus = max(0, form.focus - 1)
    case .escape, .control("c"):
      AppUpdate.cancel(&state.app, context.app)
      return []
    case .enter where form.focus < last:
      form.focus += 1
    case .enter:
      return AppUpdate.submit(&state.app, form, context.app)
    default:
      break
    }
    state.mode = .form(form)
    return []
  }
}
