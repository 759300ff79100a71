import Essentials
import EssentialsTesting
import Foundation
import Testing

@testable import SimAdminSimulator

@Suite("Routes and shapes")
struct RouteTests {
  @Test func catalogueIsComplete() {
    #expect(SimAdminSimulatorStrings.catalogue.problems().isEmpty)
  }

  @Test func healthIsUnwrappedAndReportsVersion() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "a"), DeviceProfile(name: "b", version: "1.1.8"),
    ])
    let health = try await TestHTTP.request(fleet.devices[0].origin, "GET", "/api/health").json()
    #expect(health["status"] as? String == "ok")
    #expect(health["message"] as? String == "Service is running")
    #expect(health["platform"] as? String == "linux-modem")
    #expect(health["version"] as? String == "1.1.10")
    #expect(health["data"] == nil)
    let old = try await TestHTTP.request(fleet.devices[1].origin, "GET", "/api/health").json()
    #expect(old["version"] as? String == "1.1.8")
    await fleet.stop()
  }

  @Test func readOnlyRoutesHaveSimAdminShapes() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "shapes", seed: 7)])
    let origin = fleet.devices[0].origin
    let device = try await TestHTTP.request(origin, "GET", "/api/device").data()
    let imei = try #require(device["imei"] as? String)
    #expect(imei.count == 15 && imei.allSatisfy(\.isNumber))
    #expect(luhnValid(imei))
    #expect(device["manufacturer"] is String && device["model"] is String)
    #expect(device["online"] as? Bool == true && device["powered"] as? Bool == true)

    let sim = try await TestHTTP.request(origin, "GET", "/api/sim").data()
    let iccid = try #require(sim["iccid"] as? String)
    #expect(iccid.hasPrefix("8986") && (19...20).contains(iccid.count))
    let imsi = try #require(sim["imsi"] as? String)
    #expect(["46000", "46001", "46011"].contains(String(imsi.prefix(5))) && imsi.count == 15)
    #expect(sim["phone_numbers"] is [Any])
    #expect(sim["pin2_retries"] is NSNull)
    #expect(sim["pin1_retries"] as? Int == 3)
    #expect(["中国移动", "中国联通", "中国电信"].contains(sim["operator_name"] as? String ?? ""))

    let network = try await TestHTTP.request(origin, "GET", "/api/network").data()
    #expect(network["registration_status"] as? String == "registered")
    let signal = try #require(network["signal_strength"] as? Int)
    #expect((0...100).contains(signal))

    let cells = try await TestHTTP.request(origin, "GET", "/api/cells").data()
    let serving = try #require(cells["serving_cell"] as? [String: Any])
    #expect(serving["tech"] is String && serving["tac"] is Int && serving["cell_id"] is Int)
    let list = try #require(cells["cells"] as? [[String: Any]])
    #expect(list.count >= 3)
    #expect(list.first?["is_serving"] as? Bool == true)
    // Centi-dB text: "-8930" is −89.30 dBm.
    let rsrp = try #require(list.first?["rsrp"] as? String)
    #expect(Int(rsrp).map { (-14_000 ... -4_400).contains($0) } == true)
    #expect(list.allSatisfy { $0["rssi"] == nil && $0["type"] is String && $0["cell_id"] is Int })

    let stats = try await TestHTTP.request(origin, "GET", "/api/stats").data()
    for key in ["network_speed", "memory", "cpu_load", "uptime", "system_info"] {
      #expect(stats[key] is [String: Any], "missing \(key)")
    }
    #expect((stats["disk"] as? [Any])?.isEmpty == false)
    #expect((stats["temperature"] as? [[String: Any]])?.first?["temperature"] is Double)
    #expect((stats["system_info"] as? [String: Any])?["nodename"] as? String == "shapes")

    let cpu = try await TestHTTP.request(origin, "GET", "/api/stats/cpu").data()
    #expect((cpu["cores"] as? [Any])?.count == cpu["core_count"] as? Int)

    let connectivity = try await TestHTTP.request(origin, "GET", "/api/connectivity").data()
    #expect((connectivity["ipv4"] as? [String: Any])?["target"] as? String == "223.5.5.5")
    #expect((connectivity["ipv6"] as? [String: Any])?["target"] as? String == "2400:3200::1")

    #expect(
      try await TestHTTP.request(origin, "GET", "/api/data").data()["active"] as? Bool == true)
    let roaming = try await TestHTTP.request(origin, "GET", "/api/roaming").data()
    #expect(roaming["roaming_allowed"] is Bool && roaming["is_roaming"] is Bool)
    let airplane = try await TestHTTP.request(origin, "GET", "/api/airplane-mode").data()
    #expect(airplane["enabled"] as? Bool == false)
    let hub = try await TestHTTP.request(origin, "GET", "/api/hub").data()
    #expect(hub["config"] is [String: Any] && hub["runtime"] is [String: Any])
    await fleet.stop()
  }

  @Test func seededDataIsDeterministic() async throws {
    let first = try await SimulatedFleet.start([DeviceProfile(name: "same", seed: 42)])
    let second = try await SimulatedFleet.start([DeviceProfile(name: "same", seed: 42)])
    let a = try await TestHTTP.request(first.devices[0].origin, "GET", "/api/device").text
    let b = try await TestHTTP.request(second.devices[0].origin, "GET", "/api/device").text
    #expect(a == b)
    #expect(
      first.devices[0].messages().map(\.content) == second.devices[0].messages().map(\.content))
    await first.stop()
    await second.stop()
  }

  @Test func unknownApiPathIsPlainText404AndOtherPathsAreTheSPA() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "n", password: "secret12")])
    let origin = fleet.devices[0].origin
    let missing = try await TestHTTP.request(origin, "GET", "/api/nope")
    #expect(missing.status == 404)
    #expect(missing.text == "API endpoint not found")
    #expect(missing.headers["content-type"]?.hasPrefix("text/plain") == true)
    for path in ["/login", "/health", "/"] {
      let page = try await TestHTTP.request(origin, "GET", path)
      #expect(page.status == 200)
      #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
    }
    await fleet.stop()
  }

  @Test func wrongMethodIs405EmptyAfterTheAuthCheck() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "m")])
    let device = fleet.devices[0]
    let wrong = try await TestHTTP.request(device.origin, "POST", "/api/device")
    #expect(wrong.status == 405)
    #expect(wrong.body.isEmpty)
    device.setPassword("secret12")
    let locked = try await TestHTTP.request(device.origin, "POST", "/api/device")
    #expect(locked.status == 401)
    await fleet.stop()
  }

  @Test func noModemAnswers200WithErrorEnvelope() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "x", hasModem: false)])
    let origin = fleet.devices[0].origin
    for path in ["/api/device", "/api/sim", "/api/network", "/api/cells"] {
      let response = try await TestHTTP.request(origin, "GET", path)
      #expect(response.status == 200)
      let json = try response.json()
      #expect(json["status"] as? String == "error", "\(path)")
      #expect(json["message"] as? String == "Failed: " + DeviceRouter.noModem)
      #expect(json["data"] == nil)
    }
    // The SMS database routes read only the device's database: they keep working.
    #expect(
      try await TestHTTP.request(origin, "GET", "/api/sms/list").json()["status"] as? String
        == "ok")
    #expect(
      try await TestHTTP.request(origin, "GET", "/api/stats").json()["status"] as? String == "ok")
    fleet.devices[0].setHasModem(true)
    #expect(
      try await TestHTTP.request(origin, "GET", "/api/device").json()["status"] as? String == "ok")
    await fleet.stop()
  }

  @Test func version118HasNoHubRoutes() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "old", version: "1.1.8")])
    let device = fleet.devices[0]
    for (method, path) in [("GET", "/api/hub"), ("POST", "/api/hub/unbind")] {
      let response = try await TestHTTP.request(device.origin, method, path)
      #expect(response.status == 404)
      #expect(response.text == "API endpoint not found")
    }
    device.setVersion("1.1.10")
    let unbind = try await TestHTTP.request(device.origin, "POST", "/api/hub/unbind")
    let json = try unbind.json()
    #expect(json["message"] as? String == "已解除 Hub 绑定")
    let data = try #require(json["data"] as? [String: Any])
    #expect((data["config"] as? [String: Any])?["url"] as? String == "")
    #expect((data["config"] as? [String: Any])?["enabled"] as? Bool == true)
    #expect((data["runtime"] as? [String: Any])?["agent_id"] is NSNull)
    await fleet.stop()
  }
}

@Suite("Hub binding, protection and slow paths")
struct DeviceStageTests {
  func hub(_ device: SimulatedDevice) async throws -> [String: Any] {
    try await TestHTTP.request(device.origin, "GET", "/api/hub").data()
  }

  @Test func hubStatesAndWhatUnbindDoesToEach() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "standalone", hub: .standalone(), smsCount: 0),
      DeviceProfile(
        name: "leftover", hub: .standalone(leftoverURL: "ws://10.0.0.2:3001"), smsCount: 0),
      DeviceProfile(name: "waiting", hub: .waiting, smsCount: 0),
      DeviceProfile(name: "bound", hub: .bound(url: "ws://10.0.0.9:3001"), smsCount: 0),
    ])
    let states = try await fleet.devices.asyncMap { device in
      let data = try await hub(device)
      let config = try #require(data["config"] as? [String: Any])
      let runtime = try #require(data["runtime"] as? [String: Any])
      return (
        config["enabled"] as? Bool, config["url"] as? String,
        runtime["connection_state"] as? String, runtime["agent_id"] is String
      )
    }
    #expect(states[0] == (false, "", "disabled", false))
    #expect(states[1] == (false, "ws://10.0.0.2:3001", "disabled", false))
    #expect(states[2] == (true, "", "waiting_for_hub", false))
    #expect(states[3] == (true, "ws://10.0.0.9:3001", "connected", true))
    // Unbind keeps (or turns on) centrally managed mode: a standalone device is changed.
    for device in fleet.devices {
      _ = try await TestHTTP.request(device.origin, "POST", "/api/hub/unbind")
      let config = try #require(try await hub(device)["config"] as? [String: Any])
      #expect(config["enabled"] as? Bool == true)
      #expect(config["url"] as? String == "")
    }
    // Provision: 409 once bound, 400 when standalone.
    let provision: [String: Any] = [
      "hub_url": "http://10.0.0.9:3001", "hub_instance_id": "h", "hub_version": "1.1.10",
      "enrollment_token": "0123456789abcdef0123456789abcdef",
    ]
    let first = try await TestHTTP.request(
      fleet.devices[2].origin, "POST", "/api/hub/provision", json: provision)
    #expect(first.status == 200)
    let again = try await TestHTTP.request(
      fleet.devices[2].origin, "POST", "/api/hub/provision", json: provision)
    #expect(again.status == 409)
    fleet.devices[0].setHub(.standalone())
    let refused = try await TestHTTP.request(
      fleet.devices[0].origin, "POST", "/api/hub/provision", json: provision)
    #expect(refused.status == 400)
    await fleet.stop()
  }

  @Test func protectionWithoutAPassword() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "unset", protectedWithoutPassword: true, smsCount: 0)
    ])
    let origin = fleet.devices[0].origin
    let status = try await TestHTTP.request(origin, "GET", "/api/auth/status").data()
    #expect(status["configured"] as? Bool == false)
    #expect(status["authenticated"] as? Bool == false)
    let settings = try #require(status["settings"] as? [String: Any])
    #expect(settings["password_protection_enabled"] as? Bool == true)
    let device = try await TestHTTP.request(origin, "GET", "/api/device")
    #expect(device.status == 401)
    #expect(try device.json()["message"] as? String == "管理员密码尚未设置")
    let login = try await TestHTTP.request(
      origin, "POST", "/api/auth/login", json: ["password": "anything"])
    #expect(login.status == 400)
    #expect(try login.json()["message"] as? String == "管理员密码尚未设置")
    await fleet.stop()
  }

  @Test func aSlowFirstModemLookupAndStatsWarmUp() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(
        name: "slow", smsCount: 0, modemLookupSeconds: 1.5, statsWarmUpSeconds: 600)
    ])
    let origin = fleet.devices[0].origin
    let start = Date()
    _ = try await TestHTTP.request(origin, "GET", "/api/device")
    #expect(Date().timeIntervalSince(start) >= 1.4)
    // The lookup is done: the next one does not wait again.
    let again = Date()
    _ = try await TestHTTP.request(origin, "GET", "/api/sim")
    #expect(Date().timeIntervalSince(again) < 1.4)
    let stats = try await TestHTTP.request(origin, "GET", "/api/stats").json()
    #expect(stats["message"] as? String == "No system stats sample yet")
    #expect(
      ((stats["data"] as? [String: Any])?["memory"] as? [String: Any])?["total_bytes"] as? Int == 0)
    await fleet.stop()
  }
}

extension Array where Element: Sendable {
  func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
    var result: [T] = []
    for element in self { result.append(try await transform(element)) }
    return result
  }
}

func luhnValid(_ digits: String) -> Bool {
  var sum = 0
  for (offset, character) in digits.reversed().enumerated() {
    var value = character.wholeNumberValue ?? 0
    if offset % 2 == 1 {
      value *= 2
      if value > 9 { value -= 9 }
    }
    sum += value
  }
  return sum % 10 == 0
}
