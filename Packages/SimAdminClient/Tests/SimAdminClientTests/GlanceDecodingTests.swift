import Foundation
import SimAdminSimulator
import Testing

@testable import SimAdminClient

/// A connection test reads only part of `/api/stats` and `/api/sim` (issue 19): the glances
/// must give exactly what the whole models give for those parts, and fail exactly when they
/// fail, whatever the device answers.
@Suite("Glances of stats and SIM")
struct GlanceDecodingTests {
  static let statsBodies: [String] = [
    #"{"status":"ok","message":"","data":{"network_speed":{"interfaces":[{"interface":"wwan0","rx_bytes_per_sec":1.5}],"interval_seconds":2},"memory":{"total_bytes":1000,"available_bytes":400,"used_bytes":600,"used_percent":60.0,"cached_bytes":100,"buffers_bytes":10},"disk":[],"cpu_load":{"load_1min":0.5},"uptime":{"uptime_seconds":3600.5,"idle_seconds":100,"uptime_formatted":"1:00"},"system_info":null,"temperature":[{"zone":"z0","type":"cpu","label":"CPU","temperature":47.5},{"zone":"z1","temperature":null},{"zone":"z2","temperature":"51.5 C"}]}}"#,
    #"{"status":"ok","message":"","data":{}}"#,
    #"{"status":"ok","message":"","data":{"memory":"lots","uptime":[1],"temperature":{"zone":"z"}}}"#,
    #"{"status":"ok","message":"","data":{"memory":{"used_percent":"12.5%"},"temperature":[1,{"temperature":60},null]}}"#,
    #"{"status":"ok","message":"","data":{"disk":"broken","cpu_load":7,"uptime":{"uptime_formatted":42}}}"#,
    #"{"status":"error","message":"采样中","data":null}"#,
    #"{"status":"ok","message":"","data":null}"#,
    #"{"status":"ok","message":"","data":[1,2]}"#,
    #"not json"#,
  ]

  static let simBodies: [String] = [
    #"{"status":"ok","message":"","data":{"present":true,"iccid":"8986","imsi":"4600","phone_numbers":["+8613800000000",""],"sms_center":"","mcc":"460","mnc":"00","operator_name":"CMCC","registered_operator_name":"China Mobile","lock_status":"none","pin1_retries":3}}"#,
    #"{"status":"ok","message":"","data":{"present":"yes","iccid":8986,"phone_numbers":[1,"2",null],"operator_name":null,"registered_operator_name":true}}"#,
    #"{"status":"ok","message":"","data":{"present":0,"phone_numbers":"none"}}"#,
    #"{"status":"ok","message":"","data":{}}"#,
    #"{"status":"error","message":"未检测到SIM卡","data":null}"#,
    #"{"status":"ok","message":"","data":"sim"}"#,
  ]

  typealias Outcome<T> = Result<T, SimAdminError>

  func decode<T: Decodable & Sendable>(_ body: String, _ endpoint: String, as: T.Type) -> Outcome<T>
  {
    Result { () throws(SimAdminError) in
      try SimAdminSession.decodePayload(
        Data(body.utf8), as: T.self, enveloped: true, endpoint: endpoint)
    }
  }

  /// Both decoded (then `same` compares the parts), or both failed with the same error.
  func expectSameParts<Whole, Part>(
    _ whole: Outcome<Whole>, _ glance: Outcome<Part>, _ same: (Whole, Part) -> Void
  ) {
    switch (whole, glance) {
    case (.success(let value), .success(let part)): same(value, part)
    case (.failure(let one), .failure(let other)): #expect(one == other)
    default: Issue.record("one decoded, the other did not: \(whole) / \(glance)")
    }
  }

  @Test(arguments: statsBodies)
  func statsGlanceIsTheStatsPart(_ body: String) {
    expectSameParts(
      decode(body, "GET /api/stats", as: SystemStats.self),
      decode(body, "GET /api/stats", as: SystemStats.Glance.self)
    ) { stats, part in
      #expect(part.memory == stats.memory)
      #expect(part.uptime == stats.uptime)
      #expect(part.temperatures == stats.temperatures)
      #expect(part.maxTemperature == stats.maxTemperature)
    }
  }

  @Test(arguments: simBodies)
  func simGlanceIsTheSIMPart(_ body: String) {
    expectSameParts(
      decode(body, "GET /api/sim", as: SimInfo.self),
      decode(body, "GET /api/sim", as: SimInfo.Glance.self)
    ) { sim, part in
      #expect(part.present == sim.present)
      #expect(part.iccid == sim.iccid)
      #expect(part.phoneNumbers == sim.phoneNumbers)
      #expect(part.operatorName == sim.operatorName)
      #expect(part.registeredOperatorName == sim.registeredOperatorName)
    }
  }

  @Test func theSimulatorsAnswersGiveTheSameParts() async throws {
    try await withFleet([DeviceProfile(name: "glance")]) { fleet in
      let session = makeSession(fleet.devices[0])
      let stats = try await session.stats()
      let statsGlance = try await session.statsGlance()
      // Memory and uptime move between two answers; the thermal zones do not.
      #expect((statsGlance.memory == nil) == (stats.memory == nil))
      #expect(statsGlance.temperatures == stats.temperatures)
      #expect(statsGlance.maxTemperature == stats.maxTemperature)
      let sim = try await session.sim()
      let simGlance = try await session.simGlance()
      #expect(simGlance.present == sim.present)
      #expect(simGlance.iccid == sim.iccid)
      #expect(simGlance.phoneNumbers == sim.phoneNumbers)
      #expect(simGlance.operatorName == sim.operatorName)
    }
  }
}
