import Foundation
import SimAdminClientTesting
import SimAdminSimulator
import Testing

@testable import SimAdminClient

@Suite("SimAdminClientTesting transports")
struct TestingTransportTests {
  @Test("FailingTransport fails every route with its error, named by instance and endpoint")
  func failing() async {
    let session = SimAdminSession(
      instanceName: "ghost", origin: URL(string: "http://127.0.0.1:9")!,
      transport: FailingTransport(.timeout), userAgentVersion: "t")
    let error = await failure { try await session.smsList() }
    #expect(
      error == SimAdminFailure(instance: "ghost", endpoint: "GET /api/sms/list", error: .timeout))
  }

  @Test("FaultInjectingTransport fails only the chosen endpoint and passes the rest through")
  func injecting() async throws {
    try await withFleet([DeviceProfile(name: "wrapped")]) { fleet in
      let transport = FaultInjectingTransport(
        wrapping: SocketTransport(), faults: ["GET /api/stats": .unreachable(.reset)])
      let session = makeSession(fleet.devices[0], transport: transport)
      let error = await failure { try await session.stats() }
      #expect(error?.error == .unreachable(.reset))
      let device = try await session.device()
      #expect(!device.model.isEmpty)
      transport.setFault(nil, for: "GET /api/stats")
      _ = try await session.stats()
      #expect(transport.endpoints == ["GET /api/stats", "GET /api/device", "GET /api/stats"])
      #expect(fleet.devices[0].requests().map(\.target) == ["/api/device", "/api/stats"])
    }
  }
}

@Suite("SimAdminFixtures")
struct FixtureTests {
  @Test("every fixture decodes with the values it promises")
  func fixtures() throws {
    #expect(try SimAdminFixtures.health.version == "1.1.10")
    #expect(try !SimAdminFixtures.authOpen.isProtected)
    #expect(try SimAdminFixtures.device.model == "EC20F")
    #expect(try SimAdminFixtures.sim.phoneNumbers == ["+8613800138000"])
    #expect(try SimAdminFixtures.sim.puk1Retries == nil)
    #expect(try SimAdminFixtures.network.isRegistered)
    #expect(try SimAdminFixtures.stats.maxTemperature == 46.5)
    #expect(try SimAdminFixtures.messages.map(\.id) == [2, 1])
    #expect(try SimAdminFixtures.messages[0].date == Date(timeIntervalSince1970: 1_767_227_400))
    #expect(try !SimAdminFixtures.hubStandalone.isBound)
  }
}
