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
    .smsBatchDelete(ids: [2, 3], phoneNumbers: []), .hubUnbind, .smsClear,
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
  static func raw(_ origin: URL, _ method: String, _ path: String) async throws -> HTTPResponse {
    let url = try #require(URL(string: origin.absoluteString + path))
    let request = HTTPRequest(
      method: HTTPMethod(rawValue: method) ?? .get, url: url,
      headers: ["Accept": "application/json"], body: nil, endpoint: "\(method) \(path)")
    return try await HTTPTransports.standard().send(request, timeout: 10)
  }
}
