import AppCore
import Essentials
import FeatureKit
import Foundation
import Testing
import ViewKit

@Suite("The app core's update")
struct AppUpdateTests {
  @Test func tabsComeFromModulesWithAHomeAndTheFirstLoads() throws {
    let context = try makeContext()
    let state = AppState(tabs: AppState.tabs(of: context.registry, language: .simplifiedChinese))
    #expect(state.tabs.map(\.title) == ["节点", "消息"])
    #expect(AppUpdate.start(state) == [.load(path: "fleet", search: nil)])
    #expect(state.screen.isLoading)
    let loaded = loadedApp(context)
    #expect(!loaded.screen.isLoading)
    #expect(loaded.screen.cursorID == "id-alpha")
    #expect(loaded.lastRefresh == loadedAt)
  }

  @Test func aTabLoadsOnlyTheFirstTimeItIsShown() throws {
    let context = try makeContext()
    var state = loadedApp(context)
    #expect(AppUpdate.update(&state, .selectTab(1), context: context).count == 1)
    _ = AppUpdate.update(
      &state, .loaded(path: "inbox", view: .text(Text("x")), at: loadedAt), context: context)
    _ = AppUpdate.update(&state, .selectTab(0), context: context)
    #expect(AppUpdate.update(&state, .selectTab(1), context: context).isEmpty)
    #expect(AppUpdate.update(&state, .selectTab(7), context: context).isEmpty)
    #expect(state.activeTab == 1)
  }

  @Test func openingARowPushesItsRouteAndBackReturns() throws {
    let context = try makeContext()
    var state = loadedApp(context)
    let effects = AppUpdate.update(&state, .open(row: "id-bravo"), context: context)
    #expect(effects == [.load(path: "fleet/id-bravo", search: nil)])
    #expect(state.stacks[0].map(\.path) == ["fleet", "fleet/id-bravo"])
    #expect(AppUpdate.update(&state, .back, context: context).count == 1)
    #expect(state.screen.path == "fleet")
    // The home screen stays.
    #expect(AppUpdate.update(&state, .back, context: context).isEmpty)
    #expect(state.stacks[0].count == 1)
  }

  @Test func aFilterNarrowsTheRowsAndBackClearsItBeforeLeaving() throws {
    let context = try makeContext()
    var state = loadedApp(context)
    _ = AppUpdate.update(&state, .open(row: "id-alpha"), context: context)
    _ = AppUpdate.update(&state, .back, context: context)
    _ = AppUpdate.update(&state, .filter("char"), context: context)
    #expect(AppUpdate.visibleRows(state, context).map(\.id) == ["id-charlie"])
    #expect(state.screen.cursorID == "id-charlie")
    // A route that does not search is searched locally: no reload.
    #expect(AppUpdate.update(&state, .search("zzz"), context: context).isEmpty)
    #expect(AppUpdate.visibleRows(state, context).isEmpty)
    #expect(AppUpdate.update(&state, .back, context: context).isEmpty)
    #expect(state.screen.filter.isEmpty && state.screen.search.isEmpty)
    #expect(AppUpdate.visibleRows(state, context).count == 3)
  }

  @Test func aSearchableRouteReloadsWithTheSearch() throws {
    let context = try makeContext()
    var state = loadedApp(context)
    _ = AppUpdate.update(&state, .selectTab(1), context: context)
    let effects = AppUpdate.update(&state, .search("bank"), context: context)
    #expect(effects == [.load(path: "inbox", search: "bank", flags: [])])
    #expect(
      AppUpdate.update(&state, .back, context: context) == [.load(path: "inbox", search: nil)])
  }

  @Test func anActionRunsOncePerMarkedRowAndSummarisesFailuresByName() throws {
    let context = try makeContext()
    var state = loadedApp(context)
    _ = AppUpdate.update(&state, .toggleMark(row: "id-alpha"), context: context)
    _ = AppUpdate.update(&state, .toggleMark(row: "id-bravo"), context: context)
    let effects = AppUpdate.update(&state, .perform(action: "t"), context: context)
    #expect(
      commandLines(effects) == [["fleet", "test", "id-alpha"], ["fleet", "test", "id-bravo"]])
    #expect(state.pending == ["id-alpha", "id-bravo"])
    #expect(state.running == 2)
    guard case .run(_, _, let batch) = effects[0] else {
      Issue.record("no run")
      return
    }
    _ = AppUpdate.update(
      &state,
      .finished(batch: batch, affected: ["id-alpha"], outcome: ActionOutcome(succeeded: true)),
      context: context)
    #expect(state.screen.result == nil)
    #expect(state.pending == ["id-bravo"])
    let reload = AppUpdate.update(
      &state,
      .finished(
        batch: batch, affected: ["id-bravo"],
        outcome: ActionOutcome(succeeded: false, message: "Offline · timed out.")),
      context: context)
    #expect(reload == [.load(path: "fleet", search: nil, flags: [])])
    #expect(
      state.screen.result
        == ScreenResult("Test: 2 done · 1 failed (bravo: Offline · timed out)", isFailure: true))
    #expect(state.pending.isEmpty && state.running == 0)
  }

  @Test func anActionNeedingARowSaysSoWithoutOne() throws {
    let context = try makeContext()
    var state = AppState(tabs: AppState.tabs(of: context.registry, language: .english))
    _ = AppUpdate.update(
      &state, .loaded(path: "fleet", view: nodesTable([]), at: loadedAt), context: context)
    #expect(AppUpdate.update(&state, .perform(action: "t"), context: context).isEmpty)
    #expect(state.screen.result?.text.hasPrefix("Select a row first") == true)
  }

  /// Issue 30: the question is filled as the catalogue fills its texts, so its count chooses
  /// its word ("Delete 1 node", never "Delete 1 nodes" or a selector left in braces).
  @Test func aConfirmationsCountChoosesItsWord() throws {
    let context = try makeContext(language: .english)
    var state = loadedApp(context)
    _ = AppUpdate.update(&state, .perform(action: "d"), context: context)
    guard case .confirming(let one) = state.activity else {
      Issue.record("no confirmation")
      return
    }
    #expect(one.question == "Delete 1 node: alpha?")
    _ = AppUpdate.update(&state, .answer(yes: false), context: context)
    for row in ["id-alpha", "id-bravo"] {
      _ = AppUpdate.update(&state, .toggleMark(row: row), context: context)
    }
    _ = AppUpdate.update(&state, .perform(action: "d"), context: context)
    guard case .confirming(let two) = state.activity else {
      Issue.record("no confirmation")
      return
    }
    #expect(two.question == "Delete 2 nodes: alpha, bravo?")
  }

  @Test func aConfirmationNamesItsTargetsAndCountAndRunsOnlyOnYes() throws {
    let context = try makeContext(language: .simplifiedChinese)
    var state = loadedApp(context)
    for row in ["id-alpha", "id-bravo"] {
      _ = AppUpdate.update(&state, .toggleMark(row: row), context: context)
    }
    #expect(AppUpdate.update(&state, .perform(action: "d"), context: context).isEmpty)
    guard case .confirming(let confirmation) = state.activity else {
      Issue.record("no confirmation")
      return
    }
    #expect(confirmation.question == "删除 2 个节点：alpha、bravo？")
    #expect(AppUpdate.update(&state, .answer(yes: false), context: context).isEmpty)
    #expect(state.activity == nil)
    #expect(state.screen.result?.text == "已取消")
    #expect(state.screen.marked == ["id-alpha", "id-bravo"])
    _ = AppUpdate.update(&state, .perform(action: "d"), context: context)
    let runs = AppUpdate.update(&state, .answer(yes: true), context: context)
    #expect(
      commandLines(runs) == [["fleet", "remove", "id-alpha"], ["fleet", "remove", "id-bravo"]])
    #expect(state.screen.marked.isEmpty)
  }

  @Test func aFormAsksForItsFieldsAndNamesTheEmptyOne() throws {
    let context = try makeContext()
    var state = loadedApp(context)
    #expect(AppUpdate.update(&state, .perform(action: "a"), context: context).isEmpty)
    guard case .form(let form) = state.activity else {
      Issue.record("no form")
      return
    }
    #expect(form.title == "Nodes · Add")
    #expect(form.fields.map(\.label) == ["Name", "Password"])
    #expect(form.fields.map(\.isSecret) == [false, true])
    #expect(AppUpdate.update(&state, .submit(values: ["n1", " "]), context: context).isEmpty)
    guard case .form(let refused) = state.activity else {
      Issue.record("the form closed")
      return
    }
    #expect(refused.problem == "“Password” is empty: fill it in.")
    #expect(refused.focus == 1)
    let runs = AppUpdate.update(&state, .submit(values: ["n1", "secret"]), context: context)
    #expect(commandLines(runs) == [["fleet", "add", "--name", "n1", "--password", "secret"]])
    #expect(state.activity == nil)
    _ = AppUpdate.update(&state, .cancel, context: context)
    #expect(state.screen.result?.text == "Cancelled")
  }

  @Test func aFailedFormComesBackWithTheProblemNamedByField() throws {
    let context = try makeContext()
    var state = loadedApp(context)
    _ = AppUpdate.update(&state, .perform(action: "a"), context: context)
    let runs = AppUpdate.update(&state, .submit(values: ["taken", "pw"]), context: context)
    guard case .run(_, _, let batch)? = runs.first else {
      Issue.record("no run")
      return
    }
    _ = AppUpdate.update(
      &state,
      .finished(
        batch: batch, affected: [],
        outcome: ActionOutcome(succeeded: false, message: "--name <NAME> is taken.")),
      context: context)
    guard case .form(let form) = state.activity else {
      Issue.record("the form did not come back")
      return
    }
    #expect(form.problem == "“Name” is taken")
    #expect(form.fields.map(\.value) == ["taken", "pw"])
  }

  @Test func refreshReloadsAndRunsTheRoutesRefreshActionOnEveryRow() throws {
    let context = try makeContext()
    var state = loadedApp(context)
    #expect(AppUpdate.hasRefreshAction(state, context))
    let effects = AppUpdate.update(&state, .refresh, context: context)
    #expect(effects.first == .load(path: "fleet", search: nil, flags: []))
    #expect(commandLines(effects).count == 3)
  }

  @Test func aCustomBuildLeavesOutActionsOpeningMissingRoutes() throws {
    let full = try makeContext()
    let fleetOnly = try makeContext([fleetModule])
    #expect(AppUpdate.actions(loadedApp(full), full).contains { $0.key == "m" })
    #expect(!AppUpdate.actions(loadedApp(fleetOnly), fleetOnly).contains { $0.key == "m" })
    var state = loadedApp(fleetOnly)
    #expect(AppUpdate.update(&state, .perform(action: "m"), context: fleetOnly).isEmpty)
    #expect(
      AppUpdate.update(&state, .perform(action: "o"), context: fleetOnly)
        == [.load(path: "fleet/id-alpha", search: nil)])
  }

  @Test func anAppWithoutTabsIgnoresEverything() throws {
    let context = try makeContext([])
    var state = AppState(tabs: [])
    #expect(AppUpdate.start(state).isEmpty)
    for message in [
      AppMessage.back, .refresh, .perform(action: "t"), .selectTab(0), .search("x"),
      .finished(batch: 1, affected: [], outcome: ActionOutcome(succeeded: true)),
    ] {
      #expect(AppUpdate.update(&state, message, context: context).isEmpty)
    }
  }
}

@Test func theCoreCatalogueHasEveryStringInBothLanguages() {
  #expect(AppCoreStrings.catalogue.problems().isEmpty)
}
