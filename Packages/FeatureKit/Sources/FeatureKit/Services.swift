import Essentials

/// A type-keyed container of shared services (the store, the device connector, …).
///
/// The app registers a factory per type; a service is made on first use and then shared,
/// so `msa --help` never opens the database. Shaped like SwiftUI's environment values, but
/// keyed by the service's own type so shared packages need not know one another.
public final class Services: Sendable {
  /// Makes one service, possibly from others.
  public typealias Factory = @Sendable (Services) throws -> any Sendable

  private let factories: [ObjectIdentifier: Factory]
  private let names: [ObjectIdentifier: String]
  private let made = Locked<[ObjectIdentifier: any Sendable]>([:])

  /// An empty container.
  public init() {
    factories = [:]
    names = [:]
  }

  private init(factories: [ObjectIdentifier: Factory], names: [ObjectIdentifier: String]) {
    self.factories = factories
    self.names = names
  }

  /// A container that also makes `type` with `factory`.
  public func registering<Service: Sendable>(
    _ type: Service.Type, _ factory: @escaping @Sendable (Services) throws -> Service
  ) -> Services {
    var factories = self.factories
    var names = self.names
    factories[ObjectIdentifier(type)] = { try factory($0) }
    names[ObjectIdentifier(type)] = String(describing: type)
    return Services(factories: factories, names: names)
  }

  /// A container that also holds `service`, already made.
  public func registering<Service: Sendable>(_ service: Service) -> Services {
    registering(Service.self) { _ in service }
  }

  /// Whether `type` can be resolved.
  public func contains<Service>(_ type: Service.Type) -> Bool {
    factories[ObjectIdentifier(type)] != nil
  }

  /// The shared instance of `type`, made on first use.
  public func resolve<Service: Sendable>(_ type: Service.Type) throws -> Service {
    let key = ObjectIdentifier(type)
    if let existing = made.withLock({ $0[key] }) as? Service {
      return existing
    }
    guard let factory = factories[key] else {
      throw ServiceError.notRegistered(String(describing: type))
    }
    // Made outside the lock: a factory may resolve other services.
    guard let service = try factory(self) as? Service else {
      throw ServiceError.notRegistered(String(describing: type))
    }
    return made.withLock { made in
      if let winner = made[key] as? Service { return winner }
      made[key] = service
      return service
    }
  }

  /// The services made so far, for shutting them down in order.
  public var madeServices: [any Sendable] {
    made.current.map(\.value)
  }
}

/// A service was asked for that the app never registered: a composition defect.
public enum ServiceError: Error, CustomStringConvertible, Equatable {
  /// No factory for the named type.
  case notRegistered(String)

  public var description: String {
    switch self {
    case .notRegistered(let name): "No service of type \(name) is registered in the app."
    }
  }
}
