import FeatureKit
import LocalStore

/// The feature modules this build compiles in, chosen by SwiftPM package traits
/// (`swift build --traits Fleet,Messages`; all on by default).
public enum CompiledFeatures {
  /// The modules, in no particular order (the registry sorts them).
  public static var modules: [FeatureModule] {
    let modules: [FeatureModule] = []
    return modules
  }

  /// The database schema each compiled-in feature owns.
  static var schemaModules: [SchemaModule] {
    []
  }
}
