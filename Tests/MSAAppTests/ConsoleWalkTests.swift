import CommandLineKit
import ConsoleKit
import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import SimAdminSimulator
import Testing
import ViewKit

@testable import CommandLineApp
@testable import MSAApp

/// Drives the composed console as a person would, against a simulated fleet registered,
/// tested and synced by the demo's own steps: every effect is performed for real (routes
/// loaded through the registry, commands run in-process) and fed back as messages.
final class ConsoleDriver {
  let application: MSAApplication
  let environment: AppEnvironment
  let context: ConsoleContext
  var state: ConsoleState
  /// Every route pattern a screen was shown for.
  var reached: Set<String> = []
  /// Command lines run, with whether the parser refused them.
  var ran: [(arguments: [String], usageError: Bool)] = []

  init(application: MSAApplication, environment: AppEnvironment, height: Int = 60) async {
    self.application = application
    self.environment = environment
    context = ConsoleContext(registry: application.registry, language: environment.language)
    state = ConsoleState(
      tabs: ConsoleState.tabs(of: application.registry, language: environment.language),
      width: 120, height: height)
    await perform(ConsoleUpdate.start(state))
  }

  /// Presses `keys` one after the other, performing what each asks for.
  @discardableResult
  func press(_ keys: Key...) async -> [ConsoleEffect] {
    var all: [ConsoleEffect] = []
    for key in keys {
      let effects = ConsoleUpdate.update(&state, .key(key), context: context)
      all += effects
      await perform(effects)
    }
    return all
  }

  func perform(_ effects: [ConsoleEffect]) async {
    for effect in effects {
      switch effect {
      case .load(let path, let search, let flags):
        guard let match = application.registry.route(for: path) else {
          Issue.record("no route for \(path)")
          continue
        }
        reached.insert(match.route.pattern.description)
        let view = await match.route.render(
          RouteRequest(
            path: path, parameters: match.parameters, environment: environment, search: search,
            flags: flags))
        let follow = ConsoleUpdate.update(
          &state, .loaded(path: path, view: view, at: environment.clock.now()), context: context)
        await perform(follow)
      case .run(let arguments, let affected, let batch):
        var usageError = false
        var outcome = ActionOutcome(succeeded: true)
        do {
          let result = try await application.execute(arguments, in: environment)
          if result.exitCode != .success {
            outcome = ActionOutcome(
              succeeded: false, message: ActionOutcome.failureText(in: result.view))
          }
        } catch {
          usageError = error is UsageError
          outcome = ActionOutcome(succeeded: false, message: "\(error)")
        }
        ran.append((arguments, usageError))
        let follow = ConsoleUpdate.update(
          &state, .finished(batch: batch, affected: affected, outcome: outcome), context: context)
        await perform(follow)
      case .quit:
        break
      }
    }
  }

  var screen: String {
    ConsoleRenderer.render(
      state, context: context, colorMode: .off, theme: .standard,
      timeZone: TimeZone(identifier: "UTC") ?? .current)
  }

  /// The route of the screen shown.
  var route: FeatureRoute? { application.registry.route(for: state.screen.path)?.route }

  /// The route actions this build offers on the screen shown (another feature's routes that
  /// are not compiled in are left out, as the console does).
  var actions: [RouteAction] {
    let parameters = application.registry.route(for: state.screen.path)?.parameters ?? [:]
    return (route?.actions ?? []).filter { action in
      action.openedPath(selection: "x", parameters: parameters).map {
        application.registry.route(for: $0) != nil
      } ?? true
    }
  }
}

/// A small fleet with every kind of screen content: a healthy device with messages, one
/// protected by a password, one without a modem.
func walkFleet() async throws -> (SimulatedFleet, MSAApplication, AppEnvironment, URL) {
  let fleet = try await SimulatedFleet.start([
    DeviceProfile(name: "Beijing CPE", smsCount: 30, seed: 11),
    DeviceProfile(name: "Guangzhou Router", password: "walk-pass", smsCount: 5, seed: 13),
    DeviceProfile(name: "Hangzhou No Modem", hasModem: false, seed: 14),
  ])
  let home = FileManager.default.temporaryDirectory
    .appendingPathComponent("msa-walk-\(UUID().uuidString)", isDirectory: true)
  let application = try MSAApplication(
    modules: CompiledFeatures.modules, appCommands: AppCommands.all)
  let base = AppEnvironment.test(dataDirectory: home, clock: .system)
  let environment = application.environment(base, dataDirectory: home, requestTimeout: 3)
  await DemoCommand.prepare(fleet, application: application, environment: environment)
  // One message through the outbox, so the outbox screen has a row for its keys.
  _ = try await application.execute(
    ["messages", "send", "--from", "Beijing CPE", "--to", "10086", "--text", "walk"],
    in: environment)
  return (fleet, application, environment, home)
}

@Suite(.serialized) struct ConsoleWalkTests {
  /// From the start screen, by keys only (Tab, Enter on a row of every kind of link, every
  /// key that opens a route), the console reaches every route of every compiled feature.
  @Test func everyRouteIsReachableByKeysFromTheStartScreen() async throws {
    let (fleet, application, environment, home) = try await walkFleet()
    defer { try? FileManager.default.removeItem(at: home) }
    let driver = await ConsoleDriver(application: application, environment: environment)
    _ = try await screenPaths(driver)
    await fleet.stop()
    let routes = Set(application.registry.modules.flatMap(\.routes).map(\.pattern.description))
    #expect(routes.subtracting(driver.reached).sorted() == [])
    #expect(driver.ran.isEmpty, "walking must not run commands")
  }

  /// On every screen, each key the help lists under its title does what the title names:
  /// opens its route, shows or masks, opens the action's form, asks first naming the count,
  /// or runs the declared command line (which the parser accepts).
  @Test func everyListedKeyDispatchesTheActionItsTitleNames() async throws {
    let (fleet, application, environment, home) = try await walkFleet()
    defer { try? FileManager.default.removeItem(at: home) }
    let driver = await ConsoleDriver(application: application, environment: environment)
    var checked = 0
    let paths = try await screenPaths(driver)
    for path in paths {
      // Open the screen on the tab that owns it, the first row under the cursor.
      driver.state.stacks[driver.state.activeTab].append(
        ScreenState(path: path, id: 10_000 + checked))
      await driver.perform([.load(path: path, search: nil)])
      if driver.state.mode != .browsing { await driver.press(.escape) }
      await driver.press(.character("?"))
      let help = driver.screen
      await driver.press(.escape)
      for action in driver.actions {
        let title = action.title.resolve(environment.language)
        #expect(
          help.components(separatedBy: "\n").contains {
            $0.hasPrefix("  \(action.key) ") && $0.hasSuffix(title)
          }, "\(path): help does not list '\(action.key) \(title)'")
        let depth = driver.state.stacks[driver.state.activeTab].count
        let ranBefore = driver.ran.count
        let hasRow = driver.state.screen.cursorID != nil
        let effects = await driver.press(.character(action.key))
        if action.needsSelection && !hasRow {
          #expect(
            driver.state.screen.result?.text.hasPrefix("Select a row first") == true,
            "\(path): '\(action.key)' without a row: \(String(describing: driver.state.screen.result))"
          )
        } else if let opens = action.opens {
          guard case .load(let opened, _, _)? = effects.first else {
            Issue.record("\(path): '\(action.key)' did not open \(opens)")
            continue
          }
          let expected = application.registry.route(
            for: RouteAction.fill(
              opens, selection: "x",
              parameters: application.registry.route(for: path)?.parameters ?? [:]))
          #expect(
            application.registry.route(for: opened)?.route.pattern.description
              == expected?.route.pattern.description, "\(path): '\(action.key)' opened \(opened)")
          if driver.state.mode != .browsing { await driver.press(.escape) }
          while driver.state.stacks[driver.state.activeTab].count > depth {
            await driver.press(.escape)
          }
        } else if let flag = action.toggles {
          #expect(
            effects.contains {
              if case .load(_, _, let flags) = $0 { flags.contains(flag) } else { false }
            },
            "\(path): '\(action.key)' did not turn on \(flag)")
          await driver.press(.character(action.key))
        } else if !action.inputs.isEmpty {
          guard case .form(let form) = driver.state.mode else {
            Issue.record("\(path): '\(action.key)' did not open its form")
            continue
          }
          #expect(form.title.hasSuffix(title))
          #expect(
            form.fields.map(\.label) == action.inputs.map { $0.label.resolve(environment.language) }
          )
          await driver.press(.escape)
        } else if action.confirmation != nil {
          guard case .confirming(let confirmation) = driver.state.mode else {
            Issue.record("\(path): '\(action.key)' did not ask first")
            continue
          }
          // The question names its count (one row, or the screen itself).
          #expect(
            confirmation.question.contains("1") || !action.needsSelection,
            "\(path): '\(action.key)' asked \(confirmation.question)")
          await driver.press(.character("n"))
        } else {
          let lines = driver.ran.dropFirst(ranBefore).map(\.arguments)
          #expect(!lines.isEmpty, "\(path): '\(action.key)' ran nothing")
          let declared = action.arguments.filter { !$0.hasPrefix("{") }
          for line in lines {
            #expect(
              declared.allSatisfy(line.contains), "\(path): '\(action.key)' ran \(line)")
          }
          #expect(
            !driver.ran.dropFirst(ranBefore).contains { $0.usageError },
            "\(path): '\(action.key)' ran a command line the parser refused")
        }
        checked += 1
      }
      driver.state.stacks[driver.state.activeTab].removeLast()
    }
    await fleet.stop()
    #expect(checked > 30)
  }

  /// One concrete path per route, found by walking from the start screen by keys only: Tab,
  /// Enter on one row of every kind of link, every key that opens a route, Esc back.
  func screenPaths(_ driver: ConsoleDriver) async throws -> [String] {
    var found: [String: String] = [:]
    func note() {
      if let pattern = driver.route?.pattern.description, found[pattern] == nil {
        found[pattern] = driver.state.screen.path
      }
    }
    var visited: Set<String> = []
    for _ in driver.state.tabs {
      note()
      try await collect(driver, visited: &visited, note: note, depth: 0)
      await driver.press(.tab)
    }
    return found.values.sorted()
  }

  func collect(
    _ driver: ConsoleDriver, visited: inout Set<String>, note: () -> Void, depth: Int
  ) async throws {
    guard let pattern = driver.route?.pattern.description, depth < 6 else { return }
    if driver.state.mode != .browsing { await driver.press(.escape) }
    note()
    guard visited.insert(pattern).inserted else { return }
    var seen: Set<String> = []
    var index = 0
    await driver.press(.home)
    while true {
      let before = driver.state.screen.cursorID
      let depthBefore = driver.state.stacks[driver.state.activeTab].count
      let effects = await driver.press(.enter)
      if case .load(let opened, _, _)? = effects.first,
        seen.insert(driver.application.registry.route(for: opened)?.route.pattern.description ?? "")
          .inserted
      {
        try await collect(driver, visited: &visited, note: note, depth: depth + 1)
      }
      if driver.state.mode != .browsing { await driver.press(.escape) }
      while driver.state.stacks[driver.state.activeTab].count > depthBefore {
        await driver.press(.escape)
      }
      await driver.press(.down)
      index += 1
      if driver.state.screen.cursorID == before || index > 40 { break }
    }
    await driver.press(.home)
    for action in driver.actions where action.opens != nil {
      let depthBefore = driver.state.stacks[driver.state.activeTab].count
      await driver.press(.character(action.key))
      if driver.state.stacks[driver.state.activeTab].count > depthBefore {
        try await collect(driver, visited: &visited, note: note, depth: depth + 1)
      }
      if driver.state.mode != .browsing { await driver.press(.escape) }
      while driver.state.stacks[driver.state.activeTab].count > depthBefore {
        await driver.press(.escape)
      }
    }
  }

  /// The composition check passes for the full build and for every build of one feature.
  @Test func theCompositionCheckPassesForEveryBuild() throws {
    let full = try MSAApplication(modules: CompiledFeatures.modules, appCommands: AppCommands.all)
    #expect(full.registry.modules.count == CompiledFeatures.modules.count)
    for module in CompiledFeatures.modules {
      let single = try MSAApplication(modules: [module], appCommands: AppCommands.all)
      #expect(single.registry.modules.map(\.id) == [module.id])
    }
  }

  /// The program composes without dry-parsing the screens' keys at every start
  /// (`MSAMain.composed()`); this is where they are checked: the program's own composition
  /// and every one-feature build have no key that cannot work.
  @Test func theProgramsKeysAreCheckedHereNotAtEveryStart() throws {
    let program = try MSAMain.composed()
    #expect(program.routeActionConflicts() == [])
    #expect(program.registry.routes.count > 0)
    for module in CompiledFeatures.modules {
      let single = try MSAApplication(
        modules: [module], appCommands: AppCommands.all, checkingRouteActions: false)
      #expect(single.routeActionConflicts() == [], "\(module.id)")
    }
  }

  /// Composed as the program composes, a broken key does not stop the start; the check finds
  /// it.
  @Test func aBrokenKeyIsFoundByTheCheck() throws {
    let (fleet, rogue) = try rogueScreen(keys: [("t", ["fleet", "nope"])], commands: false)
    let app = try MSAApplication(
      modules: [fleet, rogue], appCommands: AppCommands.all, checkingRouteActions: false)
    let conflicts = app.routeActionConflicts()
    #expect(conflicts.count == 1)
    #expect(
      conflicts.contains {
        $0.description.contains("screen 'rogue' key 't' runs a command line that does not parse")
      })
  }

  /// A screen whose key collides with the console's own is refused when the app is composed,
  /// with the name clashes, in one error.
  @Test func aCollidingScreenIsRefusedWhenComposed() throws {
    let (fleet, rogue) = try rogueScreen(
      keys: [("k", ["fleet", "list"]), ("t", ["fleet", "list"]), ("t", ["fleet", "nope"])],
      commands: true)
    #expect {
      try MSAApplication(modules: [fleet, rogue], appCommands: AppCommands.all)
    } throws: { error in
      let text = "\(error)"
      return text.contains("command 'fleet' is declared by fleet, rogue")
        && text.contains("screen 'rogue' binds key 'k'")
        && text.contains("screen 'rogue' binds key 't' to 2 actions")
        && text.contains("screen 'rogue' key 't' runs a command line that does not parse")
    }
  }

  /// The compiled Fleet feature and a module "rogue" with one screen binding `keys` (each a
  /// key and the command line it runs), titled like Fleet's first screen; with `commands`,
  /// the rogue module also declares Fleet's commands (a clash).
  func rogueScreen(keys: [(Character, [String])], commands: Bool) throws -> (
    FeatureModule, FeatureModule
  ) {
    let fleet = try #require(CompiledFeatures.modules.first { $0.id == "fleet" })
    let route = try #require(fleet.routes.first)
    let actions = keys.map { RouteAction(key: $0.0, title: route.title, arguments: $0.1) }
    let rogue = FeatureModule(
      id: "rogue", name: fleet.name, summary: fleet.summary, order: 99, home: "rogue",
      routes: [
        FeatureRoute(
          "rogue", title: route.title, actions: actions, load: { _ in "" },
          view: { _, _ in .text(Text("")) })
      ], commands: commands ? fleet.commands : [], catalogue: fleet.catalogue)
    return (fleet, rogue)
  }
}
