import Foundation
import SimAdminSimulator
import Testing

@testable import SimAdminClient

/// Holds the simulator to SIMADMIN-API.md: every route the client registers is requested over
/// HTTP and its answer checked against `RouteShapes.json`, the same data that says what each
/// route promises (``RouteShapes``). Any other path must be SimAdmin's plain-text 404.
@Suite("Simulator conformance with RouteShapes.json")
struct ConformanceTests {
  /// One sample of every route, reads first, writes after (they change the device).
  static let samples: [SimAdminRoute] = [
    .health, .authStatus, .device, .sim, .network, .cells, .stats, .cpu, .connectivity, .data,
    .roaming, .airplaneMode, .hub, .smsList(limit: 30, offset: 0),
    .smsList(limit: 5, offset: 2, direction: .incoming), .smsConversation(phoneNumber: "10086"),
    .smsStats, .smsSend(phoneNumber: "10086", content: "CXYE"), .smsDeleteMessage(id: 1),
    .smsDeleteConversation(phoneNumber: "+8613800138000"),
    .smsBatchDelete(ids: [2, 3], phoneNumbers: []),
    .hubSave(
      enabled: false, url: "http://10.0.0.9:3001", localFallbackTimeoutSeconds: 120,
      localFallbackEnabled: true),
    .hubUnbind, .smsClear,
    .login(password: "pw-123456"), .logout,
  ]

  static let shapes = RouteShapes.standard

  @Test func everyRegisteredRouteHasAShapeAndASample() {
    let registered = Set(RouteTests.table.map(\.route.endpoint))
    #expect(Set(Self.shapes.routes.keys) == registered)
    #expect(Set(Self.samples.map(\.endpoint)) == registered)
    // A promise names a required key of its route's shape.
    for route in Self.shapes.routes.values {
      guard case .object(let fields) = route.shape else {
        #expect(route.promises.isEmpty, "\(route.endpoint)")
        continue
      }
      for promise in route.promises {
        #expect(
          fields.contains { $0.key == promise && !$0.optional }, "\(route.endpoint): \(promise)")
      }
    }
  }

  func exchange(_ route: SimAdminRoute, _ device: SimulatedDevice, cookie: String? = nil)
    async throws -> HTTPResponse
  {
    var request = try route.request(origin: device.origin)
    request.headers["Accept"] = "application/json"
    if let cookie { request.headers["Cookie"] = cookie }
    return try await HTTPTransports.standard().send(request, timeout: 10)
  }

  func check(_ response: HTTPResponse, _ route: SimAdminRoute) throws -> [String] {
    let entry = try #require(Self.shapes.routes[route.endpoint])
    guard response.status == 200, response.isJSON else {
      return ["\(route.endpoint): HTTP \(response.status) \(response.contentType)"]
    }
    let root = try JSONReader().read(response.body)
    guard entry.enveloped else {
      return RouteShapes.violations(of: root, against: entry.shape, at: "body")
    }
    var problems: [String] = []
    if root["status"]?.stringValue != "ok" {
      problems.append("\(route.endpoint): status is not ok: \(root["message"] ?? .null)")
    }
    guard let data = root["data"] else { return problems + ["\(route.endpoint): no data"] }
    problems += RouteShapes.violations(of: data, against: entry.shape, at: "data")
    return problems
  }

  @Test(arguments: [
    DeviceProfile(name: "lte", smsCount: 40, seed: 3),
    DeviceProfile(name: "nr", smsCount: 12, seed: 11),
    DeviceProfile(name: "other", smsCount: 1, seed: 29),
  ])
  func everyRouteAnswersItsDocumentedShape(_ profile: DeviceProfile) async throws {
    var protected = profile
    protected.password = "pw-123456"
    let fleet = try await SimulatedFleet.start([profile, protected])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    device.receiveSMS(from: "10086", content: "余额 12.5 元")
    for route in Self.samples {
      switch route {
      case .login, .logout:
        // Only a device with a password lets anyone log in.
        let response = try await exchange(route, fleet.devices[1])
        let problems = try check(response, route)
        #expect(problems.isEmpty, "\(route.endpoint): \(problems)")
      default:
        let response = try await exchange(route, device)
        let problems = try check(response, route)
        #expect(problems.isEmpty, "\(route.endpoint): \(problems.prefix(5))")
      }
    }
  }

  @Test func errorAnswersHaveSimAdminsShapes() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "protected", password: "pw-123456", smsCount: 0),
      DeviceProfile(name: "no modem", hasModem: false, smsCount: 0),
      DeviceProfile(name: "no password", protectedWithoutPassword: true, smsCount: 0),
      DeviceProfile(name: "old", version: "1.1.8", smsCount: 0),
    ])
    defer { Task { await fleet.stop() } }
    func envelope(_ response: HTTPResponse) throws -> (String?, [String]) {
      let root = try JSONReader().read(response.body)
      return (
        root["message"]?.stringValue,
        RouteShapes.violations(of: root, against: Self.shapes.errorEnvelope, at: "body")
      )
    }
    // 401 without a session, with SimAdmin's own texts.
    let locked = try await exchange(.device, fleet.devices[0])
    #expect(locked.status == 401)
    #expect(try envelope(locked) == ("请先登录", []))
    let unset = try await exchange(.device, fleet.devices[2])
    #expect(unset.status == 401)
    #expect(try envelope(unset) == ("管理员密码尚未设置", []))
    // No modem: HTTP 200 with an error envelope.
    let noModem = try await exchange(.sim, fleet.devices[1])
    #expect(noModem.status == 200)
    #expect(try envelope(noModem).1.isEmpty)
    // Any other /api path, and the hub routes before 1.1.9: the plain-text 404.
    let unknown = try await TestRequest.raw(
      fleet.devices[1].origin, "GET", "/api/sms/conversations")
    #expect(unknown.status == 404)
    #expect(unknown.contentType.hasPrefix("text/plain"))
    #expect(String(decoding: unknown.body, as: UTF8.self) == Self.shapes.notFoundText)
    let oldHub = try await exchange(.hub, fleet.devices[3])
    #expect(oldHub.status == 404)
    #expect(String(decoding: oldHub.body, as: UTF8.self) == Self.shapes.notFoundText)
    // A known path with the wrong method: 405 with an empty body.
    let wrongMethod = try await TestRequest.raw(fleet.devices[1].origin, "DELETE", "/api/health")
    #expect(wrongMethod.status == 405)
    #expect(wrongMethod.body.isEmpty)
  }

  @Test func stageAnswersKeepTheirShapes() async throws {
    // Warm-up stats (no sample yet) and a standalone hub keep the documented shapes.
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(
        name: "warming", hub: .standalone(leftoverURL: "ws://10.0.0.2:3001"), smsCount: 0,
        statsWarmUpSeconds: 600)
    ])
    defer { Task { await fleet.stop() } }
    let stats = try await exchange(.stats, fleet.devices[0])
    #expect(try check(stats, .stats).isEmpty)
    #expect(
      try JSONReader().read(stats.body)["message"]?.stringValue == "No system stats sample yet")
    let hub = try await exchange(.hub, fleet.devices[0])
    #expect(try check(hub, .hub).isEmpty)
  }

  /// The drift issue 29 found between the simulator and SimAdmin's handlers, each pinned by
  /// the real shape: the SMS database without a modem, `/api/device` in airplane mode and
  /// without `revision`, `/api/network` without `mcc`/`mnc`, the closed sets of values, the
  /// Hub's validation and texts, a 1.1.9 build without Hub routes, the list before 1.1.4.
  @Test func issue29DriftIsPinnedByTheRealShapes() async throws {
    var plain = DeviceProfile(name: "no revision", smsCount: 3, seed: 5)
    plain.reportsRevision = false
    var early = DeviceProfile(name: "early 1.1.9", version: "1.1.9", smsCount: 0)
    early.hubRoutes = false
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "no modem", hasModem: false, smsCount: 4), plain,
      DeviceProfile(name: "esim", esimMode: true, smsCount: 0), early,
      DeviceProfile(name: "old order", version: "1.1.3", smsCount: 6),
      DeviceProfile(name: "bound", hub: .bound(url: "http://10.0.0.9:3001"), smsCount: 0),
    ])
    defer { Task { await fleet.stop() } }
    let bare = fleet.devices[0]
    // Without a modem every SMS database route keeps its ok shape; only sending fails.
    for route: SimAdminRoute in [
      .smsList(limit: 10, offset: 0), .smsConversation(phoneNumber: "10086"), .smsStats,
      .smsDeleteMessage(id: 1), .smsBatchDelete(ids: [2], phoneNumbers: []), .smsClear,
    ] {
      let problems = try check(try await exchange(route, bare), route)
      #expect(problems.isEmpty, "\(route.endpoint) without a modem: \(problems)")
    }
    let send = try await exchange(.smsSend(phoneNumber: "10086", content: "CXYE"), bare)
    let refused = try JSONReader().read(send.body)
    #expect(send.status == 200 && refused["status"]?.stringValue == "error")
    #expect(refused["message"]?.stringValue?.hasPrefix("Failed to send SMS: ") == true)
    #expect(
      RouteShapes.violations(of: refused, against: Self.shapes.errorEnvelope, at: "body").isEmpty)
    for route: SimAdminRoute in [.device, .sim, .network, .cells] {
      let answer = try JSONReader().read(try await exchange(route, bare).body)
      #expect(
        answer["message"]?.stringValue?.hasPrefix(
          "Failed: org.freedesktop.DBus.Error.Failed: No ModemManager modem found") == true,
        "\(route.endpoint)")
    }
    // No revision key when the modem reports none; airplane mode: powered, not online, and
    // the network without mcc/mnc (left out, not empty) — every answer still its shape.
    let device = fleet.devices[1]
    device.setAirplaneMode(true)
    for route: SimAdminRoute in [.device, .network, .sim, .airplaneMode, .data] {
      let problems = try check(try await exchange(route, device), route)
      #expect(problems.isEmpty, "\(route.endpoint) in airplane mode: \(problems)")
    }
    let info = try JSONReader().read(try await exchange(.device, device).body)["data"]
    #expect(info?["revision"] == nil)
    #expect(info?["powered"]?.boolValue == true && info?["online"]?.boolValue == false)
    let network = try JSONReader().read(try await exchange(.network, device).body)["data"]
    #expect(network?["mcc"] == nil && network?["mnc"] == nil)
    // The closed sets: an eSIM's status is one of SimAdmin's four words.
    #expect(try check(try await exchange(.sim, fleet.devices[2]), .sim).isEmpty)
    // A 1.1.9 build without Hub routes: the plain-text 404, however new its version says.
    let noHub = try await exchange(.hub, fleet.devices[3])
    #expect(noHub.status == 404)
    #expect(String(decoding: noHub.body, as: UTF8.self) == Self.shapes.notFoundText)
    // Before 1.1.4 the list keeps its shape (only the order of ties differs).
    #expect(
      try check(
        try await exchange(.smsList(limit: 50, offset: 0), fleet.devices[4]),
        .smsList(limit: 50, offset: 0)
      ).isEmpty)
    // The Hub's own validation and texts.
    let hub = fleet.devices[5]
    let badURL = try await TestRequest.raw(
      hub.origin, "POST", "/api/hub", json: #"{"enabled":true,"url":"http://hub.example/x"}"#)
    #expect(badURL.status == 400)
    #expect(
      try JSONReader().read(badURL.body)["message"]?.stringValue
        == "Hub 地址只能包含 http(s)、主机名和可选端口")
    let provision =
      #"{"hub_url":"http://203.0.113.6:3001","hub_instance_id":"h","hub_version":"1.1.10","enrollment_token":"0123456789abcdef0123456789abcdef"}"#
    let taken = try await TestRequest.raw(hub.origin, "POST", "/api/hub/provision", json: provision)
    #expect(taken.status == 409)
    #expect(try JSONReader().read(taken.body)["message"]?.stringValue == "设备已经绑定 SimAdminHub")
    let unbound = try await exchange(.hubUnbind, hub)
    #expect(try check(unbound, .hubUnbind).isEmpty)
    let claimed = try await TestRequest.raw(
      hub.origin, "POST", "/api/hub/provision", json: provision)
    #expect(claimed.status == 200, "after unbind anyone may claim it")
    let released = try await TestRequest.raw(
      hub.origin, "POST", "/api/hub",
      json:
        #"{"enabled":false,"url":"http://203.0.113.6:3001","local_fallback_timeout_seconds":120,"local_fallback_enabled":true}"#
    )
    #expect(released.status == 200)
    let standalone = try await TestRequest.raw(
      hub.origin, "POST", "/api/hub/provision", json: provision)
    #expect(standalone.status == 400)
    #expect(
      try JSONReader().read(standalone.body)["message"]?.stringValue == "设备当前处于独立运行模式")
  }

  @Test func theCheckerFindsWhatTheOldSimulatorGotWrong() throws {
    // dB numbers, a hex cell id, an rssi the API does not have, a missing type.
    let old = try JSONReader().read(
      Data(
        #"{"serving_cell":{"tech":"lte","cell_id":"0x1A2B","tac":"0x5A1"},"cells":[{"is_serving":true,"tech":"lte","cell_id":"0x1A2B","band":"3","arfcn":"1650","pci":"1","rsrp":"-95.5","rsrq":"-10","sinr":"12","rssi":"-70"}]}"#
          .utf8))
    let entry = try #require(Self.shapes.routes["GET /api/cells"])
    let problems = RouteShapes.violations(of: old, against: entry.shape, at: "data")
    #expect(
      Set(problems.map { String($0.prefix { $0 != ":" }) })
        == [
          "data.serving_cell.cell_id", "data.serving_cell.tac", "data.cells[0].cell_id",
          "data.cells[0].band", "data.cells[0].rsrp", "data.cells[0].rssi", "data.cells[0].type",
        ])
  }

  @Test func promisesTurnEmptyOKAnswersIntoProtocolErrors() throws {
    for route in Self.shapes.routes.values where !route.promises.isEmpty {
      let body = route.enveloped ? #"{"status":"ok","message":"Success","data":{}}"# : "{}"
      #expect(
        Self.shapes.missingPromise(in: Data(body.utf8), endpoint: route.endpoint)
          == (route.enveloped ? "data." : "") + route.promises[0], "\(route.endpoint)")
    }
    let missing = #"{"status":"ok","message":"Success","data":{"padding":"xxxx"}}"#
    #expect(
      throws: SimAdminError.missingField("data.messages"),
      performing: {
        try SimAdminSession.decodePayload(
          Data(missing.utf8), as: SmsMessageList.self, enveloped: true,
          endpoint: "GET /api/sms/list")
      })
    #expect(
      throws: SimAdminError.missingField("data.present"),
      performing: {
        try SimAdminSession.decodePayload(
          Data(missing.utf8), as: SimInfo.self, enveloped: true, endpoint: "GET /api/sim")
      })
    // A write keeps no promise: its ok stands (a resend could duplicate an SMS).
    let sent = try SimAdminSession.decodePayload(
      Data(#"{"status":"ok","message":"短信发送成功","data":{}}"#.utf8), as: SendResult.self,
      enveloped: true, endpoint: "POST /api/sms/send")
    #expect(sent.path.isEmpty)
  }
}

/// A raw request to a path no route names (for the 404 and 405 checks only).
enum TestRequest {
  static func raw(_ origin: URL, _ method: String, _ path: String, json: String? = nil)
    async throws -> HTTPResponse
  {
    let url = try #require(URL(string: origin.absoluteString + path))
    var headers = ["Accept": "application/json"]
    if json != nil { headers["Content-Type"] = "application/json" }
    let request = HTTPRequest(
      method: HTTPMethod(rawValue: method) ?? .get, url: url,
      headers: headers, body: json.map { Data($0.utf8) }, endpoint: "\(method) \(path)")
    return try await HTTPTransports.standard().send(request, timeout: 10)
  }
}
