import Essentials
import Foundation
import Testing

@testable import SimAdminClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Error mapping")
struct ErrorMappingTests {
  static func response(_ status: Int, _ type: String, _ body: String, location: String? = nil)
    -> HTTPResponse
  {
    var headers = ["Content-Type": type]
    if let location { headers["Location"] = location }
    return HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
  }

  struct Case: Sendable, CustomStringConvertible {
    let response: HTTPResponse
    let route: SimAdminRoute
    let expected: SimAdminError?
    var description: String { "\(response.status) \(route.endpoint)" }
  }

  static let json = "application/json"
  static let cases: [Case] = [
    Case(response: response(200, json, "{}"), route: .device, expected: nil),
    Case(
      response: response(200, "application/json; charset=utf-8", "{}"), route: .device,
      expected: nil),
    Case(
      response: response(200, "text/html", "<html></html>"), route: .device,
      expected: .malformedResponse("expected application/json, got text/html")),
    Case(
      response: response(401, json, #"{"status":"error","message":"请先登录"}"#), route: .device,
      expected: .loginRequired),
    Case(
      response: response(401, json, #"{"status":"error","message":"管理员密码不正确"}"#),
      route: .login(password: "x"), expected: .wrongPassword),
    Case(response: response(403, json, "{}"), route: .device, expected: .noPermission),
    Case(
      response: response(404, "text/plain", "API endpoint not found"), route: .hub,
      expected: .notSupported),
    Case(response: response(405, "", ""), route: .hubUnbind, expected: .notSupported),
    Case(
      response: response(400, json, #"{"status":"error","message":"密码尚未设置"}"#),
      route: .login(password: "x"), expected: .upstream(message: "密码尚未设置")),
    Case(response: response(400, "text/plain", "bad"), route: .device, expected: .httpStatus(400)),
    Case(response: response(500, "text/plain", "boom"), route: .device, expected: .httpStatus(500)),
    Case(
      response: response(500, json, #"{"status":"error","message":"db"}"#), route: .device,
      expected: .httpStatus(500)),
    Case(
      response: response(302, "text/plain", "", location: "http://127.0.0.1:4001/api/device"),
      route: .device, expected: .redirected(host: "127.0.0.1:4001")),
    Case(
      response: response(303, "text/plain", "", location: "/login"), route: .device,
      expected: .redirected(host: "/login")),
  ]

  @Test("HTTP status and content type map as PRODUCT §5 says", arguments: cases)
  func maps(_ mapping: Case) {
    #expect(SimAdminSession.error(for: mapping.response, route: mapping.route) == mapping.expected)
  }

  @Test(
    "every transport error is the device error of the same name",
    arguments: [
      (HTTPTransportError.timeout, SimAdminError.timeout),
      (.unreachable(.refused), .unreachable(.refused)),
      (.unreachable(.dns), .unreachable(.dns)),
      (.unreachable(.tls), .unreachable(.tls)),
      (.unreachable(.reset), .unreachable(.reset)),
      (.unreachable(.other("x")), .unreachable(.other("x"))),
      (.tooLarge(limit: 7), .tooLarge(limit: 7)),
      (.malformedResponse("d"), .malformedResponse("d")),
      (.invalidOrigin("o"), .invalidOrigin("o")),
      (.cancelled, .cancelled),
      (.localResource("l"), .localResource("l")),
    ])
  func transportErrors(_ error: HTTPTransportError, _ expected: SimAdminError) {
    #expect(SimAdminError(error) == expected)
    #expect(SimAdminError(error).isLocal == error.isLocal)
  }

  @Test("the session cookie is read from Set-Cookie; Max-Age=0 clears it")
  func cookieParsing() {
    let token = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde"
    #expect(
      SimAdminSession.sessionCookie(
        in: "simadmin_session=\(token); HttpOnly; SameSite=Lax; Path=/; Max-Age=604800") == token)
    #expect(
      SimAdminSession.sessionCookie(in: "simadmin_session=; HttpOnly; Path=/; Max-Age=0") == "")
    #expect(SimAdminSession.sessionCookie(in: "other=1; Path=/") == nil)
    #expect(SimAdminSession.sessionCookie(in: nil) == nil)
    #expect(
      SimAdminSession.sessionCookie(in: "a=b; Path=/, simadmin_session=xyz; Max-Age=60") == "xyz")
  }

  @Test("failures name the instance and endpoint in both languages")
  func failureMessages() {
    let failure = SimAdminFailure(
      instance: "CPE-3", endpoint: "GET /api/device", error: .unreachable(.refused))
    #expect(failure.localizedMessage(.english).hasPrefix("CPE-3: GET /api/device failed: "))
    #expect(failure.localizedMessage(.english).contains("refused"))
    #expect(failure.localizedMessage(.simplifiedChinese).contains("连接被拒绝"))
    #expect(failure.localizedMessage(.simplifiedChinese).hasPrefix("CPE-3：GET /api/device"))
    #expect(failure.reasonKey == "unreachable.refused")
    let shown: any LocalizedFailure = failure
    #expect(shown.localizedMessage(.english) == failure.description)
  }

  @Test("the device's own message is never translated")
  func upstreamMessageKept() {
    let error = SimAdminError.upstream(message: "未找到调制解调器")
    #expect(error.localizedMessage(.english).hasSuffix("未找到调制解调器"))
    #expect(error.localizedMessage(.simplifiedChinese).hasSuffix("未找到调制解调器"))
  }

  static let allErrors: [SimAdminError] = [
    .loginRequired, .wrongPassword, .noPermission, .notSupported, .timeout,
    .unreachable(.refused), .unreachable(.dns), .unreachable(.tls), .unreachable(.reset),
    .unreachable(.other("x")), .upstream(message: "m"), .redirected(host: "h"),
    .malformedResponse("d"), .tooLarge(limit: 1), .httpStatus(500), .invalidOrigin("o"),
    .cancelled,
  ]

  @Test("every error has a catalogue text in both languages", arguments: allErrors)
  func everyErrorHasText(_ error: SimAdminError) {
    let catalogue = SimAdminClientStrings.catalogue
    #expect(catalogue.entries[error.reasonKey] != nil)
    for language in AppLanguage.allCases {
      let text = error.localizedMessage(language)
      #expect(!text.contains("{"))
      #expect(text != error.reasonKey)
    }
  }

  @Test("running out of descriptors or memory is this computer's failure, not the device's")
  func localResources() {
    for code in [EMFILE, ENFILE, ENOMEM, ENOBUFS] {
      let error = SimAdminError(.localResource(String(cString: strerror(code))))
      #expect(error.isLocal)
      #expect(error.localizedMessage(.english).contains("This computer failed, not the device"))
    }
    #expect(!SimAdminError(.unreachable(.refused)).isLocal)
  }

  @Test("the catalogue has no problems")
  func catalogue() {
    #expect(SimAdminClientStrings.catalogue.problems().isEmpty)
  }
}

/// iOS refusing the app the local network is this phone's doing, told with where to allow it;
/// a network that is simply down is not taken for it.
@Suite("Local network permission")
struct LocalNetworkAccessTests {
  @Test func aProhibitedLocalNetworkIsItsOwnReason() {
    let path = "unsatisfied (Local network prohibited), interface: en0[802.11], ipv4, dns"
    #expect(LocalNetworkAccess.isDenial(code: -1009, pathDescription: path))
    #expect(
      !LocalNetworkAccess.isDenial(code: -1009, pathDescription: "unsatisfied (No network route)"))
    #expect(!LocalNetworkAccess.isDenial(code: -1009, pathDescription: nil))
    #expect(!LocalNetworkAccess.isDenial(code: -1004, pathDescription: path))
  }

  @Test func theTransportsDenialReachesTheDeviceClientAsItsOwnReason() {
    #expect(HTTPTransportError.localNetworkDenied.isLocal)
    #expect(SimAdminError(.localNetworkDenied) == .localNetworkDenied)
  }

  @Test func theReasonSaysWhereToAllowIt() {
    let error = SimAdminError.localNetworkDenied
    #expect(error.isLocal)
    #expect(error.failureCode == "localNetworkDenied")
    #expect(
      error.localizedMessage(.english).contains("Settings › Privacy & Security › Local Network"))
    #expect(error.localizedMessage(.simplifiedChinese).contains("设置 › 隐私与安全性 › 本地网络"))
  }
}
