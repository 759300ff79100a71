import Essentials
import EssentialsTesting
import Foundation
import Testing

@testable import SimAdminSimulator

@Suite("Authentication")
struct AuthTests {
  @Test func protectionOffNeedsNoCookie() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "open")])
    let origin = fleet.devices[0].origin
    let status = try await TestHTTP.request(origin, "GET", "/api/auth/status").data()
    #expect(status["configured"] as? Bool == false)
    #expect(status["authenticated"] as? Bool == true)
    let settings = try #require(status["settings"] as? [String: Any])
    #expect(settings["password_protection_enabled"] as? Bool == false)
    #expect(settings["session_ttl_seconds"] as? Int == 604_800)
    #expect(try await TestHTTP.request(origin, "GET", "/api/device").status == 200)
    let login = try await TestHTTP.request(
      origin, "POST", "/api/auth/login", json: ["password": "x"])
    #expect(login.status == 400)
    await fleet.stop()
  }

  @Test func protectedFlowWithCookie() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "locked", password: "pa55word")]
    )
    let device = fleet.devices[0]
    let origin = device.origin
    let denied = try await TestHTTP.request(origin, "GET", "/api/sms/list")
    #expect(denied.status == 401)
    #expect(try denied.json()["message"] as? String == "请先登录")
    #expect(try denied.json()["data"] == nil)
    let status = try await TestHTTP.request(origin, "GET", "/api/auth/status").data()
    #expect(status["configured"] as? Bool == true)
    #expect(status["authenticated"] as? Bool == false)

    let wrong = try await TestHTTP.request(
      origin, "POST", "/api/auth/login", json: ["password": "nope"])
    #expect(wrong.status == 401)
    #expect(try wrong.json()["message"] as? String == "管理员密码不正确")

    let login = try await TestHTTP.request(
      origin, "POST", "/api/auth/login", json: ["password": "pa55word"])
    #expect(login.status == 200)
    #expect(try login.json()["status"] as? String == "ok")
    let setCookie = try #require(login.headers["set-cookie"])
    let parts = setCookie.components(separatedBy: "; ")
    let token = try #require(parts.first?.split(separator: "=", maxSplits: 1).last.map(String.init))
    #expect(parts.first?.hasPrefix("simadmin_session=") == true)
    #expect(token.count == 43)
    #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    #expect(Array(parts.dropFirst()) == ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=604800"])

    let cookie = ["Cookie": "simadmin_session=\(token)"]
    let list = try await TestHTTP.request(origin, "GET", "/api/sms/list", headers: cookie)
    #expect(list.status == 200)
    let authed = try await TestHTTP.request(origin, "GET", "/api/auth/status", headers: cookie)
      .data()
    #expect(authed["authenticated"] as? Bool == true)

    // A second session coexists with the first.
    let second = try await TestHTTP.request(
      origin, "POST", "/api/auth/login", json: ["password": "pa55word"])
    #expect(second.status == 200)
    #expect(device.activeSessionCount == 2)

    let logout = try await TestHTTP.request(origin, "POST", "/api/auth/logout", headers: cookie)
    #expect(try logout.json()["status"] as? String == "ok")
    #expect(logout.headers["set-cookie"]?.contains("Max-Age=0") == true)
    #expect(device.activeSessionCount == 1)
    #expect(
      try await TestHTTP.request(origin, "GET", "/api/sms/list", headers: cookie).status == 401)
    // Logging out without a session is still ok.
    #expect(
      try await TestHTTP.request(origin, "POST", "/api/auth/logout").json()["status"] as? String
        == "ok")

    device.setPassword("changed99")
    #expect(device.activeSessionCount == 0)
    await fleet.stop()
  }

  @Test(arguments: [
    ["Accept": "text/html,application/xhtml+xml"], ["Accept": "*/*", "Sec-Fetch-Mode": "navigate"],
  ])
  func browserRequestsAreRedirectedToLogin(headers: [String: String]) async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "html", password: "pa55word")])
    let response = try await TestHTTP.request(
      fleet.devices[0].origin, "GET", "/api/device", headers: headers)
    #expect(response.status == 303)
    #expect(response.headers["location"] == "/login")
    await fleet.stop()
  }

  @Test func sessionsExpireAfterSevenDaysOnTheClock() async throws {
    let testClock = TestClock()
    let fleet = try await SimulatedFleet.start(
      [DeviceProfile(name: "ttl", password: "pa55word")], clock: testClock.clock)
    let origin = fleet.devices[0].origin
    let login = try await TestHTTP.request(
      origin, "POST", "/api/auth/login", json: ["password": "pa55word"])
    let token = try #require(
      login.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
    testClock.advance(by: 604_799)
    #expect(
      try await TestHTTP.request(origin, "GET", "/api/device", headers: ["Cookie": token]).status
        == 200)
    testClock.advance(by: 2)
    #expect(
      try await TestHTTP.request(origin, "GET", "/api/device", headers: ["Cookie": token]).status
        == 401)
    await fleet.stop()
  }
}
