import CommandLineKit
import Essentials

/// The composition check of every screen's keys, run when a registry is built.
///
/// A key must be the only one of its kind on its screen and not one the console keeps for
/// itself; a command line (with sample values for its placeholders and fields) must parse
/// against the composed command tree and name a command that runs; a route it opens must
/// exist, unless the route belongs to a feature this build does not compile in (its first
/// path segment is no compiled route's); a `{param:NAME}` must be a parameter of the screen.
struct RouteActionCheck {
  let registry: FeatureRegistry
  let root: CommandSpec
  let globalOptions: [OptionSpec]

  static let sample = "sample"

  func conflicts() -> [RegistryConflict] {
    registry.routes.flatMap { entry in check(entry.route) }
  }

  func check(_ route: FeatureRoute) -> [RegistryConflict] {
    let pattern = route.pattern.description
    var conflicts: [RegistryConflict] = []
    let byKey = Dictionary(grouping: route.actions, by: \.key)
    for key in byKey.keys.sorted() where (byKey[key]?.count ?? 0) > 1 {
      conflicts.append(
        .duplicateKey(
          route: pattern, key: key,
          titles: (byKey[key] ?? []).map { $0.title.resolve(.english) }))
    }
    let parameters = Set(
      route.pattern.segments.compactMap { segment -> String? in
        if case .parameter(let name) = segment { return name }
        return nil
      })
    for action in route.actions {
      conflicts += check(action, on: pattern, parameters: parameters)
    }
    if let formKey = route.formKey,
      !route.actions.contains(where: { $0.key == formKey && !$0.inputs.isEmpty })
    {
      conflicts.append(
        .invalidAction(
          route: pattern, key: formKey, problem: "the screen's form key names no action with fields"
        ))
    }
    return conflicts
  }

  func check(_ action: RouteAction, on pattern: String, parameters: Set<String>)
    -> [RegistryConflict]
  {
    let key = action.key
    var conflicts: [RegistryConflict] = []
    if RouteAction.consoleKeys.contains(key) {
      conflicts.append(
        .consoleKey(route: pattern, key: key, title: action.title.resolve(.english)))
    }
    if key == RouteAction.refreshKey
      && (action.opens != nil || action.toggles != nil || !action.inputs.isEmpty
        || action.confirmation != nil || action.needsSelection)
    {
      conflicts.append(
        .invalidAction(
          route: pattern, key: key,
          problem: "the refresh key must run a command that asks nothing and needs no row"))
    }
    for name in action.parameterNames where !parameters.contains(name) {
      conflicts.append(
        .invalidAction(
          route: pattern, key: key, problem: "'{param:\(name)}' is not a parameter of the screen"))
    }
    let sampleParameters = Dictionary(uniqueKeysWithValues: parameters.map { ($0, Self.sample) })
    if let opens = action.opens {
      let path = RouteAction.fill(opens, selection: Self.sample, parameters: sampleParameters)
      if registry.route(for: path) == nil && ownsFirstSegment(of: path) {
        conflicts.append(.unresolvedRoute(route: pattern, key: key, path: opens))
      }
    } else if action.toggles == nil {
      let arguments =
        action.expandedArguments(selection: [Self.sample], parameters: sampleParameters)
        + action.inputs.flatMap { $0.arguments("1") }
      do {
        let parsed = try CommandParser().parse(
          arguments, root: root, globalOptions: globalOptions)
        if parsed.isHelpRequested || registry.command(at: parsed.path)?.run == nil {
          conflicts.append(
            .unparsableAction(
              route: pattern, key: key,
              problem: "'\(arguments.joined(separator: " "))' names no command that runs"))
        }
      } catch {
        conflicts.append(
          .unparsableAction(route: pattern, key: key, problem: error.message(.english)))
      }
    }
    return conflicts
  }

  /// Whether a compiled route starts with the same literal segment as `path`: then the path
  /// belongs to a feature of this build and must resolve.
  func ownsFirstSegment(of path: String) -> Bool {
    guard let first = path.split(separator: "/").first.map(String.init) else { return true }
    return registry.routes.contains { entry in
      if case .literal(let text)? = entry.route.pattern.segments.first { return text == first }
      return false
    }
  }
}
