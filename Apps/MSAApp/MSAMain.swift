import FeatureKit
import Foundation

/// The entry point `main.swift` calls.
public enum MSAMain {
  /// Composes the standard app and runs `arguments` in the real process.
  public static func run(_ arguments: [String]) async -> Int32 {
    let context = ProcessContext.current
    do {
      let app = try MSAApplication(
        modules: CompiledFeatures.modules, appCommands: AppCommands.all)
      return await app.run(arguments, context: context)
    } catch {
      let message = AppStrings.catalogue.text(
        "error.registry", .fromEnvironment(context.environment), ["detail": "\(error)"])
      context.streams.writeError(message + "\n")
      return 70
    }
  }
}
