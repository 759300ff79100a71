import Essentials
import FeatureKit
import Foundation
import ViewKit

/// What the update reads besides the state: the registry (routes and their actions) and the
/// language. Both are immutable, so the update stays a pure function.
public struct ConsoleContext: Sendable {
  /// The app's features.
  public let registry: FeatureRegistry
  /// The console's language.
  public let language: AppLanguage

  /// A context.
  public init(registry: FeatureRegistry, language: AppLanguage) {
    self.registry = registry
    self.language = language
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    ConsoleStrings.catalogue.text(key, language, arguments)
  }

  func route(_ path: String) -> FeatureRoute? {
    registry.route(for: path)?.route
  }
}

/// The pure heart of the console: (state, message) → (next state, effects).
public enum ConsoleUpdate {
  /// The effects that load every tab's first screen.
  public static func start(_ state: ConsoleState) -> [ConsoleEffect] {
    state.tabs.isEmpty ? [] : [.load(path: state.screen.path, search: nil)]
  }

  /// Applies `message` to `state` and returns what the runtime must do next.
  public static func update(
    _ state: inout ConsoleState, _ message: ConsoleMessage, context: ConsoleContext
  ) -> [ConsoleEffect] {
    switch message {
    case .resized(let width, let height):
      state.width = width
      state.height = height
      return []
    case .loaded(let path, let view, let date):
      for tab in state.stacks.indices {
        for index in state.stacks[tab].indices where state.stacks[tab][index].path == path {
          state.stacks[tab][index].view = view
          state.stacks[tab][index].isLoading = false
          state.stacks[tab][index].loadedAt = date
        }
      }
      state.lastRefresh = date
      keepCursorOnAVisibleRow(&state, context)
      return []
    case .finished(let label, let affected, let outcome):
      state.pending.subtract(affected)
      state.running = max(0, state.running - 1)
      if outcome.succeeded {
        state.notice = context.text("notice.done", ["action": label])
      } else {
        state.latestError = outcome.message ?? context.text("notice.failed", ["action": label])
      }
      return [reload(&state)]
    case .tick:
      return refresh(&state, context)
    case .key(let key):
      if state.tabs.isEmpty {
        return key == .character("q") || key == .control("c") ? quit(&state) : []
      }
      switch state.mode {
      case .help:
        state.mode = .browsing
        return []
      case .confirming(let confirmation):
        return confirm(&state, key, confirmation, context)
      case .prompting(let prompt):
        return type(&state, key, prompt, context)
      case .browsing:
        return browse(&state, key, context)
      }
    }
  }

  // MARK: - Browsing

  static func browse(_ state: inout ConsoleState, _ key: Key, _ context: ConsoleContext)
    -> [ConsoleEffect]
  {
    state.notice = nil
    switch key {
    case .character("q"), .control("c"):
      return quit(&state)
    case .up, .character("k"): moveCursor(&state, by: -1, context)
    case .down, .character("j"): moveCursor(&state, by: 1, context)
    case .pageUp: moveCursor(&state, by: -max(1, state.height - 6), context)
    case .pageDown: moveCursor(&state, by: max(1, state.height - 6), context)
    case .home: moveCursor(&state, by: -Int.max / 2, context)
    case .end: moveCursor(&state, by: Int.max / 2, context)
    case .tab, .backTab:
      let step = key == .tab ? 1 : state.tabs.count - 1
      state.activeTab = (state.activeTab + step) % state.tabs.count
      return state.screen.view == nil ? [reload(&state)] : []
    case .enter:
      guard let cursor = state.screen.cursorID,
        let link = visibleRows(state, context).first(where: { $0.id == cursor })?.link
      else { return [] }
      state.stacks[state.activeTab].append(ScreenState(path: link))
      return [.load(path: link, search: nil)]
    case .escape, .backspace, .left:
      if !state.screen.search.isEmpty || !state.screen.filter.isEmpty {
        let searched = isSearchable(state, context) && !state.screen.search.isEmpty
        state.screen.search = ""
        state.screen.filter = ""
        return searched ? [reload(&state)] : []
      }
      guard state.stacks[state.activeTab].count > 1 else { return [] }
      state.stacks[state.activeTab].removeLast()
      return [reload(&state)]
    case .character("/"):
      state.mode = .prompting(
        Prompt(
          purpose: .search, label: context.text("prompt.search"), text: state.screen.search,
          isSecret: false))
    case .character("f"):
      state.mode = .prompting(
        Prompt(
          purpose: .filter, label: context.text("prompt.filter"), text: state.screen.filter,
          isSecret: false))
    case .character(" "):
      guard let cursor = state.screen.cursorID else { return [] }
      if state.screen.marked.contains(cursor) {
        state.screen.marked.remove(cursor)
      } else {
        state.screen.marked.insert(cursor)
      }
      moveCursor(&state, by: 1, context)
    case .character("?"):
      state.mode = .help
    case .character("r"):
      return refresh(&state, context)
    case .character(let character):
      guard let action = actions(state, context).first(where: { $0.key == character }) else {
        return []
      }
      return begin(&state, action, context)
    default:
      break
    }
    return []
  }

  /// `r` or a `--refresh` tick: reload, and run the route's own refresh action if it has one.
  static func refresh(_ state: inout ConsoleState, _ context: ConsoleContext) -> [ConsoleEffect] {
    guard !state.tabs.isEmpty else { return [] }
    state.latestError = nil
    var effects = [reload(&state)]
    if let action = actions(state, context).first(where: { $0.key == "r" }) {
      effects += runs(&state, action, values: [], context)
    }
    return effects
  }

  static func reload(_ state: inout ConsoleState) -> ConsoleEffect {
    state.screen.isLoading = true
    let search = state.screen.search
    return .load(path: state.screen.path, search: search.isEmpty ? nil : search)
  }

  static func quit(_ state: inout ConsoleState) -> [ConsoleEffect] {
    state.shouldQuit = true
    return [.quit]
  }

  // MARK: - Rows and cursor

  static func isSearchable(_ state: ConsoleState, _ context: ConsoleContext) -> Bool {
    context.route(state.screen.path)?.isSearchable ?? false
  }

  /// The route's actions this build can carry out: a navigation action whose target route
  /// is not compiled in (a custom build) is left out.
  static func actions(_ state: ConsoleState, _ context: ConsoleContext) -> [RouteAction] {
    (context.route(state.screen.path)?.actions ?? []).filter { action in
      guard let probe = action.openedPath(selection: "x", parameters: ["ref": "x"]) else {
        return true
      }
      return context.registry.route(for: probe) != nil
    }
  }

  /// The rows the user sees: filtered by `f`, and by `/` where the route does not search.
  static func visibleRows(_ state: ConsoleState, _ context: ConsoleContext) -> [SelectableRow] {
    let screen = state.screen
    let localSearch = isSearchable(state, context) ? "" : screen.search
    return SelectableRows.rows(in: screen.view).filter {
      SelectableRows.matches($0, screen.filter) && SelectableRows.matches($0, localSearch)
    }
  }

  static func moveCursor(_ state: inout ConsoleState, by step: Int, _ context: ConsoleContext) {
    let rows = visibleRows(state, context)
    guard !rows.isEmpty else {
      state.screen.cursorID = nil
      return
    }
    let current = rows.firstIndex { $0.id == state.screen.cursorID } ?? 0
    let target = min(max(0, current.addingReportingOverflow(step).partialValue), rows.count - 1)
    state.screen.cursorID = rows[target].id
  }

  static func keepCursorOnAVisibleRow(_ state: inout ConsoleState, _ context: ConsoleContext) {
    let rows = visibleRows(state, context)
    if !rows.contains(where: { $0.id == state.screen.cursorID }) {
      state.screen.cursorID = rows.first?.id
    }
    state.screen.marked.formIntersection(rows.map(\.id))
  }

  // MARK: - Actions

  /// The rows an action applies to: the marked ones, else the one under the cursor.
  static func selection(_ state: ConsoleState, _ context: ConsoleContext) -> [String] {
    let visible = visibleRows(state, context).map(\.id)
    let marked = visible.filter(state.screen.marked.contains)
    if !marked.isEmpty { return marked }
    return state.screen.cursorID.map { [$0] } ?? []
  }

  static func begin(_ state: inout ConsoleState, _ action: RouteAction, _ context: ConsoleContext)
    -> [ConsoleEffect]
  {
    if action.needsSelection && selection(state, context).isEmpty {
      state.notice = context.text("notice.select-first")
      return []
    }
    if action.opens != nil {
      let parameters = context.registry.route(for: state.screen.path)?.parameters ?? [:]
      guard
        let path = action.openedPath(selection: state.screen.cursorID, parameters: parameters),
        context.registry.route(for: path) != nil
      else { return [] }
      state.stacks[state.activeTab].append(ScreenState(path: path))
      return [.load(path: path, search: nil)]
    }
    return collect(&state, action, values: [], context)
  }

  /// Asks for the action's next input, or confirms, or runs.
  static func collect(
    _ state: inout ConsoleState, _ action: RouteAction, values: [String], _ context: ConsoleContext
  ) -> [ConsoleEffect] {
    if values.count < action.inputs.count {
      let input = action.inputs[values.count]
      state.mode = .prompting(
        Prompt(
          purpose: .actionInput(key: action.key, index: values.count, values: values),
          label: input.label.resolve(context.language), text: "", isSecret: input.isSecret))
      return []
    }
    state.mode = .browsing
    let planned = plannedRuns(state, action, values: values, context)
    if let confirmation = action.confirmation {
      let targets = planned.targets
      state.mode = .confirming(
        PendingConfirmation(
          question: confirmation.resolve(context.language)
            .replacingOccurrences(of: "{count}", with: "\(targets.count)")
            .replacingOccurrences(of: "{targets}", with: targets.joined(separator: ", ")),
          runs: planned.effects))
      return []
    }
    return start(&state, planned.effects)
  }

  static func runs(
    _ state: inout ConsoleState, _ action: RouteAction, values: [String], _ context: ConsoleContext
  ) -> [ConsoleEffect] {
    start(&state, plannedRuns(state, action, values: values, context).effects)
  }

  /// One run per selected row when the action names `{selection}` (so each row's pending
  /// mark clears as soon as its own work ends), and one per visible row for `{rows}`.
  static func plannedRuns(
    _ state: ConsoleState, _ action: RouteAction, values: [String], _ context: ConsoleContext
  ) -> (effects: [ConsoleEffect], targets: [String]) {
    let parameters = context.registry.route(for: state.screen.path)?.parameters ?? [:]
    let inputs = zip(action.inputs, values).flatMap { ["--\($0.option)", $1] }
    let label = action.title.resolve(context.language)
    let ids: [String]? =
      action.arguments.contains("{selection}")
      ? selection(state, context)
      : action.arguments.contains("{rows}") ? visibleRows(state, context).map(\.id) : nil
    guard let ids else {
      let arguments = action.expandedArguments(selection: [], parameters: parameters) + inputs
      // The screen's own title names the target (a node's name), else its path.
      var target = state.screen.path
      if case .screen(let screen)? = state.screen.view { target = screen.title }
      return ([.run(arguments: arguments, affected: [], label: label)], [target])
    }
    let effects = ids.map { id in
      let arguments =
        action.arguments.map { $0 == "{rows}" ? "{selection}" : $0 }
        .flatMap { $0 == "{selection}" ? [id] : [$0] }
      return ConsoleEffect.run(
        arguments: RouteAction(key: action.key, title: action.title, arguments: arguments)
          .expandedArguments(selection: [], parameters: parameters) + inputs,
        affected: [id], label: label)
    }
    let rows = SelectableRows.rows(in: state.screen.view)
    let names = ids.map { id in
      rows.first { $0.id == id }?.text.split(separator: " ").first.map(String.init) ?? id
    }
    return (effects, names)
  }

  static func start(_ state: inout ConsoleState, _ effects: [ConsoleEffect]) -> [ConsoleEffect] {
    for case .run(_, let affected, _) in effects {
      state.pending.formUnion(affected)
      state.running += 1
    }
    return effects
  }

  static func confirm(
    _ state: inout ConsoleState, _ key: Key, _ confirmation: PendingConfirmation,
    _ context: ConsoleContext
  ) -> [ConsoleEffect] {
    switch key {
    case .character("y"), .character("Y"):
      state.mode = .browsing
      state.screen.marked = []
      return start(&state, confirmation.runs)
    case .character("n"), .character("N"), .escape, .control("c"):
      state.mode = .browsing
      state.notice = context.text("notice.cancelled")
      return []
    default:
      return []
    }
  }

  // MARK: - Prompts

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
      state.screen.filter = prompt.text
      keepCursorOnAVisibleRow(&state, context)
      return []
    case .search:
      state.screen.search = prompt.text
      if isSearchable(state, context) {
        return [reload(&state)]
      }
      keepCursorOnAVisibleRow(&state, context)
      return []
    case .actionInput(let key, _, let values):
      guard let action = actions(state, context).first(where: { $0.key == key }) else {
        return []
      }
      return collect(&state, action, values: values + [prompt.text], context)
    }
  }
}
