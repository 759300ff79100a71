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

  /// Everything the app runs on, from the features it compiles in: the registry, the
  /// environment in the sandbox's Application Support, and a session whose actions run through
  /// the command dispatcher.
  @MainActor
  public static func session(
    modules: [FeatureModule], schemaModules: [SchemaModule], version: String,
    applicationSupport: URL, preferredLanguages: [String], clock: AppClock = .system
  ) throws -> AppSession {
    let registry = try registry(modules: modules)
    let language = language(preferred: preferredLanguages)
    let environment = environment(
      registry: registry, dataDirectory: try dataDirectory(applicationSupport: applicationSupport),
      language: language, clock: clock, schemaModules: schemaModules,
      buildInfo: AppBuildInfo(version: version, platform: "ios-arm64"))
    let dispatcher = CommandDispatcher(
      registry: registry,
      commandTree: registry.commandTree(
        root: CommandSpec(
          programName, abstract: AppCoreStrings.string("phone.app.name"))),
      globalOptions: [])
    return AppSession(
      context: AppContext(registry: registry, language: language), environment: environment
    ) { arguments in
      await dispatcher.outcome(of: arguments, in: environment)
    }
  }
}

/// A running app over the core: the state, the messages a shell sends, and the effects
/// performed as tasks whose results come back as messages. A SwiftUI shell observes
/// ``onChange``; everything here runs on the main actor.
@MainActor
public final class AppSession {
  /// The current state.
  public private(set) var state: AppState
  /// The registry and language.
  public let context: AppContext
  /// Called after every change of ``state``.
  public var onChange: (@MainActor () -> Void)?
  let runner: AppEffectRunner
  var loads = LoadTracker()

  /// A session for the registry's features in `environment`, running actions with
  /// `execute`.
  public init(
    context: AppContext, environment: AppEnvironment,
    execute: @escaping AppEffectRunner.Executor
  ) {
    self.context = context
    state = AppState(tabs: AppState.tabs(of: context.registry, language: context.language))
    runner = AppEffectRunner(
      registry: context.registry, environment: environment, execute: execute)
  }

  /// Loads the first screen.
  public func start() {
    perform(AppUpdate.start(state))
  }

  /// Applies `message` and performs what it asks for.
  public func send(_ message: AppMessage) {
    if case .loaded(let path, _, _) = message, loads.finish(path) {
      let again = loads.queued(for: path)
      perform([.load(path: path, search: again.search, flags: again.flags)])
    }
    let effects = AppUpdate.update(&state, message, context: context)
    perform(effects)
    onChange?()
  }

  func perform(_ effects: [AppEffect]) {
    runner.perform(
      effects, &loads,
      loaded: { path, view, date in
        Task { @MainActor [weak self] in self?.send(.loaded(path: path, view: view, at: date)) }
      },
      finished: { batch, affected, outcome in
        Task { @MainActor [weak self] in
          self?.send(.finished(batch: batch, affected: affected, outcome: outcome))
        }
      })
  }
}
