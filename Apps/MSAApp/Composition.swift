import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminClient

/// The composition root's wiring: which shared services exist and how each is made.
///
/// Services are made on first use, so `msa --help` or `msa routes` never opens the database.
enum Composition {
  /// Seconds a device gets to answer one request, unless a command says otherwise.
  static let requestTimeout: TimeInterval = 8

  static func services(
    registry: FeatureRegistry, dataDirectory: URL, clock: AppClock, application: MSAApplication,
    requestTimeout: TimeInterval = requestTimeout, verbose: Bool = false
  ) -> Services {
    Services()
      .registering(registry)
      .registering(application)
      .registering(AppBuildInfo(version: AppInfo.version, platform: AppInfo.platform))
      .registering(Store.self) { _ in
        try Store.open(
          directory: dataDirectory, modules: CompiledFeatures.schemaModules, clock: clock)
      }
      .registering(SimAdminConnector.self) { services in
        // The app's logger: with `-v` every device request is a line on stderr and in the
        // runtime log (method, route, status, bytes, ms; never a cookie, password or body).
        SimAdminConnector(
          timeout: requestTimeout, userAgentVersion: AppInfo.version,
          logger: Composition.logger(services, verbose: verbose, clock: clock), clock: clock,
          credentials: { instanceID in
            // Read when a device asks for a login, so a password stored meanwhile counts.
            try? services.resolve(Store.self).credentials.password(for: instanceID)
          })
      }
  }

  /// The app's logger over `services`: the runtime log, and stderr with `-v` (which also
  /// lowers the level to debug).
  static func logger(_ services: Services, verbose: Bool, clock: AppClock) -> Logger {
    var handlers: [any LogHandler] = [storeLogHandler(services)]
    if verbose { handlers.append(StandardErrorLogHandler()) }
    return Logger(
      label: "msa", handler: MultiplexLogHandler(handlers), logLevel: verbose ? .debug : .info,
      clock: clock)
  }

  /// A log handler that writes to the runtime log once the store is open, and never opens
  /// the store just to log.
  static func storeLogHandler(_ services: Services) -> any LogHandler {
    LazyStoreLogHandler(services: services)
  }
}

/// Writes records to the runtime log of an already opened store.
struct LazyStoreLogHandler: LogHandler {
  let services: Services

  func handle(_ record: LogRecord) {
    guard let store = services.madeServices.lazy.compactMap({ $0 as? Store }).first else {
      return
    }
    StoreLogHandler(store: store).handle(record)
  }
}
