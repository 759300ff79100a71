import Essentials
import EssentialsTesting
import Foundation
import Testing

@testable import SimAdminSimulator

/// The device behaviours of issue 29 as the simulator models them, each from SimAdmin's source
/// (SIMADMIN-API §2–§6): a send that outlives its client, clear and delete-by-number on the
/// whole table, the failed-login alert, the slow modem search and its 30 s failure cache,
/// data switched off, what unbind leaves, and the remaining shapes (1.1.9 without Hub routes,
/// the order before 1.1.4, Hub validation).
@Suite("Issue 29 device behaviours")
struct DeviceBehaviourTests {
  static let send = #"{"phone_number":"10086","content":"CXYE"}"#

  /// A raw `POST /api/sms/send` on its own connection.
  static func postSend(_ device: SimulatedDevice, body: String = send) throws
    -> TestHTTP.RawConnection
  {
    let connection = try TestHTTP.RawConnection(port: device.port, timeoutSeconds: 10)
    connection.send(
      "POST /api/sms/send HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Accept: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
    return connection
  }

  /// Reads one response on a thread of its own: a blocking read on the test's task would hold
  /// one of the few threads every test's tasks share (two on this machine) and delay the
  /// others' steps by seconds.
  static func answer(_ connection: TestHTTP.RawConnection) async throws -> TestResponse {
    // Handed to the reading thread and not touched here until it is done.
    nonisolated(unsafe) let handedOver = connection
    return try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try handedOver.readResponse() }) }.start()
    }
  }

  static func wait(until deadline: TimeInterval, _ done: () -> Bool) async throws {
    let end = Date().addingTimeInterval(deadline)
    while !done(), Date() < end { try await Task.sleep(nanoseconds: 50_000_000) }
  }

  // MARK: - Sending

  @Test func aSlowSendIsAnsweredAndStoredWhenTheModemIsDone() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "slow", smsCount: 0)])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    device.setSendSeconds(0.8)
    let started = Date()
    let connection = try Self.postSend(device)
    let answer = try await Self.answer(connection)
    #expect(Date().timeIntervalSince(started) >= 0.75)
    #expect(try answer.json()["message"] as? String == "SMS sent")
    #expect(device.messages().map(\.content) == ["CXYE"])
    #expect(device.transmitted().count == 1)
  }

  @Test func aClientThatGivesUpCancelsTheRowButNotTheSMS() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "slow", smsCount: 0)])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    device.setSendSeconds(3)
    let connection = try Self.postSend(device)
    try await Task.sleep(nanoseconds: 300_000_000)
    connection.hangUp()  // the client gives up while the modem is sending
    try await Self.wait(until: 6) { device.sendsInProgress == 0 }
    // hyper cancels the handler: ModemManager finishes the SMS, SimAdmin never stores it.
    #expect(device.transmitted().map(\.content) == ["CXYE"])
    #expect(device.messages().isEmpty)
  }

  @Test func aDetachedSendIsStoredAsSentLater() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "slow", smsCount: 0)])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    device.setSendSeconds(3)
    device.setSendCompletion(.detached)
    let connection = try Self.postSend(device)
    try await Task.sleep(nanoseconds: 300_000_000)
    connection.hangUp()
    #expect(device.messages().isEmpty, "not stored before the modem is done")
    try await Self.wait(until: 6) { device.sendsInProgress == 0 }
    #expect(device.messages().map(\.status) == ["sent"])
    #expect(device.transmitted().count == 1)
  }

  @Test func sendsWaitForTheModemLockAndOneGivenUpWhileWaitingNeverGoesOut() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "busy", smsCount: 0)])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    device.setSendSeconds(1.5)
    let started = Date()
    let first = try Self.postSend(device)
    let second = try Self.postSend(device, body: #"{"phone_number":"10010","content":"second"}"#)
    try await Task.sleep(nanoseconds: 200_000_000)
    second.hangUp()  // gives up while the first holds the modem
    let third = try Self.postSend(device, body: #"{"phone_number":"10000","content":"third"}"#)
    _ = try await Self.answer(first)
    _ = try await Self.answer(third)
    // The third waited for the first only: the given-up second freed its turn.
    let took = Date().timeIntervalSince(started)
    #expect(took >= 2.9 && took < 4.4, "\(took) s: the first's 1.5 s, then the third's")
    #expect(device.transmitted().map(\.content) == ["CXYE", "third"])
    #expect(Set(device.messages().map(\.content)) == ["CXYE", "third"])
  }

  @Test func aRefusedSendStoresNothing() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "refusing", smsCount: 0)])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    device.setSendFailure("org.freedesktop.ModemManager1.Error.Core.Failed: no network")
    let answer = try await Self.answer(Self.postSend(device))
    let json = try answer.json()
    #expect(json["status"] as? String == "error")
    #expect((json["message"] as? String)?.hasPrefix("Failed to send SMS: ") == true)
    #expect(device.messages().isEmpty)
    #expect(device.transmitted().isEmpty)
  }

  @Test func automationStoresAFailedSendAsAFailedRow() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "auto", smsCount: 0)])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "CXYE", status: "failed")
    let list = try await TestHTTP.request(device.origin, "GET", "/api/sms/list").data()
    let rows = try #require(list["messages"] as? [[String: Any]])
    #expect(rows.first?["status"] as? String == "failed")
    #expect(rows.first?["direction"] as? String == "outgoing")
  }

  // MARK: - Deleting

  @Test func clearAndDeleteByNumberActOnTheWholeTable() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "table", smsCount: 0)])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    for index in 0..<3 { device.receiveSMS(from: "10086", content: "old \(index)") }
    device.receiveSMS(from: "95588", content: "bank")
    // A message no client has listed yet goes with the rest.
    device.receiveSMS(from: "10086", content: "arrived just now")
    let byNumber = try await TestHTTP.request(
      device.origin, "DELETE", "/api/sms/conversation/10086"
    ).data()
    #expect(byNumber["deleted"] as? Int == 4)
    device.receiveSMS(from: "10010", content: "another")
    let cleared = try await TestHTTP.request(device.origin, "POST", "/api/sms/clear").data()
    #expect(cleared["deleted"] as? Int == 2)
    #expect(device.messages().isEmpty)
  }

  // MARK: - Logins

  @Test func failedLoginsAreCountedAndAlertTheOwnerFiveInFiveMinutes() async throws {
    let clock = TestClock()
    let fleet = try await SimulatedFleet.start(
      [DeviceProfile(name: "guarded", password: "right-one-1", smsCount: 0)], clock: clock.clock)
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    func login(_ password: String) async throws -> Int {
      try await TestHTTP.request(
        device.origin, "POST", "/api/auth/login", json: ["password": password]
      ).status
    }
    for _ in 0..<4 {
      #expect(try await login("wrong") == 401)
      clock.advance(by: 30)
    }
    #expect(device.securityAlerts().isEmpty)
    #expect(try await login("wrong") == 401)
    #expect(device.securityAlerts().count == 1, "the fifth failure within 5 minutes")
    // More failures inside the next 5 minutes do not alert again; after them they do.
    clock.advance(by: 60)
    #expect(try await login("wrong") == 401)
    #expect(device.securityAlerts().count == 1)
    clock.advance(by: 300)
    for _ in 0..<5 { _ = try await login("wrong") }
    #expect(device.securityAlerts().count == 2)
    #expect(try await login("right-one-1") == 200)
    let attempts = device.loginAttempts()
    #expect(attempts.count == 12)
    #expect(attempts.filter(\.accepted).count == 1)
  }

  // MARK: - Modem

  @Test func withoutAModemEverySearchIsSlowAndItsFailureIsRememberedThirtySeconds() async throws {
    let clock = TestClock()
    let fleet = try await SimulatedFleet.start(
      [DeviceProfile(name: "bare", hasModem: false, smsCount: 2, modemLookupSeconds: 0.8)],
      clock: clock.clock)
    defer { Task { await fleet.stop() } }
    let origin = fleet.devices[0].origin
    func timed(_ path: String, _ method: String = "GET") async throws -> (
      TimeInterval, [String: Any]
    ) {
      let start = Date()
      let json = try await TestHTTP.request(origin, method, path).json()
      return (Date().timeIntervalSince(start), json)
    }
    let (slow, first) = try await timed("/api/device")
    #expect(slow >= 0.75)
    #expect(first["status"] as? String == "error")
    #expect(
      (first["message"] as? String)?.hasPrefix(
        "Failed: org.freedesktop.DBus.Error.Failed: No ModemManager modem found") == true)
    // Within 30 s the failure is answered at once, by every modem route.
    for path in ["/api/sim", "/api/network", "/api/cells", "/api/data", "/api/device"] {
      let (quick, json) = try await timed(path)
      #expect(quick < 0.5, "\(path)")
      #expect(json["status"] as? String == "error", "\(path)")
    }
    // The SMS database keeps working.
    let (_, list) = try await timed("/api/sms/list")
    #expect(list["status"] as? String == "ok")
    #expect(((list["data"] as? [String: Any])?["messages"] as? [Any])?.count == 2)
    let (_, stats) = try await timed("/api/sms/stats")
    #expect(stats["status"] as? String == "ok")
    let sent = try await Self.answer(Self.postSend(fleet.devices[0])).json()
    #expect((sent["message"] as? String)?.hasPrefix("Failed to send SMS: ") == true)
    // 30 s later the device searches again, slowly.
    clock.advance(by: 31)
    let (again, _) = try await timed("/api/device")
    #expect(again >= 0.75)
  }

  @Test func dataSwitchedOffAirplaneModeAndTheShapesTheyGive() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "sms only", smsCount: 0), DeviceProfile(name: "bare", hasModem: false),
    ])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    device.setDataEnabled(false)
    #expect(
      try await TestHTTP.request(device.origin, "GET", "/api/data").data()["active"] as? Bool
        == false)
    // Switched off by the user, /api/data answers from memory even without a modem.
    fleet.devices[1].setDataEnabled(false)
    let bare = try await TestHTTP.request(fleet.devices[1].origin, "GET", "/api/data").json()
    #expect(bare["status"] as? String == "ok")
    device.setDataEnabled(true)
    device.setAirplaneMode(true)
    let info = try await TestHTTP.request(device.origin, "GET", "/api/device").data()
    #expect(info["powered"] as? Bool == true)
    #expect(info["online"] as? Bool == false)
    let network = try await TestHTTP.request(device.origin, "GET", "/api/network").data()
    #expect(network["mcc"] == nil && network["mnc"] == nil)
    #expect(network["registration_status"] as? String == "idle")
    #expect(
      try await TestHTTP.request(device.origin, "GET", "/api/data").data()["active"] as? Bool
        == false)
  }

  // MARK: - Hub

  @Test func unbindLeavesTheDeviceClaimableAndReleasingMakesItStandalone() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "bound", hub: .bound(url: "http://10.0.0.9:3001"), smsCount: 0),
      DeviceProfile(name: "released", hub: .bound(url: "http://10.0.0.9:3001"), smsCount: 0),
    ])
    defer { Task { await fleet.stop() } }
    let provision: [String: Any] = [
      "hub_url": "http://203.0.113.66:3001", "hub_instance_id": "stranger",
      "hub_version": "1.1.10", "enrollment_token": String(repeating: "x", count: 32),
    ]
    let bound = fleet.devices[0]
    #expect(!bound.isClaimable)
    let refused = try await TestHTTP.request(
      bound.origin, "POST", "/api/hub/provision", json: provision)
    #expect(refused.status == 409)
    #expect(try refused.json()["message"] as? String == "设备已经绑定 SimAdminHub")
    _ = try await TestHTTP.request(bound.origin, "POST", "/api/hub/unbind")
    #expect(bound.hubBinding == .waiting)
    #expect(bound.isClaimable)
    // Anyone on the LAN can now claim it, without a session.
    let claimed = try await TestHTTP.request(
      bound.origin, "POST", "/api/hub/provision", json: provision)
    #expect(claimed.status == 200)
    #expect(bound.hubBinding == .bound(url: "http://203.0.113.66:3001"))
    // Standalone (enabled false, the rest of the config kept) is never claimable.
    let released = fleet.devices[1]
    let saved = try await TestHTTP.request(
      released.origin, "POST", "/api/hub",
      json: [
        "enabled": false, "url": "http://10.0.0.9:3001", "local_fallback_timeout_seconds": 120,
        "local_fallback_enabled": true,
      ])
    #expect(try saved.json()["message"] as? String == "Hub settings saved")
    #expect(released.hubBinding == .standalone(leftoverURL: "http://10.0.0.9:3001"))
    #expect(!released.isClaimable)
    let standalone = try await TestHTTP.request(
      released.origin, "POST", "/api/hub/provision", json: provision)
    #expect(standalone.status == 400)
    #expect(try standalone.json()["message"] as? String == "设备当前处于独立运行模式")
  }

  @Test func hubSettingsAreAWholeConfigValidatedAsSimAdminDoes() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "hub", hub: .bound(url: "http://10.0.0.9:3001"), smsCount: 0),
      DeviceProfile(name: "early 1.1.9", version: "1.1.9", smsCount: 0),
    ])
    defer { Task { await fleet.stop() } }
    let origin = fleet.devices[0].origin
    for url in ["http://hub.example:3001/path", "http://user:pw@hub.example", "ftp://hub.example"] {
      let answer = try await TestHTTP.request(
        origin, "POST", "/api/hub", json: ["enabled": true, "url": url])
      #expect(answer.status == 400, "\(url)")
      #expect(try answer.json()["message"] as? String == HubHandlers.addressOnly, "\(url)")
    }
    #expect(fleet.devices[0].hubBinding == .bound(url: "http://10.0.0.9:3001"))
    // Every field has a default: an empty object is standalone with no URL.
    let empty = try await TestHTTP.request(origin, "POST", "/api/hub", json: [:])
    #expect(empty.status == 200)
    #expect(fleet.devices[0].hubBinding == .standalone(leftoverURL: ""))
    let short = try await TestHTTP.request(
      origin, "POST", "/api/hub/provision", json: ["hub_url": "http://10.0.0.1:3001"])
    #expect(short.status == 422)
    // The first builds labelled 1.1.9 have no Hub routes at all.
    var early = DeviceProfile(name: "x", version: "1.1.9")
    #expect(early.hasHubRoutes)
    early.hubRoutes = false
    #expect(!early.hasHubRoutes)
  }

  @Test func anEarly119BuildAnswersTheHubRoutesWithThePlainTextNotFound() async throws {
    var profile = DeviceProfile(name: "early 1.1.9", version: "1.1.9", smsCount: 0)
    profile.hubRoutes = false
    let fleet = try await SimulatedFleet.start([profile])
    defer { Task { await fleet.stop() } }
    let answer = try await TestHTTP.request(fleet.devices[0].origin, "GET", "/api/hub")
    #expect(answer.status == 404)
    #expect(answer.text == "API endpoint not found")
    let health = try await TestHTTP.request(fleet.devices[0].origin, "GET", "/api/health").json()
    #expect(health["version"] as? String == "1.1.9")
  }

  // MARK: - List order

  @Test func before114TiesInTimeAreNotOrderedByID() async throws {
    let moment = Date(timeIntervalSince1970: 1_767_225_600)
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "old", version: "1.1.3", smsCount: 0),
      DeviceProfile(name: "new", smsCount: 0),
    ])
    defer { Task { await fleet.stop() } }
    var order: [[String]] = []
    for device in fleet.devices {
      for text in ["a", "b", "c"] { device.receiveSMS(from: "10086", content: text, at: moment) }
      device.receiveSMS(from: "10086", content: "later", at: moment.addingTimeInterval(60))
      let list = try await TestHTTP.request(device.origin, "GET", "/api/sms/list").data()
      let rows = try #require(list["messages"] as? [[String: Any]])
      order.append(rows.compactMap { $0["content"] as? String })
    }
    #expect(order[0] == ["later", "a", "b", "c"])
    #expect(order[1] == ["later", "c", "b", "a"])
  }
}
