import AppCore
import AppRuntime
import DeviceModulesFeature
import FeatureKit
import FleetFeature
import Foundation
import LocalStore
import LogCenterFeature
import MessagesFeature

/// The iPhone app's composition: the features it compiles in (the only file that imports
/// feature packages). A feature appears in the app by being listed here; each brings its own
/// phone screens, and the shell draws whatever the registry holds.
enum Composition {
  /// The release this build is.
  static let version = "0.1.0"

  /// The feature modules: tabs 节点 (Fleet), 消息 (Messages) and 设置 (LogCenter); the
  /// device sections (DeviceModules) are reached from a node.
  static var modules: [FeatureModule] {
    [Fleet.module, Messages.module, DeviceModules.module, LogCenter.module]
  }

  /// The database schema each feature owns.
  static var schemaModules: [SchemaModule] { [Messages.schema] }

  /// An SF Symbol per tab, by module id (the modules declare no icon of their own).
  static let tabIcons: [String: String] = [
    Fleet.module.id: "antenna.radiowaves.left.and.right",
    Messages.module.id: "message",
    LogCenter.module.id: "gearshape",
  ]

  /// The running app: data in the sandbox's Application Support, backups and exports in its
  /// Documents (the Files app's "On My iPhone › MultiSimAdmin").
  @MainActor
  static func session(applicationSupport: URL, documents: URL, preferredLanguages: [String])
    throws -> PhoneSession
  {
    try PhoneRuntime.session(
      modules: modules, schemaModules: schemaModules, version: version,
      applicationSupport: applicationSupport, documents: documents,
      preferredLanguages: preferredLanguages)
  }
}
