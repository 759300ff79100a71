import AppCore
import CommandLineKit
import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import ViewKit

// A small app of two features, with commands that really run (through the dispatcher) and
// really fail: enough to drive the core the way both shells do.

let catalogue = StringCatalogue(
  entries: [
    "fleet": ["en": "Nodes", "zh-Hans": "节点"], "messages": ["en": "Messages", "zh-Hans": "消息"],
    "x": ["en": "X", "zh-Hans": "叉"], "test": ["en": "Test", "zh-Hans": "测试"],
    "delete": ["en": "Delete", "zh-Hans": "删除"], "add": ["en": "Add", "zh-Hans": "添加"],
    "name": ["en": "Name", "zh-Hans": "名称"], "password": ["en": "Password", "zh-Hans": "密码"],
    "refresh": ["en": "Refresh", "zh-Hans": "刷新"],
    "confirm": [
      "en": "Delete {count} {count|node|nodes}: {targets}?", "zh-Hans": "删除 {count} 个节点：{targets}？",
    ],
    "taken": ["en": "--name <NAME> is taken.", "zh-Hans": "--name <NAME> 已被占用。"],
    "down": ["en": "No answer.", "zh-Hans": "没有应答。"],
  ], origin: "test")

func string(_ key: String) -> LocalizedString { LocalizedString(key, in: catalogue) }

/// The nodes in `names`, one row each, linking to their own screen.
func nodesTable(_ names: [String]) -> ViewNode {
  ShellFixtures.statusTable(
    title: "Nodes",
    rows: names.map { name in
      TableRow(
        id: "id-\(name)", cells: [TableCell(name), TableCell("online")], link: "fleet/id-\(name)")
    })
}

let fleetModule = FeatureModule(
  id: "fleet", name: string("fleet"), summary: string("x"), order: 10, home: "fleet",
  routes: [
    FeatureRoute(
      "fleet", title: string("fleet"),
      actions: [
        RouteAction(
          key: "t", title: string("test"), arguments: ["fleet", "test", "{selection}"],
          needsSelection: true),
        RouteAction(
          key: "d", title: string("delete"), arguments: ["fleet", "remove", "{selection}"],
          confirmation: string("confirm"), needsSelection: true),
        RouteAction(
          key: "a", title: string("add"), arguments: ["fleet", "add"],
          inputs: [
            .init(option: "name", label: string("name")),
            .init(option: "password", label: string("password"), isSecret: true),
          ]),
        RouteAction(key: "r", title: string("refresh"), arguments: ["fleet", "test", "{rows}"]),
        RouteAction(key: "o", title: string("x"), opens: "fleet/{selection}", needsSelection: true),
        RouteAction(key: "m", title: string("x"), opens: "inbox/{selection}", needsSelection: true),
      ],
      load: { _ in nodesTable(["alpha", "bravo", "charlie"]) }, view: { view, _ in view }),
    FeatureRoute(
      "fleet/:id", title: string("fleet"),
      load: { $0.parameter("id") },
      view: { id, _ in .screen(Screen(title: "Node \(id)", children: [.text(Text("detail"))])) }),
  ],
  commands: [
    FeatureCommand(
      CommandSpec("fleet", abstract: string("x")),
      subcommands: [
        FeatureCommand(
          CommandSpec(
            "test", abstract: string("x"),
            arguments: [ArgumentSpec("ID", help: string("x"), optional: true, repeating: true)])
        ) { invocation in
          // A node called "bravo" does not answer: its row says so.
          let ids = invocation.parsed.argumentList("ID")
          guard ids.contains("id-bravo") else {
            return CommandResult(view: .text(Text("ok")), payload: "ok")
          }
          return CommandResult(
            view: .table(
              Table(
                columns: [TableColumn(id: "s", title: "S", minWidth: 4, priority: 1)],
                rows: [TableRow(id: "id-bravo", cells: [TableCell("Offline", tone: .danger)])])),
            payload: "failed", exitCode: .failure)
        },
        FeatureCommand(
          CommandSpec(
            "remove", abstract: string("x"),
            arguments: [ArgumentSpec("ID", help: string("x"), optional: true, repeating: true)])
        ) { _ in CommandResult(view: .text(Text("removed")), payload: "removed") },
        FeatureCommand(
          CommandSpec(
            "add", abstract: string("x"),
            options: [
              .option("name", valueName: "NAME", help: string("x")),
              .option("password", valueName: "PASSWORD", help: string("x")),
            ])
        ) { invocation in
          if invocation.parsed.optionalString("name") == "taken" {
            throw CommandFailure(string("taken"))
          }
          return CommandResult(view: .text(Text("added")), payload: "added")
        },
      ])
  ], catalogue: catalogue)

let messagesModule = FeatureModule(
  id: "messages", name: string("messages"), summary: string("x"), order: 20, home: "inbox",
  routes: [
    FeatureRoute(
      "inbox", title: string("messages"), searchable: true,
      load: { $0.search ?? "" },
      view: { search, _ in
        .list(
          ListNode(items: [
            ListItem(id: "m1", title: "code for \(search)"),
            ListItem(id: "m2", title: "hello"),
          ]))
      }),
    FeatureRoute(
      "inbox/:id", title: string("messages"), load: { $0.parameter("id") },
      view: { id, _ in .text(Text(id)) }),
  ], commands: [], catalogue: catalogue)

let root = CommandSpec("app", abstract: string("x"))

func makeRegistry(_ modules: [FeatureModule] = [fleetModule, messagesModule]) throws
  -> FeatureRegistry
{
  try ShellFixtures.registry(modules, catalogue: catalogue, root: root)
}

func makeContext(
  _ modules: [FeatureModule] = [fleetModule, messagesModule], language: AppLanguage = .english
) throws -> AppContext {
  AppContext(registry: try makeRegistry(modules), language: language)
}

let loadedAt = Date(timeIntervalSince1970: 1_767_225_600)

/// The app with its first screen loaded.
func loadedApp(_ context: AppContext) -> AppState {
  var state = AppState(tabs: AppState.tabs(of: context.registry, language: context.language))
  _ = AppUpdate.update(
    &state, .loaded(path: "fleet", view: nodesTable(["alpha", "bravo", "charlie"]), at: loadedAt),
    context: context)
  return state
}

/// The command lines of `effects`' runs.
func commandLines(_ effects: [AppEffect]) -> [[String]] {
  effects.compactMap {
    if case .run(let arguments, _, _) = $0 { return arguments }
    return nil
  }
}
