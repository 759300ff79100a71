import AppRuntime
import Essentials
import FeatureKit
import Foundation
import LocalStore

/// The wiring of one run: the app core's services (``AppServices``) with this program's own
/// facts, the compiled-in features' schema and the application itself.
///
/// Services are made on first use, so `msa --help` or `msa routes` never opens the database.
enum Composition {
  /// Seconds a device gets to answer one request, unless a command says otherwise.
  static let requestTimeout: TimeInterval = AppServices.requestTimeout

  static func services(
    registry: FeatureRegistry, dataDirectory: URL, clock: AppClock, application: MSAApplication,
    requestTimeout: TimeInterval = requestTimeout, verbose: Bool = false
  ) -> Services {
    AppServices.make(
      registry: registry, dataDirectory: dataDirectory, clock: clock,
      schemaModules: application.schemaModules,
      buildInfo: AppBuildInfo(version: AppInfo.version, platform: AppInfo.platform),
      requestTimeout: requestTimeout, verbose: verbose
    )
    .registering(application)
  }

  /// The app's logger over `services`: the runtime log, and stderr with `-v` (which also
  /// lowers the level to debug).
  static func logger(_ services: Services, verbose: Bool, clock: AppClock) -> Logger {
    AppServices.logger(services, verbose: verbose, clock: clock)
  }
}
