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

  func parameters(_ path: String) -> [String: String] {
    registry.route(for: path)?.parameters ?? [:]
  }
}

/// The pure heart of the console: (state, message) → (next state, effects).
public enum ConsoleUpdate {
  /// The effects that load the first tab's first screen.
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
      settleScroll(&state, context)
      return []
    case .loaded(let path, let view, let date):
      loaded(&state, path: path, view: view, at: date, context)
      return []
    case .finished(let batch, let affected, let outcome):
      finished(&state, batch: batch, affected: affected, outcome: outcome, context)
      return [reload(&state)]
    case .tick:
      return refresh(&state, context)
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
    let startsAtEnd = context.route(path)?.startsAtEnd ?? false
    for tab in state.stacks.indices {
      for index in state.stacks[tab].indices where state.stacks[tab][index].path == path {
        if state.stacks[tab][index].view == nil && startsAtEnd {
          state.stacks[tab][index].followsEnd = true
        }
        state.stacks[tab][index].view = view
        state.stacks[tab][index].isLoading = false
        state.stacks[tab][index].loadedAt = date
      }
    }
    state.lastRefresh = date
    keepCursorOnAVisibleRow(&state, context)
    settleScroll(&state, context)
    guard state.screen.path == path, !state.screen.formShown, state.mode == .browsing,
      let key = context.route(path)?.formKey,
      let action = actions(state, context).first(where: { $0.key == key })
    else { return }
    state.screen.formShown = true
    openForm(&state, action, context)
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
      state.screen.result = nil
      state.activeTab = (state.activeTab + step) % state.tabs.count
      state.screen.result = nil
      settleScroll(&state, context)
      return state.screen.view == nil ? [reload(&state)] : []
    case .enter:
      guard let cursor = state.screen.cursorID,
        let link = visibleRows(state, context).first(where: { $0.id == cursor })?.link
      else { return [] }
      return push(&state, link)
    case .escape, .backspace, .left:
      if !state.screen.search.isEmpty || !state.screen.filter.isEmpty {
        let searched = isSearchable(state, context) && !state.screen.search.isEmpty
        state.screen.search = ""
        state.screen.filter = ""
        return searched ? [reload(&state)] : []
      }
      guard state.stacks[state.activeTab].count > 1 else { return [] }
      state.stacks[state.activeTab].removeLast()
      state.screen.result = nil
      settleScroll(&state, context)
      return [reload(&state)]
    case .character("/"):
      state.mode = .prompting(
        Prompt(purpose: .search, label: context.text("prompt.search"), text: state.screen.search))
    case .character("f"):
      state.mode = .prompting(
        Prompt(purpose: .filter, label: context.text("prompt.filter"), text: state.screen.filter))
    case .character(" "):
      guard let cursor = state.screen.cursorID else { return [] }
      if state.screen.marked.contains(cursor) {
        state.screen.marked.remove(cursor)
      } else {
        state.screen.marked.insert(cursor)
      }
      move(&state, by: 1, context)
    case .character("?"):
      state.mode = .help(scroll: 0)
    case .character(RouteAction.refreshKey):
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

  /// Opens `path` on top of the current screen.
  static func push(_ state: inout ConsoleState, _ path: String) -> [ConsoleEffect] {
    state.screen.result = nil
    let id = state.takeID()
    state.stacks[state.activeTab].append(ScreenState(path: path, id: id))
    return [.load(path: path, search: nil)]
  }

  /// `r` or a `--refresh` tick: reload, and run the route's own refresh action if it has one.
  static func refresh(_ state: inout ConsoleState, _ context: ConsoleContext) -> [ConsoleEffect] {
    guard !state.tabs.isEmpty else { return [] }
    var effects = [reload(&state)]
    if let action = actions(state, context).first(where: { $0.key == RouteAction.refreshKey }) {
      state.screen.result = nil
      effects += plan(&state, action, values: [], form: nil, context)
    }
    return effects
  }

  static func reload(_ state: inout ConsoleState) -> ConsoleEffect {
    state.screen.isLoading = true
    let search = state.screen.search
    return .load(
      path: state.screen.path, search: search.isEmpty ? nil : search, flags: state.screen.flags)
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

  static func isSearchable(_ state: ConsoleState, _ context: ConsoleContext) -> Bool {
    context.route(state.screen.path)?.isSearchable ?? false
  }

  /// The route's actions this build can carry out: a navigation action whose target route
  /// is not compiled in (a custom build) is left out.
  static func actions(_ state: ConsoleState, _ context: ConsoleContext) -> [RouteAction] {
    let parameters = context.parameters(state.screen.path)
    return (context.route(state.screen.path)?.actions ?? []).filter { action in
      guard let probe = action.openedPath(selection: "x", parameters: parameters) else {
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
      state.screen.result = ScreenResult(context.text("notice.select-first"))
      return []
    }
    if action.opens != nil {
      guard
        let path = action.openedPath(
          selection: state.screen.cursorID, parameters: context.parameters(state.screen.path)),
        context.registry.route(for: path) != nil
      else { return [] }
      return push(&state, path)
    }
    if let flag = action.toggles {
      if state.screen.flags.contains(flag) {
        state.screen.flags.remove(flag)
      } else {
        state.screen.flags.insert(flag)
      }
      return [reload(&state)]
    }
    if !action.inputs.isEmpty {
      openForm(&state, action, context)
      return []
    }
    return plan(&state, action, values: [], form: nil, context)
  }

  /// Opens the action's form, each field prefilled from the action or from the screen's own
  /// form field of the same id.
  static func openForm(
    _ state: inout ConsoleState, _ action: RouteAction, _ context: ConsoleContext
  ) {
    let parameters = context.parameters(state.screen.path)
    let shown = SelectableRows.fields(in: state.screen.view)
    let fields = action.inputs.map { input in
      let value =
        input.prefill.map {
          RouteAction.fill($0, selection: state.screen.cursorID, parameters: parameters)
        } ?? shown[input.option] ?? ""
      return FormFieldState(
        label: input.label.resolve(context.language), value: value, isSecret: input.isSecret,
        isOptional: input.isOptional)
    }
    // The heading names what the form is for: the screen (a node, a conversation, "Add
    // instance") and the action.
    var title = action.title.resolve(context.language)
    if case .screen(let screen)? = state.screen.view, !screen.title.isEmpty {
      title = screen.title + " · " + title
    }
    state.mode = .form(
      FormState(key: action.key, title: title, fields: fields, focus: 0, problem: nil))
  }

  /// Confirms or starts the action's runs.
  static func plan(
    _ state: inout ConsoleState, _ action: RouteAction, values: [String], form: FormState?,
    _ context: ConsoleContext
  ) -> [ConsoleEffect] {
    state.mode = .browsing
    let batchID = state.takeID()
    let planned = plannedRuns(state, action, values: values, batch: batchID, context)
    let batch = Batch(
      id: batchID, screenID: state.screen.id, title: action.title.resolve(context.language),
      outcome: action.outcome?.resolve(context.language), total: planned.effects.count,
      finished: 0, failures: [], names: planned.names, form: form)
    if let confirmation = action.confirmation {
      let targets = planned.targets
      let question = confirmation.resolve(context.language)
        .replacingOccurrences(of: "{count}", with: "\(targets.count)")
        .replacingOccurrences(of: "{targets}", with: ConsoleText.list(targets, context))
      state.mode = .confirming(
        PendingConfirmation(
          question: question, prompt: question + " " + context.text("confirm.yes-no"),
          batch: batch, runs: planned.effects))
      return []
    }
    return start(&state, batch, planned.effects)
  }

  /// One run per selected row when the action names `{selection}` (so each row's pending
  /// mark clears as soon as its own work ends), and one per visible row for `{rows}`.
  static func plannedRuns(
    _ state: ConsoleState, _ action: RouteAction, values: [String], batch: Int,
    _ context: ConsoleContext
  ) -> (effects: [ConsoleEffect], targets: [String], names: [String: String]) {
    let parameters = context.parameters(state.screen.path)
    let inputs = zip(action.inputs, values).flatMap { $0.arguments($1) }
    let ids: [String]? =
      action.arguments.contains("{selection}")
      ? selection(state, context)
      : action.arguments.contains("{rows}") ? visibleRows(state, context).map(\.id) : nil
    guard let ids else {
      let arguments = action.expandedArguments(selection: [], parameters: parameters) + inputs
      // A file typed into the form names the target; else the screen's own title (a node's
      // name), else its path.
      var targets = zip(action.inputs, values).filter { $0.0.isPositional }.map(\.1)
      if targets.isEmpty {
        if case .screen(let screen)? = state.screen.view {
          targets = [screen.title]
        } else {
          targets = [state.screen.path]
        }
      }
      return ([.run(arguments: arguments, affected: [], batch: batch)], targets, [:])
    }
    let effects = ids.map { id in
      ConsoleEffect.run(
        arguments: action.expandedArguments(selection: [id], parameters: parameters) + inputs,
        affected: [id], batch: batch)
    }
    let names = SelectableRows.names(in: state.screen.view, columns: action.targetColumns)
    let targets = ids.map { names[$0] ?? $0 }
    return (effects, targets, names)
  }

  static func start(_ state: inout ConsoleState, _ batch: Batch, _ effects: [ConsoleEffect])
    -> [ConsoleEffect]
  {
    for case .run(_, let affected, _) in effects {
      state.pending.formUnion(affected)
      state.running += 1
    }
    if !effects.isEmpty { state.batches[batch.id] = batch }
    return effects
  }

  static func finished(
    _ state: inout ConsoleState, batch id: Int, affected: [String], outcome: ActionOutcome,
    _ context: ConsoleContext
  ) {
    state.pending.subtract(affected)
    state.running = max(0, state.running - 1)
    guard var batch = state.batches[id] else { return }
    batch.finished += 1
    if !outcome.succeeded {
      let message = outcome.message.map(ConsoleText.clause)
      let name = affected.first.map { batch.names[$0] ?? $0 }
      batch.failures.append(
        [name, message].compactMap { $0 }.joined(separator: ": ").nonEmpty
          ?? context.text("notice.failed", ["action": batch.title]))
    }
    guard batch.finished >= batch.total else {
      state.batches[id] = batch
      return
    }
    state.batches[id] = nil
    let result = ConsoleText.summary(batch, context)
    for tab in state.stacks.indices {
      for index in state.stacks[tab].indices where state.stacks[tab][index].id == batch.screenID {
        state.stacks[tab][index].result = result
      }
    }
    if var form = batch.form, !batch.failures.isEmpty, state.screen.id == batch.screenID,
      state.mode == .browsing
    {
      form.problem = ConsoleText.speakOfFields(
        outcome.message ?? result.text, inputs: inputs(of: form.key, state, context),
        labels: form.fields.map(\.label))
      state.mode = .form(form)
    }
  }

  static func inputs(of key: Character, _ state: ConsoleState, _ context: ConsoleContext)
    -> [RouteAction.Input]
  {
    actions(state, context).first { $0.key == key }?.inputs ?? []
  }

  static func confirm(
    _ state: inout ConsoleState, _ key: Key, _ confirmation: PendingConfirmation,
    _ context: ConsoleContext
  ) -> [ConsoleEffect] {
    switch key {
    case .character("y"), .character("Y"):
      state.mode = .browsing
      state.screen.marked = []
      return start(&state, confirmation.batch, confirmation.runs)
    case .character("n"), .character("N"), .escape, .control("c"):
      state.mode = .browsing
      state.screen.result = ScreenResult(context.text("notice.cancelled"))
      return []
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
      state.screen.filter = prompt.text
      keepCursorOnAVisibleRow(&state, context)
      settleScroll(&state, context)
      return []
    case .search:
      state.screen.search = prompt.text
      if isSearchable(state, context) {
        return [reload(&state)]
      }
      keepCursorOnAVisibleRow(&state, context)
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
      state.mode = .browsing
      state.screen.result = ScreenResult(context.text("notice.cancelled"))
      return []
    case .enter where form.focus < last:
      form.focus += 1
    case .enter:
      if let empty = form.fields.firstIndex(where: {
        !$0.isOptional && $0.value.trimmingCharacters(in: .whitespaces).isEmpty
      }) {
        form.focus = empty
        form.problem = context.text("form.required", ["field": form.fields[empty].label])
      } else if let action = actions(state, context).first(where: { $0.key == form.key }) {
        return plan(&state, action, values: form.fields.map(\.value), form: form, context)
      } else {
        state.mode = .browsing
        return []
      }
    default:
      break
    }
    state.mode = .form(form)
    return []
  }
}

extension String {
  var nonEmpty: String? { isEmpty ? nil : self }
}
