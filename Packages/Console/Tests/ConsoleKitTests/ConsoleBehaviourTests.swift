import CommandLineKit
import ConsoleKit
import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import Testing
import ThemeKit
import ViewKit

let behaviourCatalogue = StringCatalogue(
  entries: [
    "x": ["en": "X", "zh-Hans": "叉"], "tab": ["en": "Box", "zh-Hans": "盒"],
    "test": ["en": "Test", "zh-Hans": "测试"],
    "tested": ["en": "{count} tested", "zh-Hans": "已测试 {count} 项"],
    "refresh": ["en": "Test all", "zh-Hans": "全部测试"],
    "remove": ["en": "Remove", "zh-Hans": "删除"],
    "confirm": [
      "en": "Remove {count} instance(s): {targets}?", "zh-Hans": "删除 {count} 个实例：{targets}？",
    ],
    "send": ["en": "Send", "zh-Hans": "发送"], "to": ["en": "To", "zh-Hans": "收件人"],
    "text": ["en": "Text", "zh-Hans": "内容"], "bodies": ["en": "Show bodies", "zh-Hans": "显示内容"],
    "save": ["en": "Save", "zh-Hans": "保存"], "name": ["en": "Name", "zh-Hans": "名称"],
  ], origin: "behaviour")

func word(_ key: String) -> LocalizedString { LocalizedString(key, in: behaviourCatalogue) }

/// A table of `names`, one row each, linking nowhere.
func table(_ names: [String]) -> ViewNode {
  ShellFixtures.statusTable(
    title: "Box",
    rows: names.enumerated().map { index, name in
      TableRow(id: "r\(index)", cells: [TableCell(name), TableCell("online")])
    }, namePriority: 1, statusPriority: 2)
}

/// A thread of `count` messages, oldest first, one text line each.
func thread(_ count: Int) -> ViewNode {
  .screen(
    Screen(
      title: "10086",
      children: (1...count).map { .text(Text("message \($0)")) }))
}

let boxModule = FeatureModule(
  id: "box", name: word("tab"), summary: word("x"), order: 10, home: "box",
  routes: [
    FeatureRoute(
      "box", title: word("tab"),
      actions: [
        RouteAction(
          key: "t", title: word("test"), arguments: ["box", "test", "{selection}"],
          needsSelection: true),
        RouteAction(
          key: "r", title: word("refresh"), arguments: ["box", "test", "{rows}"],
          outcome: word("tested")),
        RouteAction(
          key: "d", title: word("remove"), arguments: ["box", "remove", "{selection}", "--yes"],
          confirmation: word("confirm"), needsSelection: true),
        RouteAction(key: "v", title: word("bodies"), toggles: "bodies"),
      ],
      load: { _ in table([]) }, view: { view, _ in view }),
    FeatureRoute(
      "box/thread/:peer", title: word("x"),
      actions: [
        RouteAction(
          key: "s", title: word("send"), arguments: ["box", "send"],
          inputs: [
            .init(option: "to", label: word("to"), prefill: "{param:peer}"),
            .init(option: "text", label: word("text")),
          ])
      ],
      startsAtEnd: true, load: { _ in thread(1) }, view: { view, _ in view }),
    FeatureRoute(
      "box/:ref/edit", title: word("x"),
      actions: [
        RouteAction(
          key: "s", title: word("save"), arguments: ["box", "edit", "{param:ref}"],
          inputs: [.init(option: "name", label: word("name"))])
      ],
      formKey: "s", load: { _ in table([]) }, view: { view, _ in view }),
  ],
  commands: [
    tolerantCommand("box", ["test", "remove", "send", "edit"], options: ["to", "text", "name"])
  ],
  catalogue: behaviourCatalogue)

func boxContext(_ language: AppLanguage = .english) throws -> ConsoleContext {
  ConsoleContext(
    registry: try ShellFixtures.registry([boxModule], catalogue: behaviourCatalogue),
    language: language)
}

/// A console on the box tab showing `view` at `path`.
func box(
  _ context: ConsoleContext, _ view: ViewNode, path: String = "box", width: Int = 80,
  height: Int = 12
) -> ConsoleState {
  var state = ConsoleState(
    tabs: ConsoleState.tabs(of: context.registry, language: context.language), width: width,
    height: height)
  if path != "box" {
    state.stacks[0].append(ScreenState(path: path, id: 99))
  }
  _ = ConsoleUpdate.update(&state, .loaded(path: path, view: view, at: loadedAt), context: context)
  return state
}

func lines(_ state: ConsoleState, _ context: ConsoleContext) -> [String] {
  render(state, context).components(separatedBy: "\n")
}

@Suite struct ScrollingTests {
  @Test func aConversationOpensAtItsNewestMessageAndScrollsEveryWay() throws {
    let context = try boxContext()
    var state = box(context, thread(14), path: "box/thread/10086")
    var screen = lines(state, context)
    #expect(screen.contains("message 14"))
    #expect(!screen.contains("message 1"))
    #expect(screen[1].contains("lines"))
    _ = send([.character("g")], to: &state, context)
    screen = lines(state, context)
    #expect(screen.contains { $0.contains("10086") } && screen.contains("message 1"))
    #expect(!screen.contains("message 14"))
    _ = send([.character("j"), .down], to: &state, context)
    #expect(state.screen.scroll == 2)
    _ = send([.pageDown], to: &state, context)
    #expect(state.screen.scroll > 2)
    _ = send([.end], to: &state, context)
    #expect(lines(state, context).contains("message 14"))
    _ = send([.pageUp, .home], to: &state, context)
    #expect(state.screen.scroll == 0)
    _ = send([.character("G")], to: &state, context)
    #expect(state.screen.followsEnd)
    // A reload (a sync brought a 15th message) keeps the newest in sight.
    _ = ConsoleUpdate.update(
      &state, .loaded(path: "box/thread/10086", view: thread(15), at: loadedAt), context: context)
    #expect(lines(state, context).contains("message 15"))
  }

  @Test(arguments: [(80, 12), (120, 40), (40, 12)])
  func theSelectionStaysInView(width: Int, height: Int) throws {
    let context = try boxContext()
    var state = box(context, table((1...60).map { "node \($0)" }), width: width, height: height)
    for keys: [Key] in [
      [.end], [.pageUp], [.character("G")], [.up, .up], [.pageDown], [.character("g")],
      Array(repeating: .down, count: 25), [.home],
    ] {
      _ = send(keys, to: &state, context)
      let cursor = try #require(state.screen.cursorID)
      let index = try #require(Int(cursor.dropFirst()))
      let shown = lines(state, context)
      #expect(shown.count == height)
      #expect(
        shown.contains { $0.hasPrefix("›") && $0.contains("node \(index + 1) ") },
        "cursor row \(index + 1) not in view after \(keys)")
    }
    _ = send([.character("G")], to: &state, context)
    #expect(state.screen.cursorID == "r59")
    _ = send([.character("g")], to: &state, context)
    #expect(state.screen.cursorID == "r0")
    _ = send([.pageDown], to: &state, context)
    #expect(state.screen.cursorID == "r\(state.bodyHeight - 1)")
  }

  @Test func helpScrollsAndListsRefreshOnceUnderTheRoutesTitle() throws {
    let context = try boxContext()
    var state = box(context, table(["a"]), height: 12)
    _ = send([.character("?")], to: &state, context)
    let first = lines(state, context)
    _ = send([.pageDown], to: &state, context)
    #expect(lines(state, context) != first)
    _ = send([.character("G")], to: &state, context)
    let help = lines(state, context).joined(separator: "\n")
    #expect(help.contains("v             Show bodies"))
    _ = send([.character("g")], to: &state, context)
    var all = lines(state, context).joined(separator: "\n")
    for _ in 0..<4 {
      _ = send([.pageDown], to: &state, context)
      all += lines(state, context).joined(separator: "\n")
    }
    #expect(all.contains("r             Test all"))
    #expect(!all.contains("r             Refresh"))
    _ = send([.character("x")], to: &state, context)
    #expect(state.mode == .browsing)
  }
}

@Suite struct FormTests {
  @Test func toIsAPrefilledEditableFieldAndEmptyFieldsAreNamed() throws {
    let context = try boxContext()
    var state = box(context, thread(3), path: "box/thread/10086")
    _ = send([.character("s")], to: &state, context)
    guard case .form(let form) = state.mode else {
      Issue.record("expected a form")
      return
    }
    #expect(form.fields.map(\.value) == ["10086", ""])
    var screen = lines(state, context)
    #expect(screen.contains { $0.hasPrefix("› To") && $0.contains("10086▏") })
    #expect(screen.contains { $0.hasPrefix("  Text") })
    // Edit the number, leave the text empty and try to send.
    _ = send([.backspace, .character("0"), .enter, .enter], to: &state, context)
    screen = lines(state, context)
    #expect(screen.contains("✖ “Text” is empty: fill it in, or press Esc to cancel."))
    #expect(!screen.joined().contains("--text"))
    let effects = send("hi".map(Key.character) + [.enter], to: &state, context)
    #expect(commandLines(effects) == [["box", "send", "--to", "10080", "--text", "hi"]])
  }

  @Test func aFailedFormRunOpensTheFormAgainSpeakingOfFields() throws {
    let context = try boxContext()
    var state = box(context, thread(3), path: "box/thread/10086")
    _ = send([.character("s"), .enter] + "hi".map(Key.character), to: &state, context)
    let effects = send([.enter], to: &state, context)
    let batch = try #require(batchID(effects))
    _ = ConsoleUpdate.update(
      &state,
      .finished(
        batch: batch, affected: [],
        outcome: ActionOutcome(
          succeeded: false, message: "'--to <NUMBER>' is not a phone number.")),
      context: context)
    guard case .form(let form) = state.mode else {
      Issue.record("expected the form again")
      return
    }
    #expect(form.problem == "“To” is not a phone number")
    #expect(form.fields.map(\.value) == ["10086", "hi"])
  }

  @Test func aFormScreenOpensItsFormFilledFromTheScreensFields() throws {
    let context = try boxContext()
    let view = ViewNode.screen(
      Screen(
        title: "Edit",
        children: [.field(FormField(id: "name", label: "Name", value: "Beijing CPE"))]))
    let state = box(context, view, path: "box/n1/edit")
    guard case .form(let form) = state.mode else {
      Issue.record("expected the screen's form")
      return
    }
    #expect(form.title == "Edit · Save")
    #expect(form.fields.map(\.value) == ["Beijing CPE"])
  }
}

@Suite struct ResultTests {
  @Test func aBatchReadsAsCountsWithEachFailureNamed() throws {
    let context = try boxContext()
    var state = box(context, table(["Beijing CPE", "Wuhan Hanging", "Chengdu Legacy"]))
    let effects = send([.character("r")], to: &state, context)
    let batch = try #require(batchID(effects))
    #expect(commandLines(effects).count == 3)
    for (row, outcome) in [
      ("r0", ActionOutcome(succeeded: true)),
      ("r1", ActionOutcome(succeeded: false, message: "Offline · timed out")),
    ] {
      _ = ConsoleUpdate.update(
        &state, .finished(batch: batch, affected: [row], outcome: outcome), context: context)
    }
    #expect(state.screen.result == nil)
    _ = ConsoleUpdate.update(
      &state, .finished(batch: batch, affected: ["r2"], outcome: ActionOutcome(succeeded: true)),
      context: context)
    #expect(
      state.screen.result
        == ScreenResult("3 tested · 1 failed (Wuhan Hanging: Offline · timed out)", isFailure: true)
    )
    // Too long to share the status line: it takes its own line above it, whole.
    let shown = lines(state, context)
    #expect(shown.count == 12)
    #expect(shown[9] == "✖ 3 tested · 1 failed (Wuhan Hanging: Offline · timed out)")
    #expect(shown[10].contains("Refreshed"))
    // At 40 columns it breaks between words, never inside one.
    _ = ConsoleUpdate.update(&state, .resized(width: 40, height: 12), context: context)
    let narrow = lines(state, context)
    #expect(narrow.count == 12)
    #expect(
      narrow[8...9].joined(separator: " ")
        == "✖ 3 tested · 1 failed (Wuhan Hanging: Offline · timed out)")
  }

  @Test func aResultBelongsToItsScreenAndClearsOnNavigation() throws {
    let context = try boxContext()
    var state = box(context, table(["alpha"]))
    let batch = try #require(batchID(send([.character("t")], to: &state, context)))
    _ = ConsoleUpdate.update(
      &state,
      .finished(batch: batch, affected: ["r0"], outcome: ActionOutcome(succeeded: true)),
      context: context)
    #expect(lines(state, context)[10].contains("Done: Test"))
    _ = send([.character("v")], to: &state, context)
    #expect(state.screen.result != nil)
    state.stacks[0].append(ScreenState(path: "box/thread/1", id: 50))
    _ = send([.escape], to: &state, context)
    #expect(state.screen.result == nil)
    #expect(!lines(state, context)[10].contains("Done"))
  }

  @Test func chineseFailuresDoNotDoubleTheirPunctuation() throws {
    let context = try boxContext(.simplifiedChinese)
    var state = box(context, table(["北京", "武汉"]))
    let batch = try #require(batchID(send([.character("r")], to: &state, context)))
    _ = ConsoleUpdate.update(
      &state,
      .finished(
        batch: batch, affected: ["r1"],
        outcome: ActionOutcome(succeeded: false, message: "离线 · 超时。")), context: context)
    _ = ConsoleUpdate.update(
      &state, .finished(batch: batch, affected: ["r0"], outcome: ActionOutcome(succeeded: true)),
      context: context)
    #expect(state.screen.result?.text == "已测试 2 项 · 1 项失败（武汉: 离线 · 超时）")
  }
}

@Suite struct ConfirmationTests {
  @Test func namesEveryTargetInFullWithTheCount() throws {
    let context = try boxContext()
    var state = box(context, table(["Real One", "Real Two"]))
    _ = send([.character(" "), .character(" "), .character("d")], to: &state, context)
    guard case .confirming(let confirmation) = state.mode else {
      Issue.record("expected a confirmation")
      return
    }
    #expect(confirmation.question == "Remove 2 instance(s): Real One, Real Two?")
  }

  @Test func namesTheFirstFewAndHowManyMore() throws {
    let context = try boxContext()
    var state = box(context, table((1...6).map { "Real \($0)" }))
    _ = send(Array(repeating: .character(" "), count: 6) + [.character("d")], to: &state, context)
    guard case .confirming(let confirmation) = state.mode else {
      Issue.record("expected a confirmation")
      return
    }
    #expect(confirmation.question == "Remove 6 instance(s): Real 1, Real 2, Real 3 and 3 more?")
    // At 40 columns the question takes the lines it needs above the key line, whole.
    _ = ConsoleUpdate.update(&state, .resized(width: 40, height: 12), context: context)
    let shown = lines(state, context)
    #expect(shown.count == 12)
    #expect(
      shown[10...11].joined(separator: " ")
        == "Remove 6 instance(s): Real 1, Real 2, Real 3 and 3 more? [y/n]")
  }
}

@Suite struct ToggleAndOutcomeTests {
  @Test func aToggleKeyFlipsAScreenFlagAndReloads() throws {
    let context = try boxContext()
    var state = box(context, table(["a"]))
    #expect(
      send([.character("v")], to: &state, context) == [
        .load(path: "box", search: nil, flags: ["bodies"])
      ])
    #expect(send([.character("v")], to: &state, context) == [.load(path: "box", search: nil)])
  }

  @Test func cCopiesTheSelectedRowsCodeOnlyOnThatKeyAndOnlyWhenAllowed() throws {
    let view = ViewNode.screen(
      Screen(
        title: "Box",
        children: [
          .table(
            Table(
              columns: [TableColumn(id: "code", title: "Code", minWidth: 6)],
              rows: [
                TableRow(id: "r0", cells: [TableCell("••••••")], copyValue: "482913"),
                TableRow(id: "r1", cells: [TableCell("")]),
              ]))
        ]))
    let context = try boxContext()
    var state = box(context, view)
    // Nothing is copied until the key, and the frame never holds the code.
    #expect(state.clipboard == nil)
    #expect(!render(state, context).contains("482913"))
    #expect(send([.character("c")], to: &state, context).isEmpty)
    #expect(state.clipboard == "482913")
    #expect(state.screen.result?.text.contains("clipboard") == true)
    #expect(!render(state, context).contains("482913"))
    // A row without a code: nothing to copy.
    state.clipboard = nil
    _ = send([.down, .character("c")], to: &state, context)
    #expect(state.clipboard == nil)
    // --no-clipboard turns the key off.
    let off = ConsoleContext(
      registry: context.registry, language: context.language, clipboard: false)
    var quiet = box(off, view)
    _ = send([.character("c")], to: &quiet, off)
    #expect(quiet.clipboard == nil)
    // The terminal gets OSC 52 with the code in base64, nothing raw.
    #expect(TerminalSession.clipboardSequence("482913") == "\u{1B}]52;c;NDgyOTEz\u{07}")
  }

  @Test func aFailedCommandsViewSaysWhatWentWrong() {
    let view = ViewNode.screen(
      Screen(
        title: "Nodes",
        children: [
          .banner(Banner("Reached over plain HTTP", tone: .warning)),
          .table(
            Table(
              columns: [TableColumn(id: "n", title: "N", minWidth: 4, priority: 1)],
              rows: [
                TableRow(
                  id: "1", cells: [TableCell("Beijing"), TableCell("Online", tone: .success)]),
                TableRow(
                  id: "2",
                  cells: [TableCell("Wuhan"), TableCell("Offline · timed out", tone: .danger)]),
              ])),
        ]))
    #expect(ActionOutcome.failureText(in: view) == "Offline · timed out")
    #expect(ActionOutcome.failureText(in: .text(Text("fine"))) == nil)
    #expect(
      ActionOutcome.failureText(in: .banner(Banner("No such file", tone: .danger)))
        == "No such file")
  }
}

/// A command `name` with subcommands `subcommands`, each taking any positional values, the
/// options `options` and the flag `--yes`: enough for the registry's dry parse of the test
/// screens' keys.
func tolerantCommand(_ name: String, _ subcommands: [String], options: [String] = [])
  -> FeatureCommand
{
  let label = LocalizedString("x", in: behaviourCatalogue)
  let run: @Sendable (CommandInvocation) async throws -> CommandResult = { _ in
    CommandResult(view: .text(Text("ran")), payload: "ran")
  }
  return FeatureCommand(
    CommandSpec(name, abstract: label),
    subcommands: subcommands.map { sub in
      FeatureCommand(
        CommandSpec(
          sub, abstract: label,
          arguments: [ArgumentSpec("VALUE", help: label, optional: true, repeating: true)],
          options: options.map { OptionSpec.option($0, valueName: "V", help: label) }
            + [.flag("yes", help: label)]), run: run)
    })
}

/// Issue 17: `w` watches a screen — its refresh (the Messages tab's sync) every few seconds
/// while the screen is open, never piled on a run still going.
@Suite struct WatchTests {
  func beats(_ count: Int, _ state: inout ConsoleState, _ context: ConsoleContext)
    -> [ConsoleEffect]
  {
    (0..<count).flatMap { _ in ConsoleUpdate.update(&state, .heartbeat, context: context) }
  }

  func finishAll(_ effects: [ConsoleEffect], _ state: inout ConsoleState, _ context: ConsoleContext)
  {
    for case .run(_, let affected, let batch) in effects {
      _ = ConsoleUpdate.update(
        &state,
        .finished(batch: batch, affected: affected, outcome: ActionOutcome(succeeded: true)),
        context: context)
    }
  }

  @Test func wRefreshesAtOnceThenEveryIntervalAndShowsIt() throws {
    let context = try boxContext()
    var state = box(context, table(["alpha", "beta"]))
    let first = send([.character("w")], to: &state, context)
    #expect(commandLines(first) == [["box", "test", "r0"], ["box", "test", "r1"]])
    #expect(state.watch?.interval == 5)
    #expect(lines(state, context).joined().contains("watching every 5 s"))
    // A run still going is never piled on: the due beat waits for it.
    #expect(commandLines(beats(6, &state, context)).isEmpty)
    finishAll(first, &state, context)
    #expect(commandLines(beats(1, &state, context)).count == 2)
  }

  @Test func aRefreshTickNeverPilesASyncOnOneStillRunning() throws {
    let context = try boxContext()
    var state = box(context, table(["alpha", "beta"]))
    let first = ConsoleUpdate.update(&state, .tick, context: context)
    #expect(commandLines(first) == [["box", "test", "r0"], ["box", "test", "r1"]])
    // Still running (a device that takes long): later ticks only reload the screen.
    for _ in 0..<5 {
      let again = ConsoleUpdate.update(&state, .tick, context: context)
      #expect(commandLines(again).isEmpty)
      #expect(!again.isEmpty)
    }
    #expect(state.running == 2)
    finishAll(first, &state, context)
    #expect(commandLines(ConsoleUpdate.update(&state, .tick, context: context)).count == 2)
  }

  @Test func intervalIsCountedInSecondsAndWStops() throws {
    let context = try boxContext()
    var state = box(context, table(["alpha"]))
    finishAll(send([.character("w")], to: &state, context), &state, context)
    #expect(commandLines(beats(4, &state, context)).isEmpty)
    let due = beats(1, &state, context)
    #expect(commandLines(due) == [["box", "test", "r0"]])
    finishAll(due, &state, context)
    _ = send([.character("w")], to: &state, context)
    #expect(state.watch == nil)
    #expect(state.screen.result?.text == "Stopped watching this screen.")
    #expect(commandLines(beats(20, &state, context)).isEmpty)
    #expect(!lines(state, context).joined().contains("watching every"))
  }

  /// A code table: rows `ids` top to bottom, each copying `code-<id>`.
  func codes(_ ids: [String]) -> ViewNode {
    .screen(
      Screen(
        title: "Box",
        children: [
          .table(
            Table(
              columns: [TableColumn(id: "code", title: "Code", minWidth: 6)],
              rows: ids.map {
                TableRow(id: $0, cells: [TableCell("••••••")], copyValue: "code-\($0)")
              }
            ))
        ]))
  }

  @Test func aWatchedScreenOnItsFirstRowFollowsTheTopAndCCopiesWhatCame() throws {
    let context = try boxContext()
    var state = box(context, codes(["m1", "m0"]))
    finishAll(send([.character("w")], to: &state, context), &state, context)
    // The watch brings a new code on top: the cursor, on the first row, goes with it.
    _ = ConsoleUpdate.update(
      &state, .loaded(path: "box", view: codes(["m2", "m1", "m0"]), at: loadedAt),
      context: context)
    #expect(state.screen.cursorID == "m2")
    _ = send([.character("c")], to: &state, context)
    #expect(state.clipboard == "code-m2")
    // A cursor the user moved down stays on its row.
    _ = send([.down], to: &state, context)
    _ = ConsoleUpdate.update(
      &state, .loaded(path: "box", view: codes(["m3", "m2", "m1", "m0"]), at: loadedAt),
      context: context)
    #expect(state.screen.cursorID == "m1")
    // Not watched: a reload keeps the cursor on its row, first or not.
    _ = send([.character("g"), .character("w")], to: &state, context)
    #expect(state.watch == nil)
    _ = ConsoleUpdate.update(
      &state, .loaded(path: "box", view: codes(["m4", "m3", "m2", "m1", "m0"]), at: loadedAt),
      context: context)
    #expect(state.screen.cursorID == "m3")
  }

  @Test func underRefreshAScreenOnItsFirstRowFollowsTheTop() throws {
    let context = try boxContext()
    var state = box(context, codes(["m1", "m0"]))
    // `msa ui --refresh N`: a tick refreshes the screen, nothing is watched.
    finishAll(ConsoleUpdate.update(&state, .tick, context: context), &state, context)
    #expect(state.watch == nil)
    _ = ConsoleUpdate.update(
      &state, .loaded(path: "box", view: codes(["m2", "m1", "m0"]), at: loadedAt),
      context: context)
    #expect(state.screen.cursorID == "m2")
    _ = send([.character("c")], to: &state, context)
    #expect(state.clipboard == "code-m2")
    // A cursor the user moved down stays on its row.
    _ = send([.down], to: &state, context)
    _ = ConsoleUpdate.update(
      &state, .loaded(path: "box", view: codes(["m3", "m2", "m1", "m0"]), at: loadedAt),
      context: context)
    #expect(state.screen.cursorID == "m1")
  }

  @Test func closingTheScreenEndsTheWatch() throws {
    let context = try boxContext()
    var state = box(context, table(["alpha"]))
    finishAll(send([.character("w")], to: &state, context), &state, context)
    state.stacks[0].append(ScreenState(path: "box/thread/1", id: 50))
    // Away on another screen: nothing runs, the watch waits.
    #expect(commandLines(beats(10, &state, context)).isEmpty)
    #expect(state.watch != nil)
    _ = send([.escape], to: &state, context)
    #expect(commandLines(beats(1, &state, context)).count == 1)
    state.stacks[0] = [ScreenState(path: "box/thread/1", id: 51)]
    _ = beats(1, &state, context)
    #expect(state.watch == nil)
  }

  @Test func aScreenWithoutRefreshSaysSoInBothLanguages() throws {
    for (language, expected) in [
      (AppLanguage.english, "Nothing to watch here"), (.simplifiedChinese, "此页面无可监视内容"),
    ] {
      let context = try boxContext(language)
      var state = box(context, thread(2), path: "box/thread/10086")
      #expect(send([.character("w")], to: &state, context).isEmpty)
      #expect(state.watch == nil)
      #expect(state.screen.result?.isFailure == true)
      #expect(state.screen.result?.text.hasPrefix(expected) == true)
    }
  }

  @Test func theKeyHelpListsWatchWhereThereIsARefresh() throws {
    let context = try boxContext()
    for (path, view, listed) in [
      ("box", table(["alpha"]), true), ("box/thread/1", thread(2), false),
    ] {
      var state = box(context, view, path: path, height: 40)
      _ = send([.character("?")], to: &state, context)
      let help = lines(state, context)
      #expect(help.contains { $0.contains("Show these keys") })
      #expect(help.contains { $0.contains("Watch: run the refresh") } == listed, "\(path)")
    }
  }

}

/// The console ends when its terminal goes away or a signal asks it to, whatever is on screen.
@Suite struct EndingTests {
  @Test(arguments: [ConsoleMessage.stop, .terminalGone])
  func aSignalOrAHangUpQuitsEvenFromAForm(message: ConsoleMessage) throws {
    let context = try boxContext()
    var state = box(context, thread(3), path: "box/thread/10086")
    _ = send([.character("s")], to: &state, context)
    guard case .form = state.mode else {
      Issue.record("expected a form")
      return
    }
    // Ctrl-C in a form only cancels the form; the message ends the console.
    let effects = ConsoleUpdate.update(&state, message, context: context)
    #expect(effects == [.quit])
    #expect(state.shouldQuit)
  }

  #if os(Linux)
    /// A real pseudo-terminal: reads time out empty while it is there; once its other end
    /// closes (a closed window, a killed tmux session), reads say it is gone instead of
    /// returning nothing forever.
    @Test func readsSayWhenTheTerminalHungUp() throws {
      // /dev/ptmx and its two ioctls (unlock, number): what posix_openpt, unlockpt and
      // ptsname do on Linux, which Swift's Glibc module does not show.
      let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
      try #require(controller >= 0)
      var unlock: Int32 = 0
      var number: UInt32 = 0
      #expect(ioctl(controller, 0x4004_5431, &unlock) == 0)  // TIOCSPTLCK
      try #require(ioctl(controller, 0x8004_5430, &number) == 0)  // TIOCGPTN
      let name = "/dev/pts/\(number)"
      let device = open(name, O_RDWR | O_NOCTTY)
      try #require(device >= 0)
      defer { close(device) }
      let terminal = TerminalSession(input: device, output: device)
      try terminal.enter()
      #expect(terminal.readBytes() == [])
      _ = "k".withCString { write(controller, $0, 1) }
      #expect(terminal.readBytes() == Array("k".utf8))
      close(controller)
      #expect(terminal.readBytes() == nil)
      terminal.abandon()
      terminal.leave()  // nothing left to restore, and nothing written to the dead terminal
    }
  #endif
}
