import Essentials
import Foundation
import SimAdminSimulator
import Testing

@testable import SimAdminClient

@Suite("Faults against the simulator")
struct FaultIntegrationTests {
  struct Case: Sendable, CustomStringConvertible {
    let fault: Fault
    let expected: SimAdminError
    var description: String { "\(fault)" }
  }

  static let cases: [Case] = [
    Case(fault: .reset, expected: .unreachable(.reset)),
    Case(fault: .serverError, expected: .httpStatus(500)),
    Case(fault: .down, expected: .unreachable(.refused)),
    Case(fault: .oversized(bytes: 1 << 20), expected: .tooLarge(limit: 64 * 1024)),
  ]

  // The bounds below separate "ended for the right reason" from "ended at a timeout" by a wide
  // margin (timeouts of 60 and 120 s against bounds of 30 s), so a loaded machine cannot fail them.
  @Test("each fault maps to its error, well within the timeout", arguments: cases)
  func maps(_ mapping: Case) async throws {
    try await withFleet([DeviceProfile(name: "f")]) { fleet in
      let device = fleet.devices[0]
      device.setFaults([FaultRule(mapping.fault)])
      let session = makeSession(
        device, timeout: 60, transport: SocketTransport(maxResponseBytes: 64 * 1024))
      let (error, seconds) = await timed { await failure { try await session.stats() } }
      #expect(error?.error == mapping.expected)
      #expect(error?.endpoint == "GET /api/stats")
      #expect(seconds < 30)
    }
  }

  @Test(
    "a body that is not SimAdmin JSON → malformedResponse",
    arguments: [Fault.malformedJSON, .wrongContentType])
  func malformed(_ fault: Fault) async throws {
    try await withFleet([DeviceProfile(name: "f")]) { fleet in
      let device = fleet.devices[0]
      device.setFaults([FaultRule(fault, pathPrefix: "/api/device")])
      let session = makeSession(device)
      let error = await failure { try await session.device() }
      guard case .malformedResponse = error?.error else {
        Issue.record("expected malformedResponse, got \(String(describing: error))")
        return
      }
      _ = try await session.sim()
    }
  }

  @Test(
    "a hang and a trickling body both end at the 1 s timeout, not before and not never",
    arguments: [Fault.hang, .slowBody(bytesPerSecond: 20)])
  func endsAtTimeout(_ fault: Fault) async throws {
    try await withFleet([DeviceProfile(name: "slow")]) { fleet in
      let device = fleet.devices[0]
      device.setFaults([FaultRule(fault, pathPrefix: "/api/stats")])
      let session = makeSession(device, timeout: 1)
      let (error, seconds) = await timed { await failure { try await session.stats() } }
      #expect(error?.error == .timeout)
      #expect(seconds >= 0.9)
      #expect(seconds < 30)
      _ = try await session.health()
    }
  }

  @Test("cancelling the caller's task ends a hanging request with .cancelled, not at the timeout")
  func cancellation() async throws {
    try await withFleet([DeviceProfile(name: "hang")]) { fleet in
      let device = fleet.devices[0]
      device.setFaults([FaultRule(.hang)])
      let session = makeSession(device, timeout: 120)
      let call = Task { await failure { try await session.device() } }
      for _ in 0..<250 where device.requests().isEmpty {
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(!device.requests().isEmpty)
      let (error, seconds) = await timed {
        call.cancel()
        return await call.value
      }
      #expect(error?.error == .cancelled)
      #expect(seconds < 30)
    }
  }

  @Test("latency below the timeout still succeeds")
  func latency() async throws {
    try await withFleet([DeviceProfile(name: "lag")]) { fleet in
      let device = fleet.devices[0]
      device.setFaults([FaultRule(.latency(milliseconds: 200, jitter: 50))])
      let session = makeSession(device, timeout: 5)
      let (info, seconds) = await timed { try? await session.device() }
      #expect(info != nil)
      #expect(seconds >= 0.15)
    }
  }

  @Test("a redirect to another device is not followed and no cookie reaches it")
  func redirectNotFollowed() async throws {
    let password = "Sim-Admin-42"
    let profiles = [
      DeviceProfile(name: "origin", password: password),
      DeviceProfile(name: "other", password: password),
    ]
    try await withFleet(profiles) { fleet in
      let (device, other) = (fleet.devices[0], fleet.devices[1])
      let session = makeSession(device, password: password)
      _ = try await session.device()
      let loggedIn = await session.hasSession
      #expect(loggedIn)
      other.clearRequests()
      device.setFaults([
        FaultRule(.redirect(to: other.origin.absoluteString), pathPrefix: "/api/sms")
      ])
      let error = await failure { try await session.smsList() }
      #expect(error?.error == .redirected(host: "127.0.0.1:\(other.port)"))
      #expect(other.requests().isEmpty)
      let stillLoggedIn = await session.hasSession
      #expect(stillLoggedIn)
    }
  }

  @Test("an oversized body stops at the cap while arriving, before the body ends")
  func oversizedStopsEarly() async throws {
    try await withFleet([DeviceProfile(name: "big")]) { fleet in
      let device = fleet.devices[0]
      device.setFaults([FaultRule(.oversized(bytes: 64 << 20), pathPrefix: "/api/stats")])
      let session = makeSession(
        device, timeout: 20, transport: SocketTransport(maxResponseBytes: 64 * 1024))
      let error = await failure { try await session.stats() }
      #expect(error?.error == .tooLarge(limit: 64 * 1024))
      device.setFaults([])
      _ = try await session.stats()
    }
  }

  @Test("a device coming back after `down` answers again")
  func downThenUp() async throws {
    try await withFleet([DeviceProfile(name: "flaky")]) { fleet in
      let device = fleet.devices[0]
      let session = makeSession(device)
      device.setFaults([FaultRule(.down)])
      let whileDown = await failure { try await session.health() }
      #expect(whileDown?.error == .unreachable(.refused))
      device.setFaults([])
      let versionAfter = try await session.health().version
      #expect(versionAfter == "1.1.10")
    }
  }

  @Test("200 concurrent requests across 50 devices all succeed (half of them protected)")
  func concurrentFleet() async throws {
    let profiles = (0..<50).map { index in
      DeviceProfile(
        name: "dev-\(index)", password: index.isMultiple(of: 2) ? "Pass-\(index)" : nil,
        smsCount: 10, seed: UInt64(index + 1))
    }
    try await withFleet(profiles) { fleet in
      let connector = SimAdminConnector(timeout: 20, userAgentVersion: "load") { id in
        guard let index = Int(id), index.isMultiple(of: 2) else { return nil }
        return "Pass-\(index)"
      }
      let successes = try await withThrowingTaskGroup(of: Bool.self) { group in
        for request in 0..<200 {
          let index = request % 50
          let device = fleet.devices[index]
          let session = connector.session(
            for: String(index), name: device.profile.name, origin: device.origin)
          group.addTask {
            switch request / 50 {
            case 0: return try await !session.device().model.isEmpty
            case 1: return try await session.smsList(limit: 5).count == 5
            case 2: return try await session.stats().memory != nil
            default: return try await session.sim().present
            }
          }
        }
        var count = 0
        for try await ok in group where ok { count += 1 }
        return count
      }
      #expect(successes == 200)
      for (index, device) in fleet.devices.enumerated() where index.isMultiple(of: 2) {
        #expect(device.requests().filter { $0.target == "/api/auth/login" }.count == 1)
      }
    }
  }
}

@Suite("Streaming size cap")
struct StreamingCapTests {
  @Test("a chunked body without length is abandoned at the cap, not at its (never) end")
  func chunkedBodyStopsAtCap() async throws {
    let server = try ChunkedStallServer(bytes: 1 << 20)
    let session = SimAdminSession(
      instanceName: "stall", origin: URL(string: "http://127.0.0.1:\(server.port)")!,
      transport: SocketTransport(maxResponseBytes: 64 * 1024), userAgentVersion: "t",
      timeout: 15)
    let error = await failure { try await session.stats() }
    #expect(error?.error == .tooLarge(limit: 64 * 1024))
    for _ in 0..<100 where !server.progress.finished {
      try await Task.sleep(for: .milliseconds(100))
    }
    #expect(server.progress.finished)
  }
}
