import AppCore
import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import LocalStore

/// What the iPhone app runs on, built without SwiftUI so Linux tests reach it: its data
/// directory in the sandbox, its environment (services, language, no terminal), and the
/// session that drives the app core.
public enum PhoneRuntime {
  /// The app's data directory: `MultiSimAdmin` in the sandbox's Application Support
  /// (`applicationSupport`), created when missing.
  public static func dataDirectory(applicationSupport: URL) throws -> URL {
    let directory = applicationSupport.appendingPathComponent("MultiSimAdmin", isDirectory: true)
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    return directory
  }

  /// The language of a device's preferred languages: Simplified Chinese when the first
  /// preferred one is Chinese (not Traditional), else English.
  public static func language(preferred: [String]) -> AppLanguage {
    guard let first = preferred.first?.lowercased() else { return .english }
    let traditional = ["zh-hant", "zh-tw", "zh-hk", "zh-mo"].contains { first.hasPrefix($0) }
    return first.hasPrefix("zh") && !traditional ? .simplifiedChinese : .english
  }

  /// Why the app could not start, in the device's language.
  public static func startFailure(_ error: any Error, preferredLanguages: [String]) -> String {
    let language = language(preferred: preferredLanguages)
    return AppCoreStrings.text(
      "phone.failed-start", language, ["reason": UserFacingMessage.of(error, language)])
  }

  /// The environment of the app: the core's services over `dataDirectory` with passwords in
  /// its protected `credentials.json`, and no standard streams (nothing is printed).
  public static func environment(
    registry: FeatureRegistry, dataDirectory: URL, language: AppLanguage, clock: AppClock,
    schemaModules: [SchemaModule], buildInfo: AppBuildInfo
  ) -> AppEnvironment {
    let services = AppServices.make(
      registry: registry, dataDirectory: dataDirectory, clock: clock,
      schemaModules: schemaModules, buildInfo: buildInfo,
      credentials: ProtectedCredentialStore(directory: dataDirectory))
    return AppEnvironment(
      clock: clock, language: language, output: OutputSettings(),
      logger: AppServices.logger(services, verbose: false, clock: clock, label: "MultiSimAdmin"),
      theme: .standard, dataDirectory: dataDirectory,
      streams: StandardStreams(writeError: { _ in }, readInput: { nil }), services: services)
  }
}

extension PhoneRuntime {
  /// The program name of the phone's command tree (its actions are command lines).
  public static let programName = "MultiSimAdmin"

  /// The phone's registry: `modules` beside a built-in module of its own with no commands or
  /// routes (the phone has no `msa routes` or `msa ui`); fails when a route action's command
  /// line does not parse against the features' commands.
  public static func registry(modules: [FeatureModule]) throws(RegistryConflicts)
    -> FeatureRegistry
  {
    let name = AppCoreStrings.string("phone.app.name")
    let builtIns = FeatureModule(
      id: "app", name: name,
      summary: AppCoreStrings.string("phone.app.summary"), order: 0,
      home: nil, routes: [], commands: [], catalogue: AppCoreStrings.catalogue)
    return try FeatureRegistry(
      builtIns: builtIns, modules: modules, root: CommandSpec(programName, abstract: name))
  }

  /// Everything the app runs on, from the features it compiles in: the registry (every route
  /// must have a phone screen), the environment in the sandbox's Application Support, and a
  /// session whose screens run their commands through the command dispatcher.
  ///
  /// - Parameters:
  ///   - documents: the sandbox's Documents (shown in Files): backups and exports go there.
  ///   - timeZone: the phone's time zone, in which every time is shown.
  @MainActor
  public static func session(
    modules: [FeatureModule], schemaModules: [SchemaModule], version: String,
    applicationSupport: URL, documents: URL, preferredLanguages: [String],
    timeZone: TimeZone = .current, clock: AppClock = .system,
    services: (Services) -> Services = { $0 }
  ) throws -> PhoneSession {
    let registry = try registry(modules: modules)
    let missing = registry.routesWithoutPhoneScreen
    guard missing.isEmpty else { throw PhoneScreensMissing(patterns: missing) }
    let language = language(preferred: preferredLanguages)
    var environment = environment(
      registry: registry, dataDirectory: try dataDirectory(applicationSupport: applicationSupport),
      language: language, clock: clock, schemaModules: schemaModules,
      buildInfo: AppBuildInfo(version: version, platform: "ios-arm64"))
    environment.services = services(environment.services)
    return PhoneSession(
      context: AppContext(registry: registry, language: language), environment: environment,
      timeZone: timeZone, documents: documents)
  }
}

/// Routes that no feature gave a phone screen: a composition defect the app refuses to start
/// with (and the walk reports).
public struct PhoneScreensMissing: Error, LocalizedFailure {
  /// The route patterns.
  public let patterns: [String]

  /// The routes in `patterns` lack a phone screen.
  public init(patterns: [String]) {
    self.patterns = patterns
  }

  public func localizedMessage(_ language: AppLanguage) -> String {
    AppCoreStrings.text(
      "phone.missing-screens", language, ["routes": patterns.joined(separator: ", ")])
  }
}

/// The running iPhone app: the app core's navigation (``AppState``'s tabs and stacks, moved
/// by ``AppUpdate``) with a phone screen model per open screen, whose commands run through the
/// same ``CommandDispatcher`` as the console's actions.
///
/// The request budget lives here: a screen's model is made and loaded once when it is
/// opened; going back to it resumes it (local data only, never a device); the app coming
/// back to the foreground refreshes the screen shown, once; nothing runs on its own.
@MainActor
public final class PhoneSession {
  /// The tabs and their navigation stacks.
  public private(set) var state: AppState
  /// The registry and language.
  public let context: AppContext
  /// The app's environment.
  public let environment: AppEnvironment
  /// Called after every change of navigation.
  public var onChange: (@MainActor () -> Void)?
  /// The phone's time zone.
  public let timeZone: TimeZone
  /// The Files folder.
  public let documents: URL
  let dispatcher: CommandDispatcher
  private var models: [Int: any PhoneScreenModel] = [:]
  private var tasks: [Int: Task<Void, Never>] = [:]
  private var nextTask = 0

  /// A session over `context`'s features in `environment`.
  public init(
    context: AppContext, environment: AppEnvironment, timeZone: TimeZone, documents: URL
  ) {
    self.context = context
    self.environment = environment
    self.timeZone = timeZone
    self.documents = documents
    state = AppState(tabs: AppState.tabs(of: context.registry, language: context.language))
    dispatcher = CommandDispatcher(
      registry: context.registry,
      commandTree: context.registry.commandTree(
        root: CommandSpec(
          PhoneRuntime.programName, abstract: AppCoreStrings.string("phone.app.name"))),
      globalOptions: [])
  }

  /// The context phone screens run in.
  public var phoneContext: PhoneContext {
    let dispatcher = dispatcher
    let environment = environment
    let registry = context.registry
    return PhoneContext(
      environment: environment, timeZone: timeZone, documents: documents,
      run: { arguments, input in
        try await dispatcher.execute(arguments, in: environment, input: input)
      },
      navigate: { [weak self] navigation in
        switch navigation {
        case .open(let path): self?.open(path)
        case .close(let notice): self?.close(notice: notice)
        }
      },
      canOpen: { registry.phoneScreen(for: $0) != nil })
  }

  /// Shows the first tab's home screen.
  public func start() {
    ensureModels()
  }

  /// Shows the tab at `index` (its home screen is loaded the first time).
  public func selectTab(_ index: Int) {
    _ = AppUpdate.update(&state, .selectTab(index), context: context)
    ensureModels()
    onChange?()
  }

  /// Opens `path` on top of the active tab's stack, if a phone screen draws it.
  public func open(_ path: String) {
    guard context.registry.phoneScreen(for: path) != nil else { return }
    _ = AppUpdate.update(&state, .push(path: path), context: context)
    ensureModels()
    onChange?()
  }

  /// Closes the screen on top of the active tab (its home stays); the screen below resumes
  /// with `notice` and fetches nothing.
  public func close(notice: String? = nil) {
    guard state.stacks[state.activeTab].count > 1 else { return }
    // The core's pop asks to reload the screen below; the phone resumes it instead.
    _ = AppUpdate.update(&state, .close, context: context)
    let open = Set(state.stacks.flatMap { $0 }.map(\.id))
    for id in models.keys where !open.contains(id) { models[id] = nil }
    if let model = models[state.screen.id] {
      track { await model.resume(notice: notice) }
    }
    onChange?()
  }

  /// Closes screens until the active tab shows `depth` screens (a swipe back over several).
  public func close(toDepth depth: Int) {
    while state.stacks[state.activeTab].count > max(1, depth) { close() }
  }

  /// The model of the screen with this id, if it is open.
  public func model(_ screenID: Int) -> (any PhoneScreenModel)? {
    models[screenID]
  }

  /// The model of the screen shown.
  public var visible: (any PhoneScreenModel)? {
    models[state.screen.id]
  }

  /// The app is back in the foreground: the screen shown refreshes, once.
  public func enterForeground() {
    guard let model = visible else { return }
    track { await model.refresh() }
  }

  /// Waits until every load, resume and refresh the session started has ended.
  public func idle() async {
    while let (id, task) = tasks.first {
      await task.value
      tasks[id] = nil
    }
  }

  /// Makes and loads the model of every shown screen that has none (the active tab's top).
  private func ensureModels() {
    guard !state.tabs.isEmpty else { return }
    let screen = state.screen
    guard models[screen.id] == nil,
      let match = context.registry.phoneScreen(for: screen.path)
    else { return }
    let model = match.screen.make(
      PhoneRequest(path: screen.path, parameters: match.parameters, context: phoneContext))
    models[screen.id] = model
    track { await model.appear() }
  }

  private func track(_ work: @escaping @MainActor () async -> Void) {
    nextTask += 1
    let id = nextTask
    tasks[id] = Task { @MainActor in await work() }
  }
}
