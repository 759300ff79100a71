import CommandLineKit
import Essentials
import FeatureKit
import FeatureKitTesting
import Testing
import ViewKit

let catalogue = StringCatalogue(
  entries: ["x": ["en": "X", "zh-Hans": "叉"], "fleet": ["en": "Nodes", "zh-Hans": "节点"]],
  origin: "test")
let label = LocalizedString("x", in: catalogue)

func route(_ pattern: String, _ text: String = "") -> FeatureRoute {
  FeatureRoute(pattern, title: label, load: { _ in text }, view: { state, _ in .text(Text(state)) })
}

func command(_ name: String, aliases: [String] = [], subcommands: [FeatureCommand] = [])
  -> FeatureCommand
{
  FeatureCommand(CommandSpec(name, aliases: aliases, abstract: label), subcommands: subcommands) {
    _ in CommandResult(view: .text(Text(name)), payload: name)
  }
}

func module(
  _ id: String, routes: [FeatureRoute] = [], commands: [FeatureCommand] = [], order: Int = 0
) -> FeatureModule {
  FeatureModule(
    id: id, name: LocalizedString("fleet", in: catalogue), summary: label, order: order,
    home: routes.first?.pattern.description, routes: routes, commands: commands,
    catalogue: catalogue)
}

@Suite struct FeatureRegistryTests {
  let builtIns = module("app", routes: [route("about")], commands: [command("routes")])

  @Test func acceptsModulesWithoutConflicts() throws {
    let registry = try FeatureRegistry(
      builtIns: builtIns,
      modules: [
        module("messages", routes: [route("messages")], commands: [command("messages")], order: 20),
        module(
          "fleet", routes: [route("fleet"), route("fleet/:ref")], commands: [command("fleet")],
          order: 10),
      ])
    #expect(registry.modules.map(\.id) == ["fleet", "messages"])
    #expect(registry.routes.count == 4)
  }

  @Test func listsEveryConflictInOneError() {
    #expect {
      try FeatureRegistry(
        builtIns: builtIns,
        modules: [
          module(
            "fleet", routes: [route("fleet/:id")], commands: [command("fleet", aliases: ["f"])]),
          module("fleet", routes: [route("fleet/:ref")], commands: [command("f")]),
          module("rogue", routes: [route("about")], commands: [command("routes")]),
          module(
            "nested",
            commands: [command("outbox", subcommands: [command("list"), command("list")])]),
        ])
    } throws: { error in
      guard let conflicts = error as? RegistryConflicts else { return false }
      return conflicts.conflicts.count == 6
        && conflicts.conflicts.contains(.duplicateModuleID("fleet"))
        && conflicts.conflicts.contains(
          .duplicateRoute(pattern: "fleet/:id", modules: ["fleet", "fleet"]))
        && conflicts.conflicts.contains(.duplicateCommand(name: "f", modules: ["fleet", "fleet"]))
        && conflicts.conflicts.contains(.builtInClash(kind: .route, name: "about", module: "rogue"))
        && conflicts.conflicts.contains(
          .builtInClash(kind: .command, name: "routes", module: "rogue"))
        && conflicts.conflicts.contains(.duplicateCommand(name: "outbox list", modules: ["nested"]))
        && conflicts.description.hasPrefix("The feature registry has 6 conflict(s):")
    }
  }

  @Test func nestedDuplicateSubcommandIsAConflict() {
    #expect(
      throws: RegistryConflicts(conflicts: [
        .duplicateCommand(name: "outbox list", modules: ["nested"])
      ])
    ) {
      try FeatureRegistry(
        builtIns: builtIns,
        modules: [
          module(
            "nested",
            commands: [command("outbox", subcommands: [command("list"), command("list")])])
        ])
    }
  }

  @Test func literalRoutesWinOverParameters() async throws {
    let registry = try FeatureRegistry(
      builtIns: builtIns,
      modules: [
        module("fleet", routes: [route("fleet/:ref", "detail"), route("fleet/new", "form")])
      ])
    let match = try #require(registry.route(for: "fleet/new"))
    #expect(match.parameters.isEmpty)
    let detail = try #require(registry.route(for: "/fleet/n%201/"))
    #expect(detail.parameters == ["ref": "n 1"])
    #expect(registry.route(for: "fleet/a/b") == nil)
    let view = await detail.route.render(
      RouteRequest(path: "fleet/n1", parameters: detail.parameters, environment: .test()))
    #expect(view == .text(Text("detail")))
  }

  @Test func commandTreeGroupsFeatureCommandsUnderTheFeatureName() throws {
    let registry = try FeatureRegistry(
      builtIns: builtIns,
      modules: [module("fleet", commands: [command("fleet", subcommands: [command("add")])])])
    let tree = registry.commandTree(root: CommandSpec("msa", abstract: label))
    #expect(tree.subcommands.map(\.name) == ["routes", "fleet"])
    #expect(tree.subcommands[0].group == nil)
    #expect(tree.subcommands[1].group?.resolve(.simplifiedChinese) == "节点")
    #expect(registry.command(at: ["fleet", "add"])?.name == "add")
    #expect(registry.command(at: ["fleet", "nope"]) == nil)
  }

  @Test func failedLoadBecomesAnErrorStateWithRetry() async {
    struct Broken: LocalizedFailure {
      func localizedMessage(_ language: AppLanguage) -> String { "device said no" }
    }
    let failing = FeatureRoute(
      "broken", title: label, load: { _ -> String in throw Broken() },
      view: { state, _ in .text(Text(state)) })
    let view = await failing.render(
      RouteRequest(path: "broken", parameters: [:], environment: .test()))
    guard case .error(let state) = view else {
      Issue.record("expected an error state, got \(view)")
      return
    }
    #expect(state.message == "device said no")
    #expect(state.retryCommand == "view broken")
  }

  @Test(
    "another route's state is an error in the user's language, with a retry",
    arguments: [AppLanguage.english, .simplifiedChinese])
  func foreignStateIsATranslatedError(language: AppLanguage) {
    let request = RouteRequest(
      path: "fleet/n1", parameters: [:], environment: .test(language: language))
    let view = route("fleet/:ref").view(of: 42, request)
    guard case .error(let state) = view else {
      Issue.record("expected an error state, got \(view)")
      return
    }
    #expect(state.title == FeatureKitStrings.text("route.failed", language))
    #expect(state.message == FeatureKitStrings.text("route.stateMismatch", language))
    #expect(!state.message.isEmpty && !state.message.contains("route."))
    #expect(state.retryCommand == "view fleet/n1")
  }
}

@Suite struct ServicesTests {
  final class Counter: Sendable {
    let made = Locked(0)
  }

  @Test func makesEachServiceOnceOnFirstUse() throws {
    let counter = Counter()
    let services = Services()
      .registering(Counter.self) { _ in
        counter.made.withLock { $0 += 1 }
        return counter
      }
      .registering(String.self) { services in
        "uses \(try services.resolve(Counter.self).made.current)"
      }
    #expect(counter.made.current == 0)
    #expect(try services.resolve(String.self) == "uses 1")
    _ = try services.resolve(Counter.self)
    #expect(counter.made.current == 1)
  }

  @Test func missingServiceIsANamedError() {
    #expect(throws: ServiceError.notRegistered("Int")) {
      try Services().resolve(Int.self)
    }
  }

  @Test func catalogueIsComplete() {
    #expect(FeatureKitStrings.catalogue.problems().isEmpty)
  }
}

@Suite struct RoutePatternTests {
  @Test func shapesIgnoreParameterNames() {
    #expect(RoutePattern("fleet/:id").shape == RoutePattern("fleet/:ref").shape)
    #expect(RoutePattern("device/:ref/sim").description == "device/:ref/sim")
  }

  @Test func buildsPathsWithEncodedParameters() {
    #expect(RoutePattern("messages/:peer").path(["peer": "+86 138/1"]) == "messages/+86%20138%2F1")
  }
}

@Suite struct RouteActionTests {
  @Test func expandsSelectionAndParameters() {
    let action = RouteAction(
      key: "d", title: label,
      arguments: ["messages", "delete", "--from", "{param:ref}", "{selection}"],
      confirmation: label, needsSelection: true)
    #expect(
      action.expandedArguments(selection: ["7", "9"], parameters: ["ref": "n1"])
        == ["messages", "delete", "--from", "n1", "7", "9"])
  }
}

@Suite struct RouteActionCheckTests {
  let builtIns = module("app", routes: [route("about")], commands: [command("routes")])

  func screen(_ pattern: String, _ actions: [RouteAction], formKey: Character? = nil)
    -> FeatureRoute
  {
    FeatureRoute(
      pattern, title: label, actions: actions, formKey: formKey, load: { _ in "" },
      view: { state, _ in .text(Text(state)) })
  }

  var fleetCommands: [FeatureCommand] {
    let test = FeatureCommand(
      CommandSpec(
        "test", abstract: label, arguments: [ArgumentSpec("REF", help: label, repeating: true)],
        options: [.option("timeout", valueName: "S", help: label)])
    ) { _ in CommandResult(view: .text(Text("t")), payload: "t") }
    return [FeatureCommand(CommandSpec("fleet", abstract: label), subcommands: [test])]
  }

  @Test func acceptsKeysThatParseAndResolve() throws {
    let registry = try FeatureRegistry(
      builtIns: builtIns,
      modules: [
        module(
          "fleet",
          routes: [
            screen(
              "fleet",
              [
                RouteAction(
                  key: "t", title: label, arguments: ["fleet", "test", "{selection}"],
                  inputs: [.init(option: "timeout", label: label)], needsSelection: true),
                RouteAction(key: "r", title: label, arguments: ["fleet", "test", "{rows}"]),
                RouteAction(key: "o", title: label, opens: "fleet/{selection}"),
                // Another feature's route, not compiled into this build: ignored.
                RouteAction(key: "m", title: label, opens: "device/{selection}"),
                RouteAction(key: "v", title: label, toggles: "bodies"),
              ]),
            screen("fleet/:ref", []),
          ], commands: fleetCommands)
      ])
    #expect(registry.routes.count == 3)
  }

  @Test func refusesEveryBrokenKeyInOneErrorWithTheNameClashes() {
    #expect {
      try FeatureRegistry(
        builtIns: builtIns,
        modules: [
          module(
            "fleet",
            routes: [
              screen(
                "fleet",
                [
                  RouteAction(key: "t", title: label, arguments: ["fleet", "test", "{selection}"]),
                  RouteAction(key: "t", title: label, arguments: ["fleet", "test", "a"]),
                  RouteAction(key: "k", title: label, arguments: ["fleet", "test", "a"]),
                  RouteAction(key: "x", title: label, arguments: ["fleet", "tset"]),
                  RouteAction(key: "y", title: label, arguments: ["fleet", "test", "--nope"]),
                  RouteAction(key: "z", title: label, arguments: ["fleet"]),
                  RouteAction(key: "o", title: label, opens: "fleet/{selection}/nowhere"),
                  RouteAction(key: "p", title: label, arguments: ["fleet", "test", "{param:id}"]),
                  RouteAction(key: "r", title: label, opens: "fleet/{selection}"),
                ], formKey: "e"),
              screen("fleet/:ref", []),
            ], commands: fleetCommands),
          module("rogue", commands: [command("routes")]),
        ])
    } throws: { error in
      guard let conflicts = (error as? RegistryConflicts)?.conflicts else { return false }
      let expected: [RegistryConflict] = [
        .builtInClash(kind: .command, name: "routes", module: "rogue"),
        .duplicateKey(route: "fleet", key: "t", titles: ["X", "X"]),
        .consoleKey(route: "fleet", key: "k", title: "X"),
        .unresolvedRoute(route: "fleet", key: "o", path: "fleet/{selection}/nowhere"),
        .invalidAction(
          route: "fleet", key: "p", problem: "'{param:id}' is not a parameter of the screen"),
        .invalidAction(
          route: "fleet", key: "r",
          problem: "the refresh key must run a command that asks nothing and needs no row"),
        .invalidAction(
          route: "fleet", key: "e", problem: "the screen's form key names no action with fields"),
      ]
      let unparsable = conflicts.filter {
        if case .unparsableAction = $0 { return true } else { return false }
      }
      return expected.allSatisfy(conflicts.contains) && unparsable.count == 3
        && conflicts.count == expected.count + 3
        && unparsable.contains { $0.description.contains("'fleet' names no command that runs") }
    }
  }

  /// Composed without the dry parse (the command-line program's start), a registry with a
  /// broken key is built; the check itself, run apart, still finds every problem.
  @Test func theKeyCheckRunsApartFromComposing() throws {
    let routes = [
      screen(
        "fleet",
        [
          RouteAction(key: "x", title: label, arguments: ["fleet", "tset"]),
          RouteAction(key: "o", title: label, opens: "fleet/{selection}/nowhere"),
        ]),
      screen("fleet/:ref", []),
    ]
    let root = CommandSpec("app", abstract: label)
    let unchecked = try FeatureRegistry(
      builtIns: builtIns, modules: [module("fleet", routes: routes, commands: fleetCommands)],
      root: root, checkingRouteActions: false)
    let conflicts = unchecked.routeActionConflicts(root: root)
    #expect(conflicts.count == 2)
    #expect(
      conflicts.contains(
        .unresolvedRoute(route: "fleet", key: "o", path: "fleet/{selection}/nowhere")))
    #expect(conflicts.contains { if case .unparsableAction = $0 { true } else { false } })
    // Checked when composed (the default), the same problems refuse the registry.
    #expect(throws: RegistryConflicts(conflicts: conflicts)) {
      try FeatureRegistry(
        builtIns: builtIns, modules: [module("fleet", routes: routes, commands: fleetCommands)],
        root: root)
    }
  }
}
