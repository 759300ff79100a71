import Essentials
import FeatureKit
import Foundation
import ViewKit

/// What the update reads besides the state: the registry (routes and their actions) and the
/// language. Both are immutable, so the update stays a pure function.
public struct AppContext: Sendable {
  /// The app's features.
  public let registry: FeatureRegistry
  /// The app's language.
  public let language: AppLanguage
  /// A shell's own wording of some of the core's sentences (the console names its keys:
  /// "mark rows with space"); the rest come from the core's catalogue.
  public let wording: StringCatalogue?

  /// A context.
  public init(registry: FeatureRegistry, language: AppLanguage, wording: StringCatalogue? = nil) {
    self.registry = registry
    self.language = language
    self.wording = wording
  }

  /// A sentence in the app's language: the shell's wording, else the core's catalogue.
  public func string(_ key: String, _ arguments: [String: String] = [:]) -> String {
    if let wording, wording.entries[key] != nil {
      return wording.text(key, language, arguments)
    }
    return AppCoreStrings.text(key, language, arguments)
  }

  /// The route at `path`, if this build has one.
  public func route(_ path: String) -> FeatureRoute? {
    registry.route(for: path)?.route
  }

  /// The parameters `path` fills in its route's pattern.
  public func parameters(_ path: String) -> [String: String] {
    registry.route(for: path)?.parameters ?? [:]
  }
}

/// The pure heart of both apps: (state, message) → (next state, effects).
///
/// ``update(_:_:context:)`` takes a whole ``AppMessage`` (the phone's way); the steps it is
/// made of are public too, so a shell with more state of its own (the console's scrolling,
/// prompts and help) can run them one by one with its own work in between.
public enum AppUpdate {
  /// The effects that load the first tab's first screen.
  public static func start(_ state: AppState) -> [AppEffect] {
    state.tabs.isEmpty ? [] : [.load(path: state.screen.path, search: nil)]
  }

  /// Applies `message` to `state` and returns what the runtime must do next.
  public static func update(_ state: inout AppState, _ message: AppMessage, context: AppContext)
    -> [AppEffect]
  {
    switch message {
    case .loaded(let path, let view, let date):
      loaded(&state, path: path, view: view, at: date, context)
      if state.activity == nil { openRouteForm(&state, path: path, context) }
      return []
    case .finished(let batch, let affected, let outcome):
      finished(
        &state, batch: batch, affected: affected, outcome: outcome,
        reopenForm: state.activity == nil, context)
      return state.tabs.isEmpty ? [] : [reload(&state)]
    case .refresh:
      return refresh(&state, context)
    default:
      break
    }
    guard !state.tabs.isEmpty else { return [] }
    switch message {
    case .selectTab(let index):
      return selectTab(&state, index)
    case .select(let row):
      state.screen.cursorID = row
    case .open(let row):
      return open(&state, row: row, context)
    case .push(let path):
      return push(&state, path)
    case .back:
      return clearSearchAndFilter(&state, context) ?? pop(&state)
    case .close:
      return pop(&state)
    case .search(let text):
      return search(&state, text, context)
    case .filter(let text):
      filter(&state, text, context)
    case .toggleMark(let row):
      toggleMark(&state, row)
    case .perform(let key):
      return perform(&state, key, context)
    case .submit(let values):
      guard case .form(var form) = state.activity else { return [] }
      for (index, value) in zip(form.fields.indices, values) { form.fields[index].value = value }
      return submit(&state, form, context)
    case .cancel:
      cancel(&state, context)
    case .answer(let yes):
      guard case .confirming(let confirmation) = state.activity else { return [] }
      return answer(&state, yes: yes, confirmation, context)
    case .loaded, .finished, .refresh:
      break
    }
    return []
  }

  // MARK: - Loading

  /// Puts a loaded view on every screen showing `path`, and keeps the cursor on a row the
  /// user can see.
  public static func loaded(
    _ state: inout AppState, path: String, view: ViewNode, at date: Date, _ context: AppContext
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
  }

  /// Opens the form of a route that asks for one on arrival (a conversation's reply), once
  /// per screen, when `path` is the screen shown. The shell calls it only when nothing else
  /// has the user's attention.
  public static func openRouteForm(_ state: inout AppState, path: String, _ context: AppContext) {
    guard state.screen.path == path, !state.screen.formShown,
      let key = context.route(path)?.formKey,
      let action = actions(state, context).first(where: { $0.key == key })
    else { return }
    state.screen.formShown = true
    openForm(&state, action, context)
  }

  /// Reloads the screen shown (with its search and view options).
  public static func reload(_ state: inout AppState) -> AppEffect {
    state.screen.isLoading = true
    let search = state.screen.search
    return .load(
      path: state.screen.path, search: search.isEmpty ? nil : search, flags: state.screen.flags)
  }

  /// Reload, and run the route's own refresh action if it has one.
  public static func refresh(_ state: inout AppState, _ context: AppContext) -> [AppEffect] {
    guard !state.tabs.isEmpty else { return [] }
    var effects = [reload(&state)]
    if let action = actions(state, context).first(where: { $0.key == RouteAction.refreshKey }) {
      state.screen.result = nil
      effects += plan(&state, action, values: [], form: nil, context)
    }
    return effects
  }

  /// Whether the screen shown has a refresh action of its own (refreshing then runs it).
  public static func hasRefreshAction(_ state: AppState, _ context: AppContext) -> Bool {
    !state.tabs.isEmpty
      && actions(state, context).contains { $0.key == RouteAction.refreshKey }
  }

  // MARK: - Navigation

  /// Shows the tab at `index`, loading it the first time.
  public static func selectTab(_ state: inout AppState, _ index: Int) -> [AppEffect] {
    guard state.tabs.indices.contains(index) else { return [] }
    state.screen.result = nil
    state.activeTab = index
    state.screen.result = nil
    return state.screen.view == nil ? [reload(&state)] : []
  }

  /// Opens `path` on top of the current screen.
  public static func push(_ state: inout AppState, _ path: String) -> [AppEffect] {
    state.screen.result = nil
    let id = state.takeID()
    state.stacks[state.activeTab].append(ScreenState(path: path, id: id))
    return [.load(path: path, search: nil)]
  }

  /// Opens the link of the visible row `row`, if it has one.
  public static func open(_ state: inout AppState, row: String, _ context: AppContext)
    -> [AppEffect]
  {
    guard let link = visibleRows(state, context).first(where: { $0.id == row })?.link else {
      return []
    }
    return push(&state, link)
  }

  /// Clears the search and filter; nil when there were none (back then closes the screen).
  public static func clearSearchAndFilter(_ state: inout AppState, _ context: AppContext)
    -> [AppEffect]?
  {
    guard !state.screen.search.isEmpty || !state.screen.filter.isEmpty else { return nil }
    let searched = isSearchable(state, context) && !state.screen.search.isEmpty
    state.screen.search = ""
    state.screen.filter = ""
    return searched ? [reload(&state)] : []
  }

  /// Closes the screen shown, back to the one below it (never the tab's home).
  public static func pop(_ state: inout AppState) -> [AppEffect] {
    guard state.stacks[state.activeTab].count > 1 else { return [] }
    state.stacks[state.activeTab].removeLast()
    state.screen.result = nil
    return [reload(&state)]
  }

  // MARK: - Rows, search, filter and marks

  /// Whether the screen's route searches by itself (the search is passed to it).
  public static func isSearchable(_ state: AppState, _ context: AppContext) -> Bool {
    context.route(state.screen.path)?.isSearchable ?? false
  }

  /// Searches for `text`: a searchable route reloads with it, any other filters its rows.
  public static func search(_ state: inout AppState, _ text: String, _ context: AppContext)
    -> [AppEffect]
  {
    state.screen.search = text
    if isSearchable(state, context) { return [reload(&state)] }
    keepCursorOnAVisibleRow(&state, context)
    return []
  }

  /// Keeps only the rows containing `text`.
  public static func filter(_ state: inout AppState, _ text: String, _ context: AppContext) {
    state.screen.filter = text
    keepCursorOnAVisibleRow(&state, context)
  }

  /// Marks `row` for a batch action, or unmarks it.
  public static func toggleMark(_ state: inout AppState, _ row: String) {
    if state.screen.marked.contains(row) {
      state.screen.marked.remove(row)
    } else {
      state.screen.marked.insert(row)
    }
  }

  /// The rows the user sees: filtered, and searched where the route does not search.
  public static func visibleRows(_ state: AppState, _ context: AppContext) -> [SelectableRow] {
    let screen = state.screen
    let localSearch = isSearchable(state, context) ? "" : screen.search
    return SelectableRows.rows(in: screen.view).filter {
      SelectableRows.matches($0, screen.filter) && SelectableRows.matches($0, localSearch)
    }
  }

  /// Moves the cursor to the first visible row when its row is gone, and forgets marks on
  /// rows no longer shown.
  public static func keepCursorOnAVisibleRow(_ state: inout AppState, _ context: AppContext) {
    let rows = visibleRows(state, context)
    if !rows.contains(where: { $0.id == state.screen.cursorID }) {
      state.screen.cursorID = rows.first?.id
    }
    state.screen.marked.formIntersection(rows.map(\.id))
  }

  // MARK: - Actions

  /// The route's actions this build can carry out: a navigation action whose target route
  /// is not compiled in (a custom build) is left out.
  public static func actions(_ state: AppState, _ context: AppContext) -> [RouteAction] {
    let parameters = context.parameters(state.screen.path)
    return (context.route(state.screen.path)?.actions ?? []).filter { action in
      guard let probe = action.openedPath(selection: "x", parameters: parameters) else {
        return true
      }
      return context.registry.route(for: probe) != nil
    }
  }

  /// The rows an action applies to: the marked ones, else the one under the cursor.
  public static func selection(_ state: AppState, _ context: AppContext) -> [String] {
    let visible = visibleRows(state, context).map(\.id)
    let marked = visible.filter(state.screen.marked.contains)
    if !marked.isEmpty { return marked }
    return state.screen.cursorID.map { [$0] } ?? []
  }

  /// Starts the route's action with `key`, if the screen has one.
  public static func perform(_ state: inout AppState, _ key: Character, _ context: AppContext)
    -> [AppEffect]
  {
    guard let action = actions(state, context).first(where: { $0.key == key }) else { return [] }
    return begin(&state, action, context)
  }

  /// Starts `action`: opens its route, toggles its view option, opens its form, asks for its
  /// confirmation or runs it.
  public static func begin(_ state: inout AppState, _ action: RouteAction, _ context: AppContext)
    -> [AppEffect]
  {
    if action.needsSelection && selection(state, context).isEmpty {
      state.screen.result = ScreenResult(context.string("notice.select-first"))
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
  public static func openForm(
    _ state: inout AppState, _ action: RouteAction, _ context: AppContext
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
    state.activity = .form(
      FormState(key: action.key, title: title, fields: fields, focus: 0, problem: nil))
  }

  /// Confirms or starts the action's runs.
  public static func plan(
    _ state: inout AppState, _ action: RouteAction, values: [String], form: FormState?,
    _ context: AppContext
  ) -> [AppEffect] {
    state.activity = nil
    let batchID = state.takeID()
    let planned = plannedRuns(state, action, values: values, batch: batchID, context)
    let batch = Batch(
      id: batchID, screenID: state.screen.id, title: action.title.resolve(context.language),
      outcome: action.outcome?.resolve(context.language), total: planned.effects.count,
      finished: 0, failures: [], names: planned.names, form: form)
    if let confirmation = action.confirmation {
      let targets = planned.targets
      // Filled as the catalogue fills its texts, so a count chooses its word (issue 30).
      let question = StringCatalogue.fill(
        confirmation.resolve(context.language),
        ["count": "\(targets.count)", "targets": AppText.list(targets, context)])
      state.activity = .confirming(
        PendingConfirmation(question: question, batch: batch, runs: planned.effects))
      return []
    }
    return start(&state, batch, planned.effects)
  }

  /// One run per selected row when the action names `{selection}` (so each row's pending
  /// mark clears as soon as its own work ends), and one per visible row for `{rows}`.
  static func plannedRuns(
    _ state: AppState, _ action: RouteAction, values: [String], batch: Int, _ context: AppContext
  ) -> (effects: [AppEffect], targets: [String], names: [String: String]) {
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
      AppEffect.run(
        arguments: action.expandedArguments(selection: [id], parameters: parameters) + inputs,
        affected: [id], batch: batch)
    }
    let names = SelectableRows.names(in: state.screen.view, columns: action.targetColumns)
    let targets = ids.map { names[$0] ?? $0 }
    return (effects, targets, names)
  }

  /// Starts a batch's runs: their rows show as pending until each ends.
  public static func start(_ state: inout AppState, _ batch: Batch, _ effects: [AppEffect])
    -> [AppEffect]
  {
    for case .run(_, let affected, _) in effects {
      state.pending.formUnion(affected)
      state.running += 1
    }
    if !effects.isEmpty { state.batches[batch.id] = batch }
    return effects
  }

  /// Counts one run of a batch as ended; when the last ends, leaves the batch's summary on
  /// its screen and, when it failed and `reopenForm` allows, opens its form again with the
  /// problem named by field.
  public static func finished(
    _ state: inout AppState, batch id: Int, affected: [String], outcome: ActionOutcome,
    reopenForm: Bool, _ context: AppContext
  ) {
    state.pending.subtract(affected)
    state.running = max(0, state.running - 1)
    guard var batch = state.batches[id] else { return }
    batch.finished += 1
    if !outcome.succeeded {
      let message = outcome.message.map(AppText.clause)
      let name = affected.first.map { batch.names[$0] ?? $0 }
      batch.failures.append(
        [name, message].compactMap { $0 }.joined(separator: ": ").nonEmpty
          ?? context.string("notice.failed", ["action": batch.title]))
    }
    guard batch.finished >= batch.total else {
      state.batches[id] = batch
      return
    }
    state.batches[id] = nil
    let result = AppText.summary(batch, context)
    for tab in state.stacks.indices {
      for index in state.stacks[tab].indices where state.stacks[tab][index].id == batch.screenID {
        state.stacks[tab][index].result = result
      }
    }
    if var form = batch.form, !batch.failures.isEmpty, state.screen.id == batch.screenID,
      reopenForm
    {
      form.problem = AppText.speakOfFields(
        outcome.message ?? result.text, inputs: inputs(of: form.key, state, context),
        labels: form.fields.map(\.label))
      state.activity = .form(form)
    }
  }

  static func inputs(of key: Character, _ state: AppState, _ context: AppContext)
    -> [RouteAction.Input]
  {
    actions(state, context).first { $0.key == key }?.inputs ?? []
  }

  /// Answers a confirmation: yes starts its runs (and clears the marks), no cancels.
  public static func answer(
    _ state: inout AppState, yes: Bool, _ confirmation: PendingConfirmation,
    _ context: AppContext
  ) -> [AppEffect] {
    state.activity = nil
    guard yes else {
      state.screen.result = ScreenResult(context.string("notice.cancelled"))
      return []
    }
    state.screen.marked = []
    return start(&state, confirmation.batch, confirmation.runs)
  }

  /// Closes the form or confirmation without running anything.
  public static func cancel(_ state: inout AppState, _ context: AppContext) {
    state.activity = nil
    state.screen.result = ScreenResult(context.string("notice.cancelled"))
  }

  /// Runs a filled-in form: a required field left empty keeps the form open with the problem
  /// naming it (and the focus on it); else its action is planned.
  public static func submit(_ state: inout AppState, _ form: FormState, _ context: AppContext)
    -> [AppEffect]
  {
    var form = form
    if let empty = form.fields.firstIndex(where: {
      !$0.isOptional && $0.value.trimmingCharacters(in: .whitespaces).isEmpty
    }) {
      form.focus = empty
      form.problem = context.string("form.required", ["field": form.fields[empty].label])
      state.activity = .form(form)
      return []
    }
    guard let action = actions(state, context).first(where: { $0.key == form.key }) else {
      state.activity = nil
      return []
    }
    return plan(&state, action, values: form.fields.map(\.value), form: form, context)
  }
}
