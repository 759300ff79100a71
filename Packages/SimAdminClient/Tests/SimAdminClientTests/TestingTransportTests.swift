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
        wrapping: URLSessionTransport(), faults: ["GET /api/stats": .unreachable(.reset)])
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
