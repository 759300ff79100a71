import CommandLineKit
import Essentials

/// The app's features, checked once and then immutable.
///
/// Construction refuses any duplicate module id, route, command name or alias, any clash
/// with the app's built-ins, and any console key that cannot work (see
/// ``RouteActionCheck``), reporting every conflict in one error.
public struct FeatureRegistry: Sendable {
  /// The app's own commands and routes (`routes`, `modules`, `view`, `about`, …).
  public let builtIns: FeatureModule
  /// The features compiled in, in tab order.
  public let modules: [FeatureModule]

  /// Checks and keeps `modules` beside the app's `builtIns`; unless `checkingRouteActions` is
  /// false, every route action's command line is dry-parsed against the tree under `root`
  /// with `globalOptions` (``routeActionConflicts(root:globalOptions:)``).
  ///
  /// The command-line program composes without the dry parse (it cost about 2 ms of every
  /// process start, `msa --version` included, for a composition that is the same in every
  /// run of a build); its tests run the check on every build it can be composed as.
  public init(
    builtIns: FeatureModule, modules: [FeatureModule],
    root: CommandSpec = CommandSpec(
      "app", abstract: FeatureKitStrings.string("route.failed")),
    globalOptions: [OptionSpec] = [], checkingRouteActions: Bool = true
  ) throws(RegistryConflicts) {
    self.builtIns = builtIns
    self.modules = modules.sorted { ($0.order, $0.id) < ($1.order, $1.id) }
    var conflicts = Self.conflicts(builtIns: builtIns, modules: modules)
    if checkingRouteActions {
      conflicts += routeActionConflicts(root: root, globalOptions: globalOptions)
    }
    guard conflicts.isEmpty else { throw RegistryConflicts(conflicts: conflicts) }
  }

  /// The problems of the screens' keys (``RouteActionCheck``): every route action's command
  /// line dry-parsed against the tree under `root` with `globalOptions`, every key, route
  /// opened and parameter checked. Empty when all is well.
  public func routeActionConflicts(root: CommandSpec, globalOptions: [OptionSpec] = [])
    -> [RegistryConflict]
  {
    RouteActionCheck(registry: self, root: commandTree(root: root), globalOptions: globalOptions)
      .conflicts()
  }

  /// Built-ins first, then features.
  public var allModules: [FeatureModule] { [builtIns] + modules }

  // MARK: - Routes

  /// Every route with the module that declares it, most specific first.
  public var routes: [(module: FeatureModule, route: FeatureRoute)] {
    allModules.flatMap { module in module.routes.map { (module, $0) } }
  }

  /// The route that matches `path`, with its parameters; literal segments win over parameters.
  public func route(for path: String) -> (
    module: FeatureModule, route: FeatureRoute, parameters: [String: String]
  )? {
    let candidates = routes.compactMap { entry in
      entry.route.pattern.match(path).map { (entry.module, entry.route, $0) }
    }
    return candidates.min { $0.2.count < $1.2.count }
  }

  // MARK: - Phone screens

  /// The phone screen that draws `path`, with its parameters; literal segments win over
  /// parameters, as for routes.
  public func phoneScreen(for path: String) -> (
    module: FeatureModule, screen: PhoneScreen, parameters: [String: String]
  )? {
    let candidates = allModules.flatMap { module in
      module.phoneScreens.compactMap { screen in
        screen.pattern.match(path).map { (module, screen, $0) }
      }
    }
    return candidates.min { $0.2.count < $1.2.count }
  }

  /// The patterns of the routes no phone screen draws (the phone app must have one for each).
  public var routesWithoutPhoneScreen: [String] {
    routes.map(\.route.pattern).filter { pattern in
      !allModules.contains { module in
        module.phoneScreens.contains { $0.pattern == pattern }
      }
    }.map(\.description)
  }

  /// The phone screens whose pattern is no route of their module.
  public var phoneScreensWithoutRoute: [String] {
    allModules.flatMap { module in
      module.phoneScreens.filter { screen in
        !module.routes.contains { $0.pattern == screen.pattern }
      }.map { "\(module.id): \($0.pattern)" }
    }
  }

  // MARK: - Commands

  /// The whole command tree for the parser and help: built-ins ungrouped, then each feature's
  /// commands under the feature's name.
  public func commandTree(root: CommandSpec) -> CommandSpec {
    var root = root
    root.subcommands =
      builtIns.commands.map { $0.spec(group: nil) }
      + modules.flatMap { module in module.commands.map { $0.spec(group: module.name) } }
    let examples = allModules.reduce(into: [String: [String]]()) { all, module in
      all.merge(module.examples) { first, _ in first }
    }
    return Self.addingExamples(examples, to: root, path: [])
  }

  private static func addingExamples(
    _ examples: [String: [String]], to command: CommandSpec, path: [String]
  ) -> CommandSpec {
    var command = command
    if let own = examples[path.joined(separator: " ")] { command.examples = own }
    command.subcommands = command.subcommands.map {
      addingExamples(examples, to: $0, path: path + [$0.name])
    }
    return command
  }

  /// The completer for `kind`, from whichever module declares one.
  public func completer(for kind: ValueCompletion) -> ValueCompleter? {
    allModules.lazy.flatMap(\.completers).first { $0.kind == kind }
  }

  /// The command at a parsed path, e.g. `["fleet", "add"]`.
  public func command(at path: [String]) -> FeatureCommand? {
    guard let first = path.first else { return nil }
    let top = allModules.lazy.flatMap(\.commands).first { $0.name == first }
    return top?.descendant(path.dropFirst())
  }

  /// The module that owns the top-level command `name`.
  public func module(owningCommand name: String) -> FeatureModule? {
    allModules.first { $0.commands.contains { $0.name == name } }
  }

  // MARK: - Checking

  static func conflicts(builtIns: FeatureModule, modules: [FeatureModule]) -> [RegistryConflict] {
    var conflicts: [RegistryConflict] = []
    let all = [builtIns] + modules

    var idOwners: [String: Int] = [:]
    for module in all { idOwners[module.id, default: 0] += 1 }
    for (id, count) in idOwners where count > 1 {
      conflicts.append(.duplicateModuleID(id))
    }

    var routeOwners: [String: [(module: String, pattern: String)]] = [:]
    for module in all {
      for route in module.routes {
        routeOwners[route.pattern.shape, default: []].append((module.id, route.pattern.description))
      }
    }
    for (_, owners) in routeOwners where owners.count > 1 {
      conflicts.append(
        clash(
          owners.map(\.module), builtIn: builtIns.id,
          duplicate: .duplicateRoute(pattern: owners[0].pattern, modules: owners.map(\.module)),
          builtInClash: { .builtInClash(kind: .route, name: owners[0].pattern, module: $0) }))
    }

    var nameOwners: [String: [String]] = [:]
    for module in all {
      for command in module.commands {
        for name in [command.name] + command.declaration.aliases {
          nameOwners[name, default: []].append(module.id)
        }
      }
    }
    for (name, owners) in nameOwners where owners.count > 1 {
      conflicts.append(
        clash(
          owners, builtIn: builtIns.id,
          duplicate: .duplicateCommand(name: name, modules: owners),
          builtInClash: { .builtInClash(kind: .command, name: name, module: $0) }))
    }
    for module in all {
      for command in module.commands {
        conflicts += subcommandConflicts(command, path: [command.name], module: module.id)
      }
    }
    return conflicts.sorted { $0.description < $1.description }
  }

  private static func clash(
    _ owners: [String], builtIn: String, duplicate: RegistryConflict,
    builtInClash: (String) -> RegistryConflict
  ) -> RegistryConflict {
    if owners.contains(builtIn), let other = owners.first(where: { $0 != builtIn }) {
      return builtInClash(other)
    }
    return duplicate
  }

  private static func subcommandConflicts(
    _ command: FeatureCommand, path: [String], module: String
  ) -> [RegistryConflict] {
    var seen: [String: Int] = [:]
    for sub in command.subcommands {
      for name in [sub.name] + sub.declaration.aliases { seen[name, default: 0] += 1 }
    }
    let here = seen.filter { $0.value > 1 }.keys.sorted().map {
      RegistryConflict.duplicateCommand(
        name: (path + [$0]).joined(separator: " "), modules: [module])
    }
    return here
      + command.subcommands.flatMap {
        subcommandConflicts($0, path: path + [$0.name], module: module)
      }
  }
}

/// One reason a set of modules cannot be registered together.
public enum RegistryConflict: Sendable, Equatable, CustomStringConvertible {
  /// What kind of name clashed with a built-in.
  public enum Kind: String, Sendable, Equatable {
    case route, command
  }

  /// Two modules share an id.
  case duplicateModuleID(String)
  /// Routes of the same shape (`fleet/:id` and `fleet/:ref`) in these modules.
  case duplicateRoute(pattern: String, modules: [String])
  /// A command name or alias used twice (`fleet add` when nested).
  case duplicateCommand(name: String, modules: [String])
  /// A module claims a built-in's route or command name.
  case builtInClash(kind: Kind, name: String, module: String)
  /// Two actions of one screen share a key.
  case duplicateKey(route: String, key: Character, titles: [String])
  /// A screen binds a key the console keeps for itself.
  case consoleKey(route: String, key: Character, title: String)
  /// A screen action's command line does not parse against the composed command tree.
  case unparsableAction(route: String, key: Character, problem: String)
  /// A screen action opens a route of a compiled-in feature that does not exist.
  case unresolvedRoute(route: String, key: Character, path: String)
  /// A screen action is not what its place asks for (a placeholder of a parameter the route
  /// lacks, a form key naming no form, a refresh key that asks first).
  case invalidAction(route: String, key: Character, problem: String)

  public var description: String {
    switch self {
    case .duplicateModuleID(let id):
      "module id '\(id)' is declared more than once"
    case .duplicateRoute(let pattern, let modules):
      "route '\(pattern)' is declared by \(modules.joined(separator: ", "))"
    case .duplicateCommand(let name, let modules):
      "command '\(name)' is declared by \(modules.joined(separator: ", "))"
    case .builtInClash(let kind, let name, let module):
      "module '\(module)' declares \(kind.rawValue) '\(name)', which is built into the app"
    case .duplicateKey(let route, let key, let titles):
      "screen '\(route)' binds key '\(key)' to \(titles.count) actions: \(titles.joined(separator: ", "))"
    case .consoleKey(let route, let key, let title):
      "screen '\(route)' binds key '\(key)' (\(title)), which the console keeps for itself"
    case .unparsableAction(let route, let key, let problem):
      "screen '\(route)' key '\(key)' runs a command line that does not parse: \(problem)"
    case .unresolvedRoute(let route, let key, let path):
      "screen '\(route)' key '\(key)' opens '\(path)', which no route matches"
    case .invalidAction(let route, let key, let problem):
      "screen '\(route)' key '\(key)': \(problem)"
    }
  }
}

/// Every conflict found while building a registry: a composition defect, reported whole.
public struct RegistryConflicts: Error, Sendable, Equatable, CustomStringConvertible {
  /// The conflicts, sorted.
  public let conflicts: [RegistryConflict]

  /// A set of conflicts.
  public init(conflicts: [RegistryConflict]) {
    self.conflicts = conflicts
  }

  public var description: String {
    (["The feature registry has \(conflicts.count) conflict(s):"]
      + conflicts.map { "- \($0)" }).joined(separator: "\n")
  }
}
