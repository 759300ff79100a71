import Foundation
import Testing

@testable import SimAdminClient

@Suite("SimAdminRoute")
struct RouteTests {
  static let origin = URL(string: "http://192.0.2.7:3000")!

  struct Expected: Sendable, CustomStringConvertible {
    let route: SimAdminRoute
    let method: String
    let template: String
    let target: String
    let body: String?
    var description: String { route.endpoint }
  }

  static let table: [Expected] = [
    .init(route: .health, method: "GET", template: "/api/health", target: "/api/health", body: nil),
    .init(
      route: .authStatus, method: "GET", template: "/api/auth/status",
      target: "/api/auth/status", body: nil),
    .init(
      route: .login(password: "pa ss+1"), method: "POST", template: "/api/auth/login",
      target: "/api/auth/login", body: #"{"password":"pa ss+1"}"#),
    .init(
      route: .logout, method: "POST", template: "/api/auth/logout", target: "/api/auth/logout",
      body: nil),
    .init(route: .device, method: "GET", template: "/api/device", target: "/api/device", body: nil),
    .init(route: .sim, method: "GET", template: "/api/sim", target: "/api/sim", body: nil),
    .init(
      route: .network, method: "GET", template: "/api/network", target: "/api/network", body: nil),
    .init(route: .cells, method: "GET", template: "/api/cells", target: "/api/cells", body: nil),
    .init(route: .stats, method: "GET", template: "/api/stats", target: "/api/stats", body: nil),
    .init(
      route: .cpu, method: "GET", template: "/api/stats/cpu", target: "/api/stats/cpu", body: nil),
    .init(
      route: .connectivity, method: "GET", template: "/api/connectivity",
      target: "/api/connectivity", body: nil),
    .init(route: .data, method: "GET", template: "/api/data", target: "/api/data", body: nil),
    .init(
      route: .roaming, method: "GET", template: "/api/roaming", target: "/api/roaming", body: nil),
    .init(
      route: .airplaneMode, method: "GET", template: "/api/airplane-mode",
      target: "/api/airplane-mode", body: nil),
    .init(route: .hub, method: "GET", template: "/api/hub", target: "/api/hub", body: nil),
    .init(
      route: .hubUnbind, method: "POST", template: "/api/hub/unbind", target: "/api/hub/unbind",
      body: nil),
    .init(
      route: .hubSave(
        enabled: false, url: "http://10.0.0.9:3001", localFallbackTimeoutSeconds: 120,
        localFallbackEnabled: true), method: "POST", template: "/api/hub", target: "/api/hub",
      body:
        #"{"enabled":false,"local_fallback_enabled":true,"local_fallback_timeout_seconds":120,"url":"http://10.0.0.9:3001"}"#
    ),
    .init(
      route: .smsList(), method: "GET", template: "/api/sms/list",
      target: "/api/sms/list?limit=50&offset=0", body: nil),
    .init(
      route: .smsList(limit: 1000, offset: 20, direction: .incoming), method: "GET",
      template: "/api/sms/list", target: "/api/sms/list?limit=1000&offset=20&direction=incoming",
      body: nil),
    .init(
      route: .smsConversation(phoneNumber: "+8613800138000", limit: 10), method: "GET",
      template: "/api/sms/conversation",
      target: "/api/sms/conversation?phone_number=%2B8613800138000&limit=10", body: nil),
    .init(
      route: .smsStats, method: "GET", template: "/api/sms/stats", target: "/api/sms/stats",
      body: nil),
    .init(
      route: .smsSend(phoneNumber: "10086", content: "CXLL 余额/查询"), method: "POST",
      template: "/api/sms/send", target: "/api/sms/send",
      body: #"{"content":"CXLL 余额/查询","phone_number":"10086"}"#),
    .init(
      route: .smsDeleteMessage(id: 42), method: "DELETE", template: "/api/sms/message/{id}",
      target: "/api/sms/message/42", body: nil),
    .init(
      route: .smsDeleteConversation(phoneNumber: "+86 138/00?#"), method: "DELETE",
      template: "/api/sms/conversation/{phone_number}",
      target: "/api/sms/conversation/%2B86%20138%2F00%3F%23", body: nil),
    .init(
      route: .smsBatchDelete(ids: [1, 2], phoneNumbers: ["+8610086"]), method: "POST",
      template: "/api/sms/batch-delete", target: "/api/sms/batch-delete",
      body: #"{"ids":[1,2],"phone_numbers":["+8610086"]}"#),
    .init(
      route: .smsClear, method: "POST", template: "/api/sms/clear", target: "/api/sms/clear",
      body: nil),
  ]

  @Test("every route builds its method, path, query and body", arguments: table)
  func builds(_ expected: Expected) throws {
    let request = try expected.route.request(origin: Self.origin)
    #expect(request.method.rawValue == expected.method)
    #expect(expected.route.pathTemplate == expected.template)
    #expect(request.endpoint == "\(expected.method) \(expected.template)")
    #expect(request.url.absoluteString == "http://192.0.2.7:3000" + expected.target)
    let body = request.body.map { String(decoding: $0, as: UTF8.self) }
    #expect(body == expected.body)
    #expect((request.headers["Content-Type"] != nil) == (expected.body != nil))
  }

  @Test("the table covers every route exactly once by template and method")
  func coversAllEndpoints() {
    let endpoints = Set(Self.table.map(\.route.endpoint))
    #expect(endpoints.count == 25)
  }

  @Test("a query encodes + as %2B and keeps only the unreserved set")
  func queryEncoding() {
    #expect(PercentEncoding.encode("+8613800138000") == "%2B8613800138000")
    #expect(PercentEncoding.encode("a b&c=d/é~._-") == "a%20b%26c%3Dd%2F%C3%A9~._-")
    let route = SimAdminRoute.smsConversation(phoneNumber: "中国移动&x=1")
    #expect(route.query == "phone_number=%E4%B8%AD%E5%9B%BD%E7%A7%BB%E5%8A%A8%26x%3D1&limit=50")
  }

  @Test("a phone number cannot escape its path segment")
  func pathSegment() throws {
    let request = try SimAdminRoute.smsDeleteConversation(phoneNumber: "../../auth/logout")
      .request(origin: Self.origin)
    #expect(
      request.url.path(percentEncoded: true) == "/api/sms/conversation/..%2F..%2Fauth%2Flogout")
  }

  @Test(
    "origins with more than scheme, host and port are refused",
    arguments: [
      "http://h:3000/api", "http://h:3000/?x=1", "http://h#f", "http://u:p@h:3000",
      "ftp://h", "file:///etc/passwd",
    ])
  func badOrigins(_ text: String) throws {
    let origin = try #require(URL(string: text))
    #expect(throws: SimAdminError.invalidOrigin(origin.absoluteString)) {
      try SimAdminRoute.health.request(origin: origin)
    }
  }

  @Test("origins with a trailing slash, https or IPv6 are accepted")
  func goodOrigins() throws {
    let slash = try SimAdminRoute.health.request(origin: URL(string: "http://h:3000/")!)
    #expect(slash.url.absoluteString == "http://h:3000/api/health")
    let https = try SimAdminRoute.device.request(origin: URL(string: "HTTPS://Dev.example")!)
    #expect(https.url.absoluteString.hasSuffix("/api/device"))
    #expect(https.url.scheme == "https")
    let v6 = try SimAdminRoute.health.request(origin: URL(string: "http://[::1]:3000")!)
    #expect(v6.url.absoluteString == "http://[::1]:3000/api/health")
  }

  @Test("descriptions never include the password or the SMS body")
  func descriptionsHideSecrets() {
    let routes: [SimAdminRoute] = [
      .login(password: "hunter2secret"),
      .smsSend(phoneNumber: "10086", content: "code 482913"),
    ]
    for route in routes {
      let text = "\(route) \(String(describing: route)) \(route.endpoint)"
      #expect(!text.contains("hunter2secret"))
      #expect(!text.contains("482913"))
    }
    #expect("\(SimAdminRoute.login(password: "x"))" == "POST /api/auth/login")
  }

  @Test("public routes are the four that never need a session")
  func publicRoutes() {
    let publicOnes = Self.table.map(\.route).filter(\.isPublic).map(\.pathTemplate)
    #expect(
      publicOnes == ["/api/health", "/api/auth/status", "/api/auth/login", "/api/auth/logout"])
    #expect(!SimAdminRoute.health.isEnveloped)
    #expect(SimAdminRoute.device.isEnveloped)
  }
}
