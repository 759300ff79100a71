import Essentials
import Foundation
import SimAdminSimulator
import Testing

@testable import SimAdminClient

/// The connection test's six answers read with ``JSONCursor`` (`ProbeAnswerReading.swift`)
/// against the `JSONDecoder` path with its separate promise check: every body must give the
/// same value, byte for byte, or the same error (issue 19, fleet refresh).
@Suite("Probe answers: fast path against JSONDecoder")
struct ProbeAnswerDecodingTests {
  /// A value as exact text: `String(reflecting:)` keeps every string's scalars and every
  /// number's digits, so two values with canonically equal but different strings differ.
  static func exact(_ value: some Any) -> [UInt8] {
    Array(String(reflecting: value).utf8)
  }

  /// What decoding `body` as `T` gives: its exact text, or the error.
  enum Outcome: Equatable {
    case value([UInt8])
    case failure(SimAdminError)
  }

  static func outcome<T: Decodable & Sendable>(
    _ body: Data, as: T.Type, route: SimAdminRoute, fastPath: Bool
  ) -> Outcome {
    do {
      let value = try SimAdminSession.decodePayload(
        body, as: T.self, enveloped: route.isEnveloped, fastPath: fastPath,
        endpoint: route.endpoint)
      return .value(exact(value))
    } catch {
      return .failure(error)
    }
  }

  /// Decodes `body` both ways and expects the same outcome. Returns whether the fast path
  /// answered on its own (it steps aside for what it cannot vouch for); when it did, its
  /// value must also be `JSONDecoder`'s, read directly.
  @discardableResult
  static func compare<T: JSONCursorDecodable>(
    _ body: Data, as: T.Type, route: SimAdminRoute,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    let text = String(decoding: body.prefix(300), as: UTF8.self)
    let old = outcome(body, as: T.self, route: route, fastPath: false)
    let new = outcome(body, as: T.self, route: route, fastPath: true)
    #expect(old == new, "\(route.endpoint) \(text)", sourceLocation: sourceLocation)
    if route.isEnveloped {
      guard let fast = Envelope<T>(reading: body) else { return false }
      guard let slow = try? JSONDecoder().decode(Envelope<T>.self, from: body) else {
        Issue.record("the fast path read what JSONDecoder refuses: \(text)")
        return true
      }
      #expect(exact(fast.status) == exact(slow.status), sourceLocation: sourceLocation)
      #expect(exact(fast.message) == exact(slow.message), sourceLocation: sourceLocation)
      #expect(exact(fast.data) == exact(slow.data), "\(text)", sourceLocation: sourceLocation)
    } else {
      guard let fast = T.bare(reading: body) else { return false }
      guard let slow = try? JSONDecoder().decode(T.self, from: body) else {
        Issue.record("the fast path read what JSONDecoder refuses: \(text)")
        return true
      }
      #expect(exact(fast) == exact(slow), "\(text)", sourceLocation: sourceLocation)
    }
    return true
  }

  /// Compares `body` as the answer to every route of the six, whichever it is meant for.
  static func compareEverywhere(_ body: Data, sourceLocation: SourceLocation = #_sourceLocation) {
    compare(body, as: HealthInfo.self, route: .health, sourceLocation: sourceLocation)
    compare(body, as: DeviceInfo.self, route: .device, sourceLocation: sourceLocation)
    compare(body, as: SimInfo.Glance.self, route: .sim, sourceLocation: sourceLocation)
    compare(body, as: NetworkInfo.self, route: .network, sourceLocation: sourceLocation)
    compare(body, as: DataState.self, route: .data, sourceLocation: sourceLocation)
    compare(body, as: SystemStats.Glance.self, route: .stats, sourceLocation: sourceLocation)
  }

  static func ok(_ data: String) -> Data {
    Data((#"{"status":"ok","message":"Success","data":"# + data + "}").utf8)
  }

  // MARK: - Typical answers: the fast path answers them itself

  static let device =
    #"{"imei":"860000000000001","manufacturer":"Quectel","model":"EC25","revision":"EC25EFAR06A08M4G","online":true,"powered":true}"#
  static let sim =
    #"{"present":true,"iccid":"89860000000000000001","imsi":"460000000000001","phone_numbers":["+8613800000000"],"sms_center":"+8613800100500","mcc":"460","mnc":"00","phone_number_is_manual":false,"sms_center_is_manual":false,"sim_path":"/org/freedesktop/ModemManager1/SIM/0","modem_path":"/org/freedesktop/ModemManager1/Modem/0","sim_type":"physical","esim_status":"","active":true,"operator_name":"CMCC","registered_operator_name":"China Mobile","registered_operator_code":"46000","lock_status":"none","pin1_retries":3,"puk1_retries":10,"pin2_retries":null,"puk2_retries":null,"carrier_config":"","carrier_config_revision":""}"#
  static let network =
    #"{"operator_name":"China Mobile","registration_status":"registered","technology_preference":"5G/4G","signal_strength":72,"mcc":"460","mnc":"00"}"#
  static let stats =
    #"{"network_speed":{"interfaces":[{"interface":"wwan0","rx_bytes_per_sec":1024,"tx_bytes_per_sec":512,"total_rx_bytes":123456789,"total_tx_bytes":98765}],"interval_seconds":1.0},"memory":{"total_bytes":1000000,"available_bytes":400000,"used_bytes":600000,"used_percent":60.0,"cached_bytes":100000,"buffers_bytes":1000},"disk":[{"mount_point":"/","fs_type":"ext4","total_bytes":1,"used_bytes":1,"available_bytes":0,"used_percent":100.0}],"cpu_load":{"load_1min":0.25,"load_5min":0.5,"load_15min":0.75,"core_count":4,"load_percent":6.25},"uptime":{"uptime_seconds":86400.5,"idle_seconds":300000.25,"uptime_formatted":"1 day, 0:00"},"system_info":{"sysname":"Linux","nodename":"box","release":"6.1","version":"v1","machine":"aarch64","full_info":"Linux box"},"temperature":[{"zone":"thermal_zone0","type":"cpu-thermal","label":"CPU","temperature":47.5},{"zone":"thermal_zone1","type":"modem","label":"Modem","temperature":51}]}"#

  @Test("typical answers are read by the fast path, as JSONDecoder reads them")
  func typical() {
    #expect(
      Self.compare(
        Data(
          #"{"status":"ok","message":"Service is running","platform":"linux-modem","version":"1.1.10"}"#
            .utf8),
        as: HealthInfo.self, route: .health))
    #expect(Self.compare(Self.ok(Self.device), as: DeviceInfo.self, route: .device))
    #expect(Self.compare(Self.ok(Self.sim), as: SimInfo.Glance.self, route: .sim))
    #expect(Self.compare(Self.ok(Self.network), as: NetworkInfo.self, route: .network))
    #expect(Self.compare(Self.ok(#"{"active":true}"#), as: DataState.self, route: .data))
    #expect(Self.compare(Self.ok(Self.stats), as: SystemStats.Glance.self, route: .stats))
  }

  // MARK: - Odd, hostile and failing answers

  /// Values put in every field the six readers keep: text where numbers or flags belong,
  /// numbers where text belongs, nulls, containers, numbers at the edges of what `Int64` and
  /// `Double` hold, escapes, centi-dB-style signed text.
  static let oddValues: [String] = [
    #""""#, #""text""#, #""-9550""#, #""-95 dBm""#, #""12.5%""#, #"" 42""#, #""1e3""#,
    #""TRUE""#, #""Yes""#, #""1""#, #""0""#, #""no""#, "true", "false", "null", "0", "1", "-1",
    "2", "0.0", "-0.0", "1.0", "1.5", "-95", "1e3", "1E-2", "9007199254740993",
    "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1e19", "9e18",
    "8.9e18", "1e400", "-1e400", "1e-400", "5e-324", "12345678901234567890", "[]", "[1,\"a\"]",
    "{}", #"{"a":[null]}"#, #""\u00e9\u0301""#, #""e\u0301""#, #""\ud83d\ude00""#,
    #""\"\\\/\b\f\n\r\t""#, #""中文 😀""#, #""\u0000""#, #""\ud800""#,
  ]

  /// Every kept key of the six routes, with a body that has a typical value for each.
  static let fields: [(route: String, key: String)] = [
    ("health", "status"), ("health", "message"), ("health", "platform"), ("health", "version"),
    ("device", "imei"), ("device", "manufacturer"), ("device", "model"), ("device", "revision"),
    ("device", "online"), ("device", "powered"), ("sim", "present"), ("sim", "iccid"),
    ("sim", "phone_numbers"), ("sim", "operator_name"), ("sim", "registered_operator_name"),
    ("network", "operator_name"), ("network", "registration_status"),
    ("network", "technology_preference"), ("network", "signal_strength"), ("network", "mcc"),
    ("network", "mnc"), ("data", "active"), ("stats", "memory"), ("stats", "uptime"),
    ("stats", "temperature"), ("memory", "total_bytes"), ("memory", "used_percent"),
    ("memory", "buffers_bytes"), ("uptime", "uptime_seconds"), ("uptime", "uptime_formatted"),
    ("temperature", "zone"), ("temperature", "label"), ("temperature", "temperature"),
  ]

  /// A typical answer of `route` with `key` set to `value` (`nil`: left out).
  static func body(_ route: String, _ key: String, _ value: String?) -> (Data, String) {
    func object(_ pairs: [(String, String)]) -> String {
      "{" + pairs.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",") + "}"
    }
    func set(_ pairs: [(String, String)], _ key: String, _ value: String?) -> [(String, String)] {
      var result = pairs.filter { $0.0 != key }
      if let value { result.insert((key, value), at: min(1, result.count)) }
      return result
    }
    let memory: [(String, String)] = [
      ("total_bytes", "1000"), ("available_bytes", "400"), ("used_bytes", "600"),
      ("used_percent", "60.0"), ("cached_bytes", "100"), ("buffers_bytes", "10"),
    ]
    let uptime: [(String, String)] = [
      ("uptime_seconds", "3600.5"), ("idle_seconds", "100"), ("uptime_formatted", #""1:00""#),
    ]
    let zone: [(String, String)] = [
      ("zone", #""z0""#), ("type", #""cpu""#), ("label", #""CPU""#), ("temperature", "47.5"),
    ]
    switch route {
    case "health":
      let pairs: [(String, String)] = [
        ("status", #""ok""#), ("message", #""Service is running""#),
        ("platform", #""linux-modem""#), ("version", #""1.1.10""#),
      ]
      return (Data(object(set(pairs, key, value)).utf8), "health")
    case "device":
      let pairs: [(String, String)] = [
        ("imei", #""8600""#), ("manufacturer", #""Quectel""#), ("model", #""EC25""#),
        ("revision", #""R1""#), ("online", "true"), ("powered", "true"),
      ]
      return (ok(object(set(pairs, key, value))), "device")
    case "sim":
      let pairs: [(String, String)] = [
        ("present", "true"), ("iccid", #""8986""#), ("phone_numbers", #"["+86138"]"#),
        ("operator_name", #""CMCC""#), ("registered_operator_name", #""China Mobile""#),
        ("imsi", #""4600""#), ("pin1_retries", "3"),
      ]
      return (ok(object(set(pairs, key, value))), "sim")
    case "network":
      let pairs: [(String, String)] = [
        ("operator_name", #""CMCC""#), ("registration_status", #""registered""#),
        ("technology_preference", #""5G/4G""#), ("signal_strength", "72"), ("mcc", #""460""#),
        ("mnc", #""00""#),
      ]
      return (ok(object(set(pairs, key, value))), "network")
    case "data":
      return (ok(object(set([("active", "true")], key, value))), "data")
    case "stats", "memory", "uptime", "temperature":
      var sections: [(String, String)] = [
        ("network_speed", #"{"interfaces":[],"interval_seconds":1}"#),
        ("memory", object(route == "memory" ? set(memory, key, value) : memory)),
        ("disk", "[]"),
        ("uptime", object(route == "uptime" ? set(uptime, key, value) : uptime)),
        ("temperature", "[" + object(route == "temperature" ? set(zone, key, value) : zone) + "]"),
      ]
      if route == "stats" { sections = set(sections, key, value) }
      return (ok(object(sections)), "stats")
    default:
      return (Data(), route)
    }
  }

  static func compare(_ body: Data, route: String) -> Bool {
    switch route {
    case "health": compare(body, as: HealthInfo.self, route: .health)
    case "device": compare(body, as: DeviceInfo.self, route: .device)
    case "sim": compare(body, as: SimInfo.Glance.self, route: .sim)
    case "network": compare(body, as: NetworkInfo.self, route: .network)
    case "data": compare(body, as: DataState.self, route: .data)
    default: compare(body, as: SystemStats.Glance.self, route: .stats)
    }
  }

  @Test("every kept field with odd values, missing, or twice", arguments: 0..<fields.count)
  func oddField(_ index: Int) {
    let (route, key) = Self.fields[index]
    var answered = 0
    for value in Self.oddValues + [nil] {
      let (body, endpoint) = Self.body(route, key, value)
      if Self.compare(body, route: endpoint) { answered += 1 }
    }
    // The lenient rules are the fast path's own, not a reason to step aside: most odd
    // values are answered without JSONDecoder (all but `{}` break the stats' promise of a
    // memory object).
    if (route, key) != ("stats", "memory") {
      #expect(answered >= Self.oddValues.count / 2, "\(route).\(key): \(answered)")
    }
    // A kept key given twice: the fast path steps aside, the answer is still the same.
    let (body, endpoint) = Self.body(route, key, #""first""#)
    let text = String(decoding: body, as: UTF8.self)
    let twice = text.replacingOccurrences(
      of: #""\#(key)":"first""#, with: #""\#(key)":"first","\#(key)":true"#)
    #expect(!Self.compare(Data(twice.utf8), route: endpoint), "\(twice)")
  }

  /// Whole bodies that are not the answer: error envelopes (also with `200`), wrong shapes,
  /// broken promises, not JSON at all.
  static let oddBodies: [String] = [
    #"{"status":"error","message":"未找到调制解调器","data":null}"#,
    #"{"status":"error","message":"未找到调制解调器"}"#,
    #"{"status":"Error","message":5,"data":{}}"#,
    #"{"status":"error","message":"x","data":"oops"}"#,
    #"{"status":"ok","message":"","data":null}"#, #"{"status":"ok","message":""}"#,
    #"{"status":"ok","data":{}}"#, #"{"status":"ok","data":[]}"#, #"{"status":"ok","data":5}"#,
    #"{"status":"ok","data":"x"}"#, #"{"status":1,"data":{}}"#, #"{"status":null}"#, "{}",
    "[]", "null", "5", #""ok""#, "", " ", "not json", "<html>502 Bad Gateway</html>",
    "API endpoint not found", #"{"status":"ok"} x"#, #"{"status":"ok",}"#,
    "\u{FEFF}{\"status\":\"ok\"}", #"{"status":"ok","data":{"imei":"1""#,
    #"{"status":"ok","data":{"memory":{},"imei":"1","present":true,"registration_status":"r","active":false},"message":"all"}"#,
    #"{"status":"ok","message":"Service is running","platform":null,"version":1.1}"#,
    #"{"status":"ok","data":{"memory":{}},"data":null}"#,
    #"{"status":"ok","data":{"x":"# + String(repeating: "[", count: 70)
      + String(repeating: "]", count: 70) + "}}",
    #"{"status":"ok","data":{"x":"\ud800","imei":"1","present":1,"memory":{},"active":1}}"#,
  ]

  @Test("error envelopes, broken promises and bodies that are not JSON")
  func oddBodies() {
    for body in Self.oddBodies {
      Self.compareEverywhere(Data(body.utf8))
    }
  }

  @Test("a broken promise is missingField on both paths")
  func brokenPromises() {
    let cases: [(Data, String, String)] = [
      (Data(#"{"message":"up","version":"1"}"#.utf8), "health", "body"),
      (Data(#"{"status":null}"#.utf8), "health", "status"),
      (Self.ok(#"{"model":"EC25"}"#), "device", "data.imei"),
      (Self.ok(#"{"present":null}"#), "sim", "data.present"),
      (Self.ok(#"{"registration_status":null}"#), "network", "data.registration_status"),
      (Self.ok("{}"), "data", "data.active"),
      (Self.ok(#"{"memory":"lots"}"#), "stats", "data.memory"),
      (Self.ok("null"), "stats", "data"),
    ]
    for (body, route, missing) in cases {
      // The fast path steps aside, but for `data: null`, which it reads as the checked path
      // does (an ok answer without data).
      #expect(Self.compare(body, route: route) == (missing == "data"))
      let expected = missing == "body" ? "status" : missing
      let outcome: Outcome =
        switch route {
        case "health": Self.outcome(body, as: HealthInfo.self, route: .health, fastPath: true)
        case "device": Self.outcome(body, as: DeviceInfo.self, route: .device, fastPath: true)
        case "sim": Self.outcome(body, as: SimInfo.Glance.self, route: .sim, fastPath: true)
        case "network": Self.outcome(body, as: NetworkInfo.self, route: .network, fastPath: true)
        case "data": Self.outcome(body, as: DataState.self, route: .data, fastPath: true)
        default: Self.outcome(body, as: SystemStats.Glance.self, route: .stats, fastPath: true)
        }
      #expect(outcome == .failure(.missingField(expected)), "\(route): \(outcome)")
    }
  }

  @Test("an error envelope is upstream on the fast path, its data read or not")
  func errorEnvelope() {
    let body = Data(#"{"status":"error","message":"调制解调器忙","data":null}"#.utf8)
    #expect(Self.compare(body, as: DeviceInfo.self, route: .device))
    #expect(
      Self.outcome(body, as: DeviceInfo.self, route: .device, fastPath: true)
        == .failure(.upstream(message: "调制解调器忙")))
  }

  @Test("truncated and damaged answers never crash and still match")
  func damaged() {
    let bodies = [
      Self.ok(Self.device), Self.ok(Self.sim), Self.ok(Self.network), Self.ok(Self.stats),
    ]
    var generator = SystemRandomNumberGenerator()
    for whole in bodies {
      for cut in stride(from: 0, to: whole.count, by: 7) {
        Self.compareEverywhere(whole.prefix(cut))
      }
      for _ in 0..<40 {
        var damaged = whole
        let at = Int.random(in: 0..<damaged.count, using: &generator)
        damaged[at] = UInt8.random(in: 0...255, using: &generator)
        Self.compareEverywhere(damaged)
      }
    }
  }

  // MARK: - The simulator's answers

  /// Keeps every body the device answers.
  final class Recording: HTTPTransport {
    let inner = SocketTransport()
    let bodies = Locked<[(String, Data)]>([])

    func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(HTTPTransportError)
      -> HTTPResponse
    {
      let response = try await inner.send(request, timeout: timeout)
      bodies.withLock { $0.append((request.url.path, response.body)) }
      return response
    }
  }

  @Test("the simulator's answers read the same both ways, and by the fast path")
  func simulatorAnswers() async throws {
    let profiles = [
      DeviceProfile(name: "plain"), DeviceProfile(name: "no-modem", hasModem: false),
      DeviceProfile(name: "esim", esimMode: true),
    ]
    try await withFleet(profiles) { fleet in
      for device in fleet.devices {
        let recording = Recording()
        let session = makeSession(device, transport: recording)
        _ = try? await session.health()
        _ = try? await session.device()
        _ = try? await session.simGlance()
        _ = try? await session.network()
        _ = try? await session.dataState()
        _ = try? await session.statsGlance()
        let bodies = recording.bodies.current
        #expect(bodies.count == 6)
        for (path, body) in bodies {
          let fast: Bool =
            switch path {
            case "/api/health": Self.compare(body, as: HealthInfo.self, route: .health)
            case "/api/device": Self.compare(body, as: DeviceInfo.self, route: .device)
            case "/api/sim": Self.compare(body, as: SimInfo.Glance.self, route: .sim)
            case "/api/network": Self.compare(body, as: NetworkInfo.self, route: .network)
            case "/api/data": Self.compare(body, as: DataState.self, route: .data)
            default: Self.compare(body, as: SystemStats.Glance.self, route: .stats)
            }
          #expect(fast, "\(device.profile.name) \(path)")
        }
      }
    }
  }
}
