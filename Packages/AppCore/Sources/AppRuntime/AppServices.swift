import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminClient

/// The services both apps run on, and how each is made: the registry, the build's facts, the
/// store (the database and the credential store) and the connector to devices.
///
/// Services are made on first use, so a command that needs no store (`msa --help`) never
/// opens the database.
public enum AppServices {
  /// Seconds a device gets to answer one request, unless a command says otherwise.
  public static let requestTimeout: TimeInterval = 8

  /// The services of an app with `registry`'s features over `dataDirectory`.
  ///
  /// - Parameters:
  ///   - schemaModules: the database schema each compiled-in feature owns.
  ///   - credentials: the credential store; by default `credentials.json` in the directory.
  ///   - verbose: every device request is also a line on standard error.
  public static func make(
    registry: FeatureRegistry, dataDirectory: URL, clock: AppClock,
    schemaModules: [SchemaModule], buildInfo: AppBuildInfo,
    requestTimeout: TimeInterval = requestTimeout, verbose: Bool = false,
    credentials: (any CredentialStore)? = nil
  ) -> Services {
    Services()
      .registering(registry)
      .registering(buildInfo)
      .registering(Store.self) { _ in
        try Store.open(
          directory: dataDirectory, modules: schemaModules, clock: clock,
          credentials: credentials)
      }
      .registering(SimAdminConnector.self) { services in
        // The app's logger: with `-v` every device request is a line on stderr and in the
        // runtime log (method, route, status, bytes, ms; never a cookie, password or body).
        SimAdminConnector(
          timeout: requestTimeout, userAgentVersion: buildInfo.version,
          logger: logger(services, verbose: verbose, clock: clock), clock: clock,
          passwords: CredentialPasswordKeeper(clock: clock) {
            // Read when a device asks for a login, so a password stored meanwhile counts.
            try? services.resolve(Store.self).credentials
          })
      }
  }

  /// The app's logger over `services`: the runtime log, and stderr with `verbose` (which
  /// also lowers the level to debug).
  public static func logger(
    _ services: Services, verbose: Bool, clock: AppClock, label: String = "msa"
  ) -> Logger {
    var handlers: [any LogHandler] = [LazyStoreLogHandler(services: services)]
    if verbose { handlers.append(StandardErrorLogHandler()) }
    return Logger(
      label: label, handler: MultiplexLogHandler(handlers), logLevel: verbose ? .debug : .info,
      clock: clock)
  }
}

/// Writes records to the runtime log of an already opened store, and never opens the store
/// just to log.
struct LazyStoreLogHandler: LogHandler {
  let services: Services

  func handle(_ record: LogRecord) {
    guard let store = services.madeServices.lazy.compactMap({ $0 as? Store }).first else {
      return
    }
    StoreLogHandler(store: store).handle(record)
  }
}
