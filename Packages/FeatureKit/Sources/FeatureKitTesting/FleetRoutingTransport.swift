import Essentials
import Foundation
import HTTPKit
import SimAdminClient
import SimAdminSimulator

/// How a harness's default transport reaches the devices of its fleets.
public enum DeviceRoute: String, Sendable, CaseIterable {
  /// Straight into the simulator's router, without a socket (HTTPKit's `InMemoryTransport`):
  /// the default.
  case inMemory = "memory"
  /// Over real HTTP on loopback sockets, as the app reaches a device.
  case sockets

  /// The name of the environment variable that chooses the route for a whole test run.
  public static let variable = "MSA_TEST_TRANSPORT"

  /// The route `MSA_TEST_TRANSPORT` names in `environment` (`memory` or `sockets`);
  /// ``inMemory`` when it is unset or empty.
  ///
  /// - Throws: ``UnknownDeviceRoute`` for any other value, so that a mistyped name fails
  ///   every test instead of silently running in memory.
  public static func configured(
    in environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> DeviceRoute {
    guard let value = environment[variable], !value.isEmpty else { return .inMemory }
    guard let route = DeviceRoute(rawValue: value) else { throw UnknownDeviceRoute(value: value) }
    return route
  }
}

/// `MSA_TEST_TRANSPORT` holds a value that names no ``DeviceRoute``.
public struct UnknownDeviceRoute: Error, CustomStringConvertible {
  /// The value found.
  public let value: String

  /// What is wrong and how to fix it.
  public var description: String {
    let names = DeviceRoute.allCases.map(\.rawValue).joined(separator: " or ")
    return
      "\(DeviceRoute.variable)=\(value) names no transport: set it to \(names), or unset it."
  }
}

/// The harness's transport unless a test gives its own: a request to a device of a fleet the
/// harness knows (``FeatureHarness/attach(_:)``) goes straight into the simulator without a
/// socket (HTTPKit's `InMemoryTransport`: the same router, faults, deadlines and size cap),
/// and a request to any other origin goes over the platform's standard transport (loopback
/// sockets on Linux). On the ``DeviceRoute/sockets`` route every request goes over sockets.
final class FleetRoutingTransport: HTTPTransport {
  /// The route to the fleets' devices.
  let route: DeviceRoute
  private let fleets = Locked<[InMemoryTransport]>([])
  private let sockets: any HTTPTransport = HTTPTransports.standard()

  init(route: DeviceRoute) {
    self.route = route
  }

  /// Sends requests to `fleet`'s devices in memory from now on (on the in-memory route).
  func attach(_ fleet: SimulatedFleet) {
    guard route == .inMemory else { return }
    let transport = fleet.inMemoryTransport()
    fleets.withLock { $0.append(transport) }
  }

  func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(HTTPTransportError)
    -> HTTPResponse
  {
    let fleet = fleets.withLock { fleets in fleets.first { $0.holds(request.url) } }
    if let fleet { return try await fleet.send(request, timeout: timeout) }
    return try await sockets.send(request, timeout: timeout)
  }
}
