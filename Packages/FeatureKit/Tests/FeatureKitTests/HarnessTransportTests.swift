import Foundation
import SimAdminClient
import Testing

@testable import FeatureKitTesting
@testable import SimAdminSimulator

/// The harness reaches its fleets' devices without a socket and everything else over one.
@Suite struct HarnessTransportTests {
  /// Sends `GET /api/health` to `device` through the harness's connector transport and
  /// returns how long it took.
  static func health(_ harness: FeatureHarness, _ device: SimulatedDevice) async throws
    -> Duration
  {
    let request = try SimAdminRoute.health.request(origin: device.origin)
    let started = ContinuousClock.now
    let response = try await harness.connector.transport.send(request, timeout: 10)
    #expect(response.status == 200)
    return ContinuousClock.now - started
  }

  @Test("an attached fleet is reached in memory, another over its sockets")
  func routing() async throws {
    let attached = try await SimulatedFleet.start([DeviceProfile(name: "in-memory")])
    let other = try await SimulatedFleet.start([DeviceProfile(name: "over-sockets")])
    let harness = try FeatureHarness(TestedFeature(module("harness")), route: .inMemory)
    harness.attach(attached)
    // Both fleets' socket threads are busy for a while: only a request that needs no socket
    // is answered meanwhile.
    for fleet in [attached, other] {
      fleet.server.loop.execute { Thread.sleep(forTimeInterval: 1.5) }
    }
    try await Task.sleep(for: .milliseconds(100))
    async let direct = Self.health(harness, attached.devices[0])
    async let socket = Self.health(harness, other.devices[0])
    let (inMemory, overSocket) = try await (direct, socket)
    #expect(inMemory < .milliseconds(1_000))
    #expect(overSocket >= .milliseconds(1_000))
    #expect(attached.devices[0].requests().map(\.target) == ["/api/health"])
    #expect(other.devices[0].requests().map(\.target) == ["/api/health"])
    await attached.stop()
    await other.stop()
  }

  @Test("a harness with devices reaches them in memory; a transport of the test's own is kept")
  func devicesAndOwnTransport() async throws {
    let harness = try await FeatureHarness(
      TestedFeature(module("harness")), devices: [DeviceProfile(name: "a")], route: .inMemory)
    try await harness.use { harness in
      #expect(harness.connector.transport is FleetRoutingTransport)
      _ = try await Self.health(harness, harness.devices[0])
      #expect(harness.devices[0].requests().count == 1)
    }
    let sockets = try await FeatureHarness(
      TestedFeature(module("harness")), devices: [DeviceProfile(name: "b")],
      transport: HTTPTransports.standard())
    try await sockets.use { harness in
      #expect(!(harness.connector.transport is FleetRoutingTransport))
      _ = try await Self.health(harness, harness.devices[0])
    }
  }

  @Test("on the sockets route an attached fleet is reached over its sockets")
  func socketsRoute() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "over-sockets")])
    let harness = try FeatureHarness(TestedFeature(module("harness")), route: .sockets)
    harness.attach(fleet)
    fleet.server.loop.execute { Thread.sleep(forTimeInterval: 1.5) }
    try await Task.sleep(for: .milliseconds(100))
    let took = try await Self.health(harness, fleet.devices[0])
    #expect(took >= .milliseconds(1_000))
    #expect(fleet.devices[0].requests().map(\.target) == ["/api/health"])
    await fleet.stop()
  }

  @Test("MSA_TEST_TRANSPORT chooses the route; a name it does not know fails loudly")
  func configuredRoute() throws {
    #expect(try DeviceRoute.configured(in: [:]) == .inMemory)
    #expect(try DeviceRoute.configured(in: ["MSA_TEST_TRANSPORT": ""]) == .inMemory)
    #expect(try DeviceRoute.configured(in: ["MSA_TEST_TRANSPORT": "memory"]) == .inMemory)
    #expect(try DeviceRoute.configured(in: ["MSA_TEST_TRANSPORT": "sockets"]) == .sockets)
    let error = #expect(throws: UnknownDeviceRoute.self) {
      try DeviceRoute.configured(in: ["MSA_TEST_TRANSPORT": "socket"])
    }
    #expect(
      error?.description
        == "MSA_TEST_TRANSPORT=socket names no transport: set it to memory or sockets, or unset it."
    )
  }
}
