import Essentials
import Foundation
import Testing

@testable import SimAdminSimulator

@Suite("HTTP server")
struct ServerTests {
  @Test func keepAliveServesTwoRequestsOnOneConnection() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "ka")])
    let raw = try TestHTTP.RawConnection(port: fleet.devices[0].port)
    raw.send("GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
    let first = try raw.readResponse()
    #expect(first.status == 200)
    #expect(first.headers["connection"] == "keep-alive")
    raw.send("GET /api/device HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let second = try raw.readResponse()
    #expect(try second.data()["imei"] is String)
    #expect(raw.readEOF())
    #expect(fleet.devices[0].requests().map(\.target) == ["/api/health", "/api/device"])
    await fleet.stop()
  }

  @Test func chunkedRequestBodyIsDecoded() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "chunk", password: "pa55word")])
    let raw = try TestHTTP.RawConnection(port: fleet.devices[0].port)
    let body = #"{"password":"pa55word"}"#
    let split = body.index(body.startIndex, offsetBy: 7)
    let first = String(body[..<split])
    let rest = String(body[split...])
    raw.send(
      "POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n"
        + String(first.utf8.count, radix: 16) + "\r\n" + first + "\r\n")
    try await Task.sleep(for: .milliseconds(50))
    raw.send(String(rest.utf8.count, radix: 16) + ";ext=1\r\n" + rest + "\r\n0\r\n\r\n")
    let response = try raw.readResponse()
    #expect(response.status == 200)
    #expect(response.headers["set-cookie"]?.hasPrefix("simadmin_session=") == true)
    let recorded = try #require(fleet.devices[0].requests().last)
    #expect(String(decoding: recorded.body, as: UTF8.self) == body)
    #expect(recorded.headers["transfer-encoding"] == "chunked")
    await fleet.stop()
  }

  @Test func jsonRoutesRejectOtherContentTypes() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "ct", password: "pa55word")])
    let raw = try TestHTTP.RawConnection(port: fleet.devices[0].port)
    let body = #"{"password":"pa55word"}"#
    raw.send(
      "POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    )
    #expect(try raw.readResponse().status == 415)
    await fleet.stop()
  }

  @Test func recordsRequestsAndClears() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "rec")])
    let device = fleet.devices[0]
    _ = try await TestHTTP.request(
      device.origin, "GET", "/api/sms/list?limit=3", headers: ["User-Agent": "MultiSimAdmin/0.1"])
    let request = try #require(device.requests().first)
    #expect(request.method == "GET" && request.target == "/api/sms/list?limit=3")
    #expect(request.headers["user-agent"] == "MultiSimAdmin/0.1")
    #expect(request.headers["accept"] == "application/json")
    device.clearRequests()
    #expect(device.requests().isEmpty)
    await fleet.stop()
  }

  @Test func basePortAssignsConsecutivePortsAndInvalidIsRefused() async throws {
    // Below Linux's ephemeral range (32768+), so fleets that other tests start on free ports
    // in parallel can never take these ports between the check and the start.
    let port = try #require(
      (0..<50).lazy.map { _ in Int.random(in: 20_000..<30_000) }
        .first { !TestHTTP.isListening($0) && !TestHTTP.isListening($0 + 1) })
    let fleet = try await SimulatedFleet.start(
      [DeviceProfile(name: "a"), DeviceProfile(name: "b")], basePort: port)
    #expect(fleet.devices.map(\.port) == [port, port + 1])
    #expect(fleet.devices[1].origin.absoluteString == "http://127.0.0.1:\(port + 1)")
    await #expect(throws: SimulatorError.listenFailed(port: port, call: "bind", errno: EADDRINUSE))
    {
      _ = try await SimulatedFleet.start([DeviceProfile(name: "c")], basePort: port)
    }
    await fleet.stop()
    await #expect(throws: SimulatorError.invalidPort(65_536)) {
      _ = try await SimulatedFleet.start(
        [DeviceProfile(name: "a"), DeviceProfile(name: "b")], basePort: 65_535)
    }
    #expect(SimulatorError.invalidPort(0).localizedMessage(.simplifiedChinese).contains("端口"))
  }

  @Test func aThousandDevicesAnswerHealthAndStopLeavesNothingListening() async throws {
    let profiles = (1...1000).map { DeviceProfile(name: "dev\($0)", smsCount: 3) }
    let fleet = try await SimulatedFleet.start(profiles)
    let origins = fleet.devices.map(\.origin)
    let session = TestHTTP.session(timeout: 30)
    let versions = try await withThrowingTaskGroup(of: String?.self) { group in
      var results: [String?] = []
      var next = 0
      for _ in 0..<50 {
        let origin = origins[next]
        next += 1
        group.addTask {
          try await TestHTTP.request(origin, "GET", "/api/health", session: session).json()[
            "version"] as? String
        }
      }
      while let result = try await group.next() {
        results.append(result)
        if next < origins.count {
          let origin = origins[next]
          next += 1
          group.addTask {
            try await TestHTTP.request(origin, "GET", "/api/health", session: session).json()[
              "version"] as? String
          }
        }
      }
      return results
    }
    #expect(versions.count == 1000)
    #expect(versions.allSatisfy { $0 == "1.1.10" })
    #expect(Set(fleet.devices.map(\.port)).count == 1000)
    await fleet.stop()
    #expect(fleet.devices.allSatisfy { !TestHTTP.isListening($0.port) })
    await fleet.stop()
  }
}
