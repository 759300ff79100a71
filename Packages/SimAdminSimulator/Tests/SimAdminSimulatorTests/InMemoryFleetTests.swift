import Essentials
import EssentialsTesting
import Foundation
import HTTPKit
import Testing

@testable import SimAdminSimulator

/// A fleet reached through its in-memory transport answers as it does over loopback HTTP: the
/// same bytes from the same router, the same faults.
@Suite("Fleet in memory")
struct InMemoryFleetTests {
  static func get(_ device: SimulatedDevice, _ target: String) -> HTTPRequest {
    let url = URL(string: device.origin.absoluteString + target) ?? device.origin
    return HTTPRequest(
      method: .get, url: url, headers: ["Accept": "application/json"], body: nil,
      endpoint: "GET \(target)")
  }

  static func failure(_ transport: some HTTPTransport, _ request: HTTPRequest, timeout: Double)
    async -> HTTPTransportError?
  {
    do {
      _ = try await transport.send(request, timeout: timeout)
      return nil
    } catch {
      return error
    }
  }

  @Test("two identical devices answer byte for byte the same, one over a socket, one in memory")
  func sameAnswers() async throws {
    let profile = DeviceProfile(name: "twin", smsCount: 30)
    let fleet = try await SimulatedFleet.start([profile, profile], clock: TestClock().clock)
    defer { Task { await fleet.stop() } }
    let socket = SocketTransport()
    let memory = fleet.inMemoryTransport()
    for target in [
      "/api/health", "/api/auth/status", "/api/device", "/api/sim", "/api/network",
      "/api/sms/list?limit=7",
      "/api/nope", "/",
    ] {
      let overSocket = try await socket.send(Self.get(fleet.devices[0], target), timeout: 10)
      let inMemory = try await memory.send(Self.get(fleet.devices[1], target), timeout: 10)
      #expect(inMemory.status == overSocket.status, "\(target)")
      #expect(inMemory.body == overSocket.body, "\(target)")
      var headers = inMemory.headers
      headers["host"] = nil
      #expect(headers == overSocket.headers, "\(target)")
    }
    #expect(
      fleet.devices[1].requests().map(\.target) == fleet.devices[0].requests().map(\.target))
  }

  @Test("a device that is down refuses; back up, it answers again")
  func down() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "d", faults: [.init(.down)])])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    let memory = fleet.inMemoryTransport()
    #expect(
      await Self.failure(memory, Self.get(device, "/api/health"), timeout: 5)
        == .unreachable(.refused))
    device.setFaults([])
    #expect(try await memory.send(Self.get(device, "/api/health"), timeout: 5).status == 200)
  }

  @Test("hang, reset, oversized and latency reach the client as they would over a socket")
  func faults() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(
        name: "f",
        faults: [
          FaultRule(.hang, pathPrefix: "/api/device"), FaultRule(.reset, pathPrefix: "/api/sim"),
          FaultRule(.oversized(bytes: 100_000), pathPrefix: "/api/network"),
          FaultRule(.latency(milliseconds: 200), pathPrefix: "/api/health"),
        ])
    ])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    let memory = fleet.inMemoryTransport(maxResponseBytes: 64 * 1024)
    let started = ContinuousClock.now
    #expect(await Self.failure(memory, Self.get(device, "/api/device"), timeout: 0.3) == .timeout)
    #expect(ContinuousClock.now - started >= .milliseconds(300))
    #expect(
      await Self.failure(memory, Self.get(device, "/api/sim"), timeout: 5)
        == .unreachable(.reset))
    #expect(
      await Self.failure(memory, Self.get(device, "/api/network"), timeout: 5)
        == .tooLarge(limit: 64 * 1024))
    let before = ContinuousClock.now
    #expect(try await memory.send(Self.get(device, "/api/health"), timeout: 5).status == 200)
    #expect(ContinuousClock.now - before >= .milliseconds(200))
    #expect(device.requests().count == 4)
  }

  @Test("devices in flight count in-memory requests too")
  func inFlight() async throws {
    let slow = FaultRule(.latency(milliseconds: 200))
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "a", faults: [slow]), DeviceProfile(name: "b", faults: [slow]),
    ])
    defer { Task { await fleet.stop() } }
    let memory = fleet.inMemoryTransport()
    await fleet.resetPeakDevicesInFlight()
    async let first = memory.send(Self.get(fleet.devices[0], "/api/health"), timeout: 5)
    async let second = memory.send(Self.get(fleet.devices[1], "/api/health"), timeout: 5)
    _ = try await (first, second)
    #expect(await fleet.peakDevicesInFlight() == 2)
  }
}
