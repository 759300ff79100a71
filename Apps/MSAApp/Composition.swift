import Essentials
import FeatureKit
import Foundation
import LocalStore

/// The composition root's wiring: which shared services exist and how each is made.
///
/// Services are made on first use, so `msa --help` or `msa routes` never opens the database.
enum Composition {
  static func services(registry: FeatureRegistry, dataDirectory: URL, clock: AppClock)
    -> Services
  {
    Services()
      .registering(registry)
      .registering(Store.self) { _ in
        try Store.open(
          directory: dataDirectory, modules: CompiledFeatures.schemaModules, clock: clock)
      }
  }

  /// A log handler that writes to the runtime log once the store is open, and never opens
  /// the store just to log.
  static func storeLogHandler(_ services: Services) -> any LogHandler {
    LazyStoreLogHandler(services: services)
  }

  /// Releases what the run opened.
  static func close(_ services: Services) {}
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
