import ConsoleKit
import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import Testing
import ThemeKit
import ViewKit

let catalogue = StringCatalogue(
  entries: [
    "nodes": ["en": "Nodes", "zh-Hans": "节点"], "messages": ["en": "Messages", "zh-Hans": "消息"],
    "x": ["en": "X", "zh-Hans": "叉"], "test": ["en": "test", "zh-Hans": "测试"],
    "delete": ["en": "delete", "zh-Hans": "删除"], "send": ["en": "send", "zh-Hans": "发送"],
    "to": ["en": "To:", "zh-Hans": "收件人："],
    "confirm": [
      "en": "Delete {count} node(s): {targets}?", "zh-Hans": "删除 {count} 个节点：{targets}？",
    ],
  ], origin: "test")

func string(_ key: String) -> LocalizedString { LocalizedString(key, in: catalogue) }

let itemsTable = ShellFixtures.statusTable(
  title: "Nodes",
  rows: ["alpha", "bravo", "charlie"].map { name in
    TableRow(
      id: "id-\(name)",
      cells: [TableCell(name), TableCell(name == "bravo" ? "offline" : "online")],
      link: "nodes/id-\(name)")
  })

let nodesModule = FeatureModule(
  id: "nodes", name: string("nodes"), summary: string("x"), order: 10, home: "nodes",
  routes: [
    FeatureRoute(
      "nodes", title: string("nodes"),
      actions: [
        RouteAction(
          key: "t", title: string("test"), arguments: ["fleet", "test", "{selection}"],
          needsSelection: true),
        RouteAction(
          key: "d", title: string("delete"),
          arguments: ["fleet", "remove", "{selection}", "--yes"],
          confirmation: string("confirm"), needsSelection: true),
        RouteAction(key: "r", title: string("test"), arguments: ["fleet", "test", "{rows}"]),
        RouteAction(key: "m", title: string("x"), opens: "nodes/{selection}", needsSelection: true),
        RouteAction(
          key: "z", title: string("x"), opens: "device/{selection}", needsSelection: true),
      ],
      load: { _ in itemsTable }, view: { view, _ in view }),
    FeatureRoute(
      "nodes/:id", title: string("nodes"),
      actions: [
        RouteAction(
          key: "d", title: string("delete"), arguments: ["fleet", "remove", "{param:id}", "--yes"],
          confirmation: string("confirm"))
      ],
      load: { $0.parameter("id") },
      view: { id, _ in .screen(Screen(title: "Node \(id)", children: [.text(Text("detail"))])) }),
  ], commands: [tolerantCommand("fleet", ["test", "remove"])], catalogue: catalogue)

let messagesModule = FeatureModule(
  id: "messages", name: string("messages"), summary: string("x"), order: 20, home: "messages",
  routes: [
    FeatureRoute(
      "messages", title: string("messages"),
      actions: [
        RouteAction(
          key: "s", title: string("send"), arguments: ["messages", "send"],
          inputs: [
            .init(option: "to", label: string("to")), .init(option: "text", label: string("to")),
          ])
      ],
      searchable: true,
      load: { $0.search ?? "" },
      view: { search, _ in
        .list(ListNode(items: [ListItem(id: "m1", title: "code ••••• for \(search)")]))
      })
  ], commands: [tolerantCommand("messages", ["send"], options: ["to", "text"])],
  catalogue: catalogue)

let hiddenModule = FeatureModule(
  id: "device", name: string("x"), summary: string("x"), order: 30, home: nil, routes: [],
  commands: [], catalogue: catalogue)

func makeContext(_ modules: [FeatureModule] = [nodesModule, messagesModule, hiddenModule])
  throws -> ConsoleContext
{
  ConsoleContext(
    registry: try ShellFixtures.registry(modules, catalogue: catalogue), language: .english)
}

let loadedAt = Date(timeIntervalSince1970: 1_767_225_600)

/// A console with its first screen loaded.
func loadedConsole(_ context: ConsoleContext, width: Int = 80, height: Int = 24) -> ConsoleState {
  var state = ConsoleState(
    tabs: ConsoleState.tabs(of: context.registry, language: .english), width: width, height: height)
  _ = ConsoleUpdate.update(
    &state, .loaded(path: "nodes", view: itemsTable, at: loadedAt), context: context)
  return state
}

func send(_ keys: [Key], to state: inout ConsoleState, _ context: ConsoleContext) -> [ConsoleEffect]
{
  keys.flatMap { ConsoleUpdate.update(&state, .key($0), context: context) }
}

/// The command lines of the runs among `effects`.
func commandLines(_ effects: [ConsoleEffect]) -> [[String]] {
  effects.compactMap { effect in
    if case .run(let arguments, _, _) = effect { return arguments }
    return nil
  }
}

/// The batch of the first run among `effects`.
func batchID(_ effects: [ConsoleEffect]) -> Int? {
  for case .run(_, _, let batch) in effects { return batch }
  return nil
}

func render(_ state: ConsoleState, _ context: ConsoleContext) -> String {
  ConsoleRenderer.render(
    state, context: context, colorMode: .off, theme: .standard,
    timeZone: TimeZone(identifier: "UTC")!)
}

@Suite struct NavigationTests {
  @Test func tabsComeFromModulesWithAHomeRoute() throws {
    let context = try makeContext()
    let state = ConsoleState(
      tabs: ConsoleState.tabs(of: context.registry, language: .simplifiedChinese), width: 80,
      height: 24)
    #expect(state.tabs.map(\.title) == ["节点", "消息"])
    #expect(ConsoleUpdate.start(state) == [.load(path: "nodes", search: nil)])
    let withoutMessages = try makeContext([nodesModule])
    #expect(
      ConsoleState.tabs(of: withoutMessages.registry, language: .english).map(\.id) == ["nodes"])
  }

  @Test func cursorMovesOpensAndGoesBack() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    #expect(state.screen.cursorID == "id-alpha")
    _ = send([.down, .character("j"), .down], to: &state, context)
    #expect(state.screen.cursorID == "id-charlie")
    _ = send([.up], to: &state, context)
    let effects = send([.enter], to: &state, context)
    #expect(effects == [.load(path: "nodes/id-bravo", search: nil)])
    #expect(state.stacks[0].map(\.path) == ["nodes", "nodes/id-bravo"])
    let back = send([.escape], to: &state, context)
    #expect(back == [.load(path: "nodes", search: nil)])
    #expect(state.screen.cursorID == "id-bravo")
  }

  @Test func tabSwitchesAndLoadsAnUnloadedTab() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    #expect(send([.tab], to: &state, context) == [.load(path: "messages", search: nil)])
    #expect(state.activeTab == 1)
    _ = send([.backTab], to: &state, context)
    #expect(state.activeTab == 0)
  }

  @Test func quitStopsWithAQuitEffect() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    #expect(send([.character("q")], to: &state, context) == [.quit])
    #expect(state.shouldQuit)
  }
}

@Suite struct SearchAndFilterTests {
  @Test func filterHidesRowsLocally() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    let effects = send(
      [.character("f")] + "off".map(Key.character) + [.enter], to: &state, context)
    #expect(effects.isEmpty)
    #expect(state.screen.filter == "off")
    #expect(state.screen.cursorID == "id-bravo")
    let screen = render(state, context)
    #expect(screen.contains("bravo"))
    #expect(!screen.contains("alpha"))
    _ = send([.escape], to: &state, context)
    #expect(state.screen.filter.isEmpty)
  }

  @Test func searchOnASearchableRouteReloadsWithTheQuery() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    _ = send([.tab], to: &state, context)
    let effects = send(
      [.character("/")] + "4821".map(Key.character) + [.enter], to: &state, context)
    #expect(effects == [.load(path: "messages", search: "4821")])
    #expect(render(state, context).contains("search: 4821"))
  }

  @Test func promptShowsWhatIsTyped() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    _ = send([.character("/"), .character("验"), .character("x"), .backspace], to: &state, context)
    let lines = render(state, context).components(separatedBy: "\n")
    #expect(lines.last == "Search: 验▏")
  }

  @Test func aChinesePromptHasNoSpaceAfterItsFullWidthColon() throws {
    let context = ConsoleContext(
      registry: try ShellFixtures.registry(
        [nodesModule, messagesModule, hiddenModule], catalogue: catalogue),
      language: .simplifiedChinese)
    var state = loadedConsole(context)
    _ = send([.character("/"), .character("验")], to: &state, context)
    let lines = render(state, context).components(separatedBy: "\n")
    #expect(lines.last == "搜索：验▏")
  }
}

@Suite struct ActionTests {
  @Test func actionRunsOncePerSelectedRowAndMarksThemPending() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    _ = send([.character(" "), .down, .character(" ")], to: &state, context)
    #expect(state.screen.marked == ["id-alpha", "id-charlie"])
    let effects = send([.character("t")], to: &state, context)
    let batch = try #require(batchID(effects))
    #expect(
      effects == [
        .run(arguments: ["fleet", "test", "id-alpha"], affected: ["id-alpha"], batch: batch),
        .run(arguments: ["fleet", "test", "id-charlie"], affected: ["id-charlie"], batch: batch),
      ])
    #expect(state.pending == ["id-alpha", "id-charlie"])
    #expect(render(state, context).contains("… alpha"))
    let after = ConsoleUpdate.update(
      &state,
      .finished(batch: batch, affected: ["id-alpha"], outcome: ActionOutcome(succeeded: true)),
      context: context)
    #expect(after == [.load(path: "nodes", search: nil)])
    #expect(state.pending == ["id-charlie"])
  }

  @Test func destructiveActionAsksFirstNamingTargetsAndCount() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    _ = send([.down], to: &state, context)
    #expect(send([.character("d")], to: &state, context).isEmpty)
    guard case .confirming(let confirmation) = state.mode else {
      Issue.record("expected a confirmation")
      return
    }
    #expect(confirmation.question == "Delete 1 node(s): bravo?")
    #expect(render(state, context).contains("Delete 1 node(s): bravo? [y/n]"))
    #expect(send([.character("n")], to: &state, context).isEmpty)
    #expect(state.mode == .browsing)
    _ = send([.character("d")], to: &state, context)
    let yes = send([.character("y")], to: &state, context)
    #expect(commandLines(yes) == [["fleet", "remove", "id-bravo", "--yes"]])
  }

  @Test func screenActionNamesTheScreenInItsQuestion() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    _ = send([.enter], to: &state, context)
    _ = ConsoleUpdate.update(
      &state,
      .loaded(
        path: "nodes/id-alpha", view: .screen(Screen(title: "alpha", children: [])), at: loadedAt),
      context: context)
    _ = send([.character("d")], to: &state, context)
    guard case .confirming(let confirmation) = state.mode else {
      Issue.record("expected a confirmation")
      return
    }
    #expect(confirmation.question == "Delete 1 node(s): alpha?")
    #expect(
      commandLines(send([.character("y")], to: &state, context)) == [
        ["fleet", "remove", "id-alpha", "--yes"]
      ])
  }

  @Test func inputsAreAskedInOrderThenPassedAsOptions() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    _ = send([.tab], to: &state, context)
    _ = ConsoleUpdate.update(
      &state, .loaded(path: "messages", view: .list(ListNode(items: [])), at: loadedAt),
      context: context)
    _ = send([.character("s")] + "10086".map(Key.character) + [.enter], to: &state, context)
    let effects = send("hi".map(Key.character) + [.enter], to: &state, context)
    #expect(commandLines(effects) == [["messages", "send", "--to", "10086", "--text", "hi"]])
  }

  @Test func refreshReloadsAndTestsEveryVisibleRow() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    let effects = send([.character("r")], to: &state, context)
    #expect(effects.first == .load(path: "nodes", search: nil))
    #expect(effects.count == 4)
    #expect(state.pending.count == 3)
  }

  @Test func navigationActionOpensItsRouteAndHidesMissingOnes() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    _ = send([.down], to: &state, context)
    #expect(
      send([.character("m")], to: &state, context) == [.load(path: "nodes/id-bravo", search: nil)])
    _ = send([.escape], to: &state, context)
    #expect(send([.character("z")], to: &state, context).isEmpty)
    let keys = render(state, context).components(separatedBy: "\n").last ?? ""
    #expect(keys.contains("m X"))
    #expect(!keys.contains("z X"))
  }

  @Test func failureShowsOnTheStatusLine() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    _ = send([.down], to: &state, context)
    let batch = try #require(batchID(send([.character("t")], to: &state, context)))
    _ = ConsoleUpdate.update(
      &state,
      .finished(
        batch: batch, affected: ["id-bravo"],
        outcome: ActionOutcome(succeeded: false, message: "Offline · timed out")),
      context: context)
    let lines = render(state, context).components(separatedBy: "\n")
    #expect(lines[lines.count - 2].contains("✖ test failed: bravo: Offline · timed out"))
  }
}

@Suite struct RenderTests {
  @Test(arguments: [(40, 12), (80, 24), (120, 40), (41, 13)])
  func fillsTheScreenExactly(width: Int, height: Int) throws {
    let context = try makeContext()
    var state = loadedConsole(context, width: width, height: height)
    _ = send([.character("?")], to: &state, context)
    for mode in [state, loadedConsole(context, width: width, height: height)] {
      let lines = render(mode, context).components(separatedBy: "\n")
      #expect(lines.count == height)
      for line in lines {
        #expect(DisplayWidth.of(line) <= width)
        #expect(!line.hasSuffix(" "))
      }
    }
  }

  @Test func resizeRelaysOut() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    _ = ConsoleUpdate.update(&state, .resized(width: 30, height: 10), context: context)
    #expect(render(state, context).hasPrefix("Terminal too small"))
    _ = ConsoleUpdate.update(&state, .resized(width: 60, height: 15), context: context)
    let lines = render(state, context).components(separatedBy: "\n")
    #expect(lines.count == 15)
    #expect(lines[0].contains("[Nodes]"))
    #expect(lines.contains { $0.hasPrefix("›") && $0.contains("alpha") })
  }

  @Test func helpListsTheRoutesOwnKeys() throws {
    let context = try makeContext()
    var state = loadedConsole(context)
    _ = send([.character("?")], to: &state, context)
    let screen = render(state, context)
    #expect(screen.contains("Keys on this screen"))
    #expect(screen.contains("d             delete"))
    _ = send([.character("x")], to: &state, context)
    #expect(state.mode == .browsing)
  }

  @Test func colourOnlyWhenAsked() throws {
    let context = try makeContext()
    let state = loadedConsole(context)
    #expect(!render(state, context).contains("\u{1b}"))
    let coloured = ConsoleRenderer.render(
      state, context: context, colorMode: .truecolor, theme: .standard)
    #expect(coloured.contains("\u{1b}["))
  }

  @Test func catalogueIsComplete() {
    #expect(ConsoleStrings.catalogue.problems().isEmpty)
  }
}

@Suite struct KeyDecoderTests {
  @Test func decodesArrowsControlsAndUnicode() {
    var decoder = KeyDecoder()
    let bytes: [UInt8] =
      [0x1b, 0x5b, 0x41] + [0x0d, 0x7f, 0x09, 0x03] + Array("验j".utf8) + [0x1b, 0x5b, 0x5a]
    #expect(
      decoder.feed(bytes) == [
        .up, .enter, .backspace, .tab, .control("c"), .character("验"), .character("j"), .backTab,
      ])
  }

  @Test func keepsASplitSequenceForTheNextRead() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1b, 0x5b]) == [])
    #expect(decoder.feed([0x42]) == [.down])
    let chinese = Array("短".utf8)
    #expect(decoder.feed([chinese[0]]) == [])
    #expect(decoder.feed(Array(chinese.dropFirst())) == [.character("短")])
    #expect(decoder.feed([0x1b]) == [.escape])
  }
}
