import CommandLineApp
import FeatureKit

/// The entry point `main.swift` calls.
public enum MSAMain {
  /// The standard app: the compiled-in features, the built-ins and the app's own commands.
  /// The screens' keys are not dry-parsed at every start: `Tests/MSAAppTests` checks them for
  /// this composition and every one-feature build (``MSAApplication/routeActionConflicts()``).
  public static func composed() throws(RegistryConflicts) -> MSAApplication {
    try MSAApplication(
      modules: CompiledFeatures.modules, appCommands: AppCommands.all,
      checkingRouteActions: false)
  }

  /// Composes the standard app and runs `arguments` in the real process.
  public static func run(_ arguments: [String]) async -> Int32 {
    await ProcessSetup.run(arguments, compose: composed)
  }
}

extension MSAApplication {
  /// `modules` composed with the built-ins and `appCommands`, over the database schema of
  /// this build's features.
  public init(
    modules: [FeatureModule], appCommands: [FeatureCommand] = [], checkingRouteActions: Bool = true
  ) throws(RegistryConflicts) {
    try self.init(
      modules: modules, schemaModules: CompiledFeatures.schemaModules, appCommands: appCommands,
      checkingRouteActions: checkingRouteActions)
  }
}
