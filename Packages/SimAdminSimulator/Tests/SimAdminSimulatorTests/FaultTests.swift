import Essentials
import Foundation
import Testing

@testable import SimAdminSimulator

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Fault injection")
struct FaultTests {
  func fleet(_ faults: [FaultRule]) async throws -> SimulatedFleet {
    try await SimulatedFleet.start([DeviceProfile(name: "faulty", smsCount: 10, faults: faults)])
  }

  @Test func hangTimesOutAtTheClientTimeoutAndIsClosedOnStop() async throws {
    let fleet = try await fleet([FaultRule(.hang)])
    let device = fleet.devices[0]
    let started = ContinuousClock.now
    await #expect(throws: URLError.self) {
      _ = try await TestHTTP.request(
        device.origin, "GET", "/api/health", session: TestHTTP.session(timeout: 1))
    }
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(device.requests().map(\.target).contains("/api/health"))
    let raw = try TestHTTP.RawConnection(port: device.port, timeoutSeconds: 5)
    raw.send("GET /api/device HTTP/1.1\r\nHost: x\r\n\r\n")
    try await Task.sleep(for: .milliseconds(100))
    await fleet.stop()
    #expect(raw.readError() != EAGAIN)
    #expect(!TestHTTP.isListening(device.port))
  }

  @Test func resetClosesAbruptly() async throws {
    let fleet = try await fleet([FaultRule(.reset)])
    let raw = try TestHTTP.RawConnection(port: fleet.devices[0].port)
    raw.send("GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(raw.readError() == ECONNRESET)
    await fleet.stop()
  }

  @Test func serverErrorMalformedOversizedWrongType() async throws {
    let fleet = try await fleet([
      FaultRule(.serverError, pathPrefix: "/api/stats"),
      FaultRule(.malformedJSON, pathPrefix: "/api/device"),
      FaultRule(.oversized(bytes: 300_000), pathPrefix: "/api/sim"),
      FaultRule(.wrongContentType, pathPrefix: "/api/network"),
    ])
    let origin = fleet.devices[0].origin
    let health = try await TestHTTP.request(origin, "GET", "/api/health")
    #expect(health.status == 200)
    #expect(try health.json()["status"] as? String == "ok")
    #expect(try await TestHTTP.request(origin, "GET", "/api/stats").status == 500)
    #expect(try await TestHTTP.request(origin, "GET", "/api/stats/cpu").status == 500)
    let malformed = try await TestHTTP.request(origin, "GET", "/api/device")
    #expect(malformed.status == 200)
    #expect(malformed.headers["content-type"] == "application/json")
    #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: malformed.body) }
    let big = try await TestHTTP.request(origin, "GET", "/api/sim")
    #expect(big.body.count == 300_000)
    #expect(try big.json()["status"] as? String == "ok")
    let html = try await TestHTTP.request(origin, "GET", "/api/network")
    #expect(html.status == 200)
    #expect(html.headers["content-type"]?.hasPrefix("text/html") == true)
    #expect(html.text.hasPrefix("<html>"))
    await fleet.stop()
  }

  @Test func hostileTextRidesInTheDevicesOwnStrings() async throws {
    let fleet = try await fleet([FaultRule(.hostileText)])
    let device = fleet.devices[0]
    let origin = device.origin
    let payload = HostileText.payload
    let deviceInfo = try await TestHTTP.request(origin, "GET", "/api/device").json()
    let data = try #require(deviceInfo["data"] as? [String: Any])
    #expect((data["model"] as? String)?.contains(payload) == true)
    #expect((data["manufacturer"] as? String)?.contains(payload) == true)
    #expect((data["imei"] as? String)?.contains(payload) == false)
    let sim = try #require(
      try await TestHTTP.request(origin, "GET", "/api/sim").json()["data"] as? [String: Any])
    #expect((sim["operator_name"] as? String)?.contains(payload) == true)
    let network = try #require(
      try await TestHTTP.request(origin, "GET", "/api/network").json()["data"] as? [String: Any])
    #expect((network["operator_name"] as? String)?.contains(payload) == true)
    let list = try await TestHTTP.request(origin, "GET", "/api/sms/list?limit=3").json()
    let messages = try #require((list["data"] as? [String: Any])?["messages"] as? [[String: Any]])
    #expect(messages.count == 3)
    for message in messages {
      #expect((message["content"] as? String)?.contains(payload) == true)
      #expect((message["phone_number"] as? String)?.contains(payload) == true)
    }
    // The stored messages are unchanged: the fault is in the answers only.
    #expect(!device.messages().contains { $0.content.contains(payload) })
    device.setHasModem(false)
    let error = try await TestHTTP.request(origin, "GET", "/api/device").json()
    #expect(error["message"] as? String == HostileText.wrap("Failed: " + DeviceRouter.noModem))
    // Limited to a path prefix like any fault.
    device.setHasModem(true)
    device.setFaults([FaultRule(.hostileText, pathPrefix: "/api/sms")])
    let clean = try await TestHTTP.request(origin, "GET", "/api/device").json()
    #expect(((clean["data"] as? [String: Any])?["model"] as? String)?.contains(payload) == false)
    await fleet.stop()
  }

  @Test func absurdNumbersReplaceEveryNumberOutsideStrings() async throws {
    let fleet = try await fleet([FaultRule(.absurdNumbers(text: "1e308"), pathPrefix: "/api/stats")]
    )
    let origin = fleet.devices[0].origin
    let stats = try await TestHTTP.request(origin, "GET", "/api/stats")
    let data = try #require(try stats.json()["data"] as? [String: Any])
    let uptime = try #require(data["uptime"] as? [String: Any])
    #expect(uptime["uptime_seconds"] as? Double == 1e308)
    let zones = try #require(data["temperature"] as? [[String: Any]])
    #expect(!zones.isEmpty)
    #expect(zones.allSatisfy { $0["temperature"] as? Double == 1e308 })
    // Strings keep their digits ("thermal_zone0", the kernel release).
    #expect(zones.first?["zone"] as? String == "thermal_zone0")
    // Other paths answer as usual, and any token can stand for the numbers.
    let network = try await TestHTTP.request(origin, "GET", "/api/network").json()
    #expect((network["data"] as? [String: Any])?["signal_strength"] as? Double != 1e308)
    fleet.devices[0].setFaults([FaultRule(.absurdNumbers(text: "-9223372036854775809"))])
    let negative = try await TestHTTP.request(origin, "GET", "/api/network").text
    #expect(negative.contains(#""signal_strength":-9223372036854775809"#))
    #expect(
      ResponsePlan.numbersReplaced(
        in: Array(#"{"a":-1.5e+3,"b":"x\"1","c":[2,true]}"#.utf8), by: Array("N".utf8))
        == Array(#"{"a":N,"b":"x\"1","c":[N,true]}"#.utf8))
    await fleet.stop()
  }

  @Test func redirectPointsToAnotherOrigin() async throws {
    let fleet = try await fleet([FaultRule(.redirect(to: "http://127.0.0.1:9"))])
    let response = try await TestHTTP.request(
      fleet.devices[0].origin, "GET", "/api/sms/list?limit=5")
    #expect(response.status == 302)
    #expect(response.headers["location"] == "http://127.0.0.1:9/api/sms/list?limit=5")
    await fleet.stop()
  }

  @Test func latencyDelaysAndSlowBodyTrickles() async throws {
    let fleet = try await fleet([
      FaultRule(.latency(milliseconds: 300), pathPrefix: "/api/health"),
      FaultRule(.slowBody(bytesPerSecond: 4000), pathPrefix: "/api/sms"),
    ])
    let origin = fleet.devices[0].origin
    var started = ContinuousClock.now
    #expect(try await TestHTTP.request(origin, "GET", "/api/health").status == 200)
    #expect(ContinuousClock.now - started >= .milliseconds(290))
    let expected = try await TestHTTP.request(origin, "GET", "/api/device").body.count
    #expect(expected > 0)
    started = ContinuousClock.now
    let slow = try await TestHTTP.request(origin, "GET", "/api/sms/list?limit=10")
    let elapsed = ContinuousClock.now - started
    #expect((try slow.data()["messages"] as? [Any])?.count == 10)
    let seconds = Double(slow.body.count) / 4000
    #expect(elapsed >= .milliseconds(Int(seconds * 1000 * 0.7)))
    await fleet.stop()
  }

  @Test func downClosesThePortAndComesBack() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "up"), DeviceProfile(name: "down", faults: [FaultRule(.down)]),
    ])
    let down = fleet.devices[1]
    #expect(!TestHTTP.isListening(down.port))
    #expect(TestHTTP.isListening(fleet.devices[0].port))
    down.setFaults([])
    #expect(try await TestHTTP.request(down.origin, "GET", "/api/health").status == 200)
    let kept = try TestHTTP.RawConnection(port: down.port)
    // One exchange first, so the server has accepted the connection before the device goes
    // down (a connection still in the listen backlog is reset, not closed).
    kept.send("GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try kept.readResponse().status == 200)
    down.setFaults([FaultRule(.down)])
    #expect(!TestHTTP.isListening(down.port))
    #expect(kept.readEOF())
    down.setFaults([FaultRule(.latency(milliseconds: 1))])
    #expect(try await TestHTTP.request(down.origin, "GET", "/api/health").status == 200)
    await fleet.stop()
  }
}
