import Essentials
import Foundation
import HTTPKit
import SimAdminClient
import SimAdminSimulator

/// The harness's transport unless a test gives its own: a request to a device of a fleet the
/// harness knows (``FeatureHarness/attach(_:)``) goes straight into the simulator without a
/// socket (HTTPKit's `InMemoryTransport`: the same router, faults, deadlines and size cap),
/// and a request to any other origin goes over the platform's standard transport (loopback
/// sockets on Linux).
final class FleetRoutingTransport: HTTPTransport {
  private let fleets = Locked<[InMemoryTransport]>([])
  private let sockets: any HTTPTransport = HTTPTransports.standard()

  /// Sends requests to `fleet`'s devices in memory from now on.
  func attach(_ fleet: SimulatedFleet) {
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
