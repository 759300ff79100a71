import CommandLineKit
import FeatureKit
import Foundation

/// The entry point `main.swift` calls.
public enum MSAMain {
  /// The standard app: the compiled-in features, the built-ins and the app's own commands.
  public static func composed() throws(RegistryConflicts) -> MSAApplication {
    try MSAApplication(modules: CompiledFeatures.modules, appCommands: AppCommands.all)
  }

  /// Composes the standard app and runs `arguments` in the real process.
  public static func run(_ arguments: [String]) async -> Int32 {
    let context = ProcessContext.current
    ProcessSetup.prepare(environment: context.environment)
    do {
      let app = try composed()
      let parsed = try? CommandParser().parse(
        arguments, root: app.commandTree, globalOptions: GlobalOptions.specs)
      ProcessSetup.removeTemporaryFilesOnSignals(path: parsed?.path ?? [])
      return await app.run(arguments, context: context)
    } catch {
      let message = AppStrings.catalogue.text(
        "error.registry", .fromEnvironment(context.environment), ["detail": "\(error)"])
      context.streams.writeError(message + "\n")
      return 70
    }
  }
}
