import FeatureKit
import LocalStore

#if Fleet
  import FleetFeature
#endif
#if Messages
  import MessagesFeature
#endif
#if DeviceModules
  import DeviceModulesFeature
#endif
#if LogCenter
  import LogCenterFeature
#endif

/// The feature modules this build compiles in, chosen by SwiftPM package traits
/// (`swift build --traits Fleet,Messages`; all on by default).
public enum CompiledFeatures {
  /// The modules, in no particular order (the registry sorts them).
  public static var modules: [FeatureModule] {
    var modules: [FeatureModule] = []
    #if Fleet
      modules.append(Fleet.module)
    #endif
    #if Messages
      modules.append(Messages.module)
    #endif
    #if DeviceModules
      modules.append(DeviceModules.module)
    #endif
    #if LogCenter
      modules.append(LogCenter.module)
    #endif
    return modules
  }

  /// The database schema each compiled-in feature owns (the core schema is always there).
  public static var schemaModules: [SchemaModule] {
    var modules: [SchemaModule] = []
    #if Messages
      modules.append(Messages.schema)
    #endif
    return modules
  }
}
