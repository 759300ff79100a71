import Foundation
import Testing

@testable import SimAdminClient

/// Decodes `data` fixtures shaped as SIMADMIN-API §3 shows them.
@Suite("Model decoding")
struct ModelDecodingTests {
  func decode<T: Decodable & Sendable>(_ json: String, as: T.Type = T.self) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(json.utf8))
  }

  @Test("health is unwrapped")
  func health() throws {
    let info: HealthInfo = try decode(
      #"{"status":"ok","message":"Service is running","platform":"linux-modem","version":"1.1.10","extra":1}"#
    )
    #expect(info.version == "1.1.10")
    #expect(info.platform == "linux-modem")
  }

  @Test("the envelope keeps the device's message and tolerates a missing data")
  func envelope() throws {
    let error: Envelope<DeviceInfo> = try decode(#"{"status":"error","message":"未找到调制解调器"}"#)
    #expect(!error.isOK)
    #expect(error.message == "未找到调制解调器")
    #expect(error.data == nil)
    let login: Envelope<EmptyPayload> = try decode(
      #"{"status":"ok","message":"Logged in","data":null}"#)
    #expect(login.isOK)
  }

  @Test("auth status with settings, and without")
  func authStatus() throws {
    let full: AuthStatus = try decode(
      #"{"configured":true,"authenticated":false,"settings":{"password_protection_enabled":true,"password_min_length":8,"password_require_letters":true,"password_require_digits":true,"password_require_symbols":false,"session_ttl_seconds":604800,"idle_timeout_seconds":3600}}"#
    )
    #expect(full.configured && !full.authenticated)
    #expect(full.settings?.passwordProtectionEnabled == true)
    #expect(full.settings?.sessionTTLSeconds == 604_800)
    #expect(full.isProtected)
    let bare: AuthStatus = try decode(#"{"configured":false,"authenticated":true}"#)
    #expect(bare.settings == nil)
    #expect(!bare.isProtected)
  }

  @Test("device with an empty IMEI and no revision; null revision too")
  func device() throws {
    let missing: DeviceInfo = try decode(
      #"{"imei":"","manufacturer":"Quectel","model":"EC20F","online":true,"powered":true}"#)
    #expect(missing.imei == "")
    #expect(missing.revision == nil)
    #expect(missing.online)
    let null: DeviceInfo = try decode(
      #"{"imei":"860000000000001","manufacturer":"Quectel","model":"RM500Q","revision":null,"online":false,"powered":true}"#
    )
    #expect(null.revision == nil)
    #expect(!null.online)
    #expect(null.imei == "860000000000001")
  }

  @Test("sim with null and missing retries, empty numbers")
  func sim() throws {
    let sim: SimInfo = try decode(
      #"{"present":true,"iccid":"","imsi":"460001234567890","phone_numbers":[],"sms_center":"+8613800100500","mcc":"460","mnc":"00","phone_number_is_manual":false,"sms_center_is_manual":false,"sim_path":"/org/freedesktop/ModemManager1/SIM/0","modem_path":"/org/freedesktop/ModemManager1/Modem/0","sim_type":"physical","esim_status":"","active":true,"operator_name":"CMCC","registered_operator_name":"中国移动","registered_operator_code":"46000","lock_status":"none","pin1_retries":3,"puk1_retries":null,"carrier_config":"","carrier_config_revision":""}"#
    )
    #expect(sim.iccid == "")
    #expect(sim.phoneNumbers.isEmpty)
    #expect(sim.pin1Retries == 3)
    #expect(sim.puk1Retries == nil)
    #expect(sim.pin2Retries == nil)
    #expect(sim.registeredOperatorName == "中国移动")
  }

  @Test("network with and without mcc")
  func network() throws {
    let net: NetworkInfo = try decode(
      #"{"operator_name":"CMCC","registration_status":"registered","technology_preference":"4G/5G","signal_strength":78}"#
    )
    #expect(net.signalStrength == 78)
    #expect(net.mcc == nil)
    #expect(net.isRegistered)
    let searching: NetworkInfo = try decode(
      #"{"operator_name":"","registration_status":"searching","signal_strength":0,"mcc":"460","mnc":null}"#
    )
    #expect(!searching.isRegistered)
    #expect(searching.mcc == "460")
    #expect(searching.technologyPreference == "")
  }

  @Test("cell metrics are centi-dB on every path; both band forms; integer cell ids")
  func cells() throws {
    let cells: CellsInfo = try decode(
      #"{"serving_cell":{"tech":"lte","cell_id":26353666,"tac":4562},"cells":[{"is_serving":true,"tech":"lte","cell_id":26353666,"band":"B3","arfcn":"1650","pci":"123","rsrp":"-8930","rsrq":"-1050","sinr":"","type":"serving","earfcn":"1650"},{"is_serving":false,"tech":"nr","cell_id":0,"band":"NR n78","arfcn":"627264","pci":"301","rsrp":-10150,"rsrq":null,"sinr":"1250","type":"neighbor"},{"is_serving":false,"tech":"lte","cell_id":0,"band":"LTE B1","arfcn":"100","pci":"7","rsrp":"0","rsrq":"-95 dB","sinr":"0"}]}"#
    )
    #expect(cells.servingCell?.cellID == "26353666")
    #expect(cells.servingCell?.tac == "4562")
    #expect(cells.cells.count == 3)
    #expect(cells.cells[0].rsrp == -89.3)
    #expect(cells.cells[0].rsrq == -10.5)
    #expect(cells.cells[0].sinr == nil)
    #expect(cells.cells[0].bandInfo.label == "B3")
    #expect(cells.cells[0].bandInfo.technology == nil)
    #expect(cells.cells[1].cellID == "0")
    #expect(cells.cells[1].bandInfo.label == "n78")
    #expect(cells.cells[1].bandInfo.technology == "NR")
    #expect(cells.cells[1].bandInfo.number == 78)
    #expect(cells.cells[1].rsrp == -101.5)
    #expect(cells.cells[1].rsrq == nil)
    #expect(cells.cells[1].sinr == 12.5)
    // "0" is SimAdmin's value for a present but unparsable RSRP: unknown, not 0 dBm.
    #expect(cells.cells[2].rsrp == nil)
    #expect(cells.cells[2].rsrq == -95)
    #expect(cells.cells[2].sinr == 0)
    #expect(cells.cells[2].bandInfo.label == "B1")
    #expect(CellBand("").label == nil)
    #expect(CellBand("WCDMA B1").technology == "WCDMA")
    #expect(CellBand("weird").label == nil)
  }

  @Test("system stats, full and default (no sample yet)")
  func stats() throws {
    let stats: SystemStats = try decode(
      #"{"network_speed":{"interfaces":[{"interface":"wwan0","rx_bytes_per_sec":1024.5,"tx_bytes_per_sec":12,"total_rx_bytes":123456789,"total_tx_bytes":9876}],"interval_seconds":2},"memory":{"total_bytes":1000,"available_bytes":400,"used_bytes":600,"used_percent":60.0,"cached_bytes":100,"buffers_bytes":10},"disk":[{"mount_point":"/","fs_type":"ext4","total_bytes":8000,"used_bytes":2000,"available_bytes":6000,"used_percent":25}],"cpu_load":{"load_1min":0.5,"load_5min":0.25,"load_15min":0.1,"core_count":4,"load_percent":12.5},"uptime":{"uptime_seconds":3600.5,"idle_seconds":100,"uptime_formatted":"1:00"},"system_info":{"sysname":"Linux","nodename":"cpe-1","release":"5.15","version":"SMP 1","machine":"aarch64","full_info":"Linux cpe-1"},"temperature":[{"zone":"thermal_zone0","type":"cpu","label":"CPU","temperature":47.5},{"zone":"thermal_zone1","type":"modem","label":"Modem","temperature":null}]}"#
    )
    #expect(stats.memory?.usedPercent == 60)
    #expect(stats.disks.first?.mountPoint == "/")
    #expect(stats.cpuLoad?.coreCount == 4)
    #expect(stats.uptime?.uptimeFormatted == "1:00")
    #expect(stats.systemInfo?.nodename == "cpe-1")
    #expect(stats.temperatures.count == 2)
    #expect(stats.maxTemperature == 47.5)
    #expect(stats.networkSpeed?.interfaces.first?.totalRxBytes == 123_456_789)
    let empty: SystemStats = try decode("{}")
    #expect(empty.memory == nil)
    #expect(empty.disks.isEmpty)
    #expect(empty.maxTemperature == nil)
  }

  @Test("cpu info")
  func cpu() throws {
    let cpu: CPUInfo = try decode(
      #"{"core_count":2,"cores":[{"processor":0,"bogomips":"38.40","features":["fp","asimd"],"implementer":"0x41","architecture":"8","variant":"0x0","part":"0xd03","revision":"4"},{"processor":"1"}],"hardware":"Qualcomm","serial":"","model_name":"Cortex-A53"}"#
    )
    #expect(cpu.coreCount == 2)
    #expect(cpu.cores.map(\.processor) == ["0", "1"])
    #expect(cpu.cores[0].bogomips == 38.4)
    #expect(cpu.cores[1].features.isEmpty)
    #expect(cpu.modelName == "Cortex-A53")
  }

  @Test("connectivity with a failed IPv6 probe")
  func connectivity() throws {
    let info: ConnectivityInfo = try decode(
      #"{"ipv4":{"success":true,"latency_ms":23,"target":"223.5.5.5"},"ipv6":{"success":false,"latency_ms":null,"target":"2400:3200::1","error":"Network unreachable"}}"#
    )
    #expect(info.ipv4?.success == true)
    #expect(info.ipv4?.latencyMs == 23)
    #expect(info.ipv6?.latencyMs == nil)
    #expect(info.ipv6?.error == "Network unreachable")
  }

  @Test("data, roaming and airplane mode")
  func connectionStates() throws {
    #expect(try decode(#"{"active":true}"#, as: DataState.self).active)
    let roaming: RoamingState = try decode(#"{"roaming_allowed":true,"is_roaming":false}"#)
    #expect(roaming.roamingAllowed && !roaming.isRoaming)
    let airplane: AirplaneMode = try decode(#"{"enabled":false,"powered":true,"online":true}"#)
    #expect(!airplane.enabled && airplane.powered && airplane.online)
  }

  @Test("hub: standalone, bound by url, bound by agent id")
  func hub() throws {
    let standalone: HubState = try decode(
      #"{"config":{"enabled":false,"url":"","local_fallback_timeout_seconds":120,"local_fallback_enabled":true},"runtime":{"enabled":false,"online":false,"connection_state":"disabled","device_ids":[],"local_fallback_state":"inactive"}}"#
    )
    #expect(!standalone.isBound)
    #expect(standalone.runtime.connectionState == "disabled")
    let byURL: HubState = try decode(
      #"{"config":{"enabled":true,"url":"wss://hub.example:3001"},"runtime":{"enabled":true,"online":true,"connection_state":"connected","hub_url":"wss://hub.example:3001","agent_id":null,"device_ids":["d1"]}}"#
    )
    #expect(byURL.isBound)
    #expect(byURL.runtime.deviceIDs == ["d1"])
    let byAgent: HubState = try decode(
      #"{"config":{"enabled":true,"url":""},"runtime":{"agent_id":"agent-7"}}"#)
    #expect(byAgent.isBound)
    let missing: HubState = try decode("{}")
    #expect(!missing.isBound)
    #expect(missing.config.localFallbackTimeoutSeconds == 120)
  }

  @Test("sms list: Beijing timestamps become instants, pdu may be null or missing")
  func smsList() throws {
    let list: SmsMessageList = try decode(
      #"{"messages":[{"id":2,"direction":"incoming","phone_number":"+8613800138000","content":"您的验证码是 482913","timestamp":"2026-01-01 00:30:00","status":"received","pdu":"mmfp:0123abcd"},{"id":1,"direction":"outgoing","phone_number":"10086","content":"CXLL","timestamp":"2025-12-31 23:59:59","status":"sent","pdu":null},{"id":"bad"},{"id":3,"direction":"incoming","phone_number":"Unknown","content":"","timestamp":"garbage","status":"received"}]}"#
    )
    #expect(list.messages.map(\.id) == [2, 1, 3])
    let first = list.messages[0]
    #expect(first.isIncoming)
    #expect(first.pdu == "mmfp:0123abcd")
    #expect(first.date == ISO8601DateFormatter().date(from: "2025-12-31T16:30:00Z"))
    #expect(list.messages[1].pdu == nil)
    #expect(list.messages[2].pdu == nil)
    #expect(list.messages[2].date == nil)
  }

  @Test("sms stats, send result, delete result")
  func smsResults() throws {
    let stats: SmsStats = try decode(
      #"{"total":40,"incoming":30,"outgoing":10,"pushed":0,"push_attempted":0}"#)
    #expect(stats.total == 40 && stats.incoming == 30 && stats.outgoing == 10)
    let sent: SendResult = try decode(#"{"path":"/org/freedesktop/ModemManager1/SMS/12"}"#)
    #expect(sent.path.hasSuffix("/SMS/12"))
    #expect(try decode(#"{"deleted":3}"#, as: DeleteResult.self).deleted == 3)
  }

  @Test("models round-trip through their own Codable keys")
  func roundTrip() throws {
    let original: SimInfo = try decode(
      #"{"present":true,"iccid":"8986","phone_numbers":["+8613800138000"],"pin1_retries":null}"#)
    let again = try JSONDecoder().decode(SimInfo.self, from: JSONEncoder().encode(original))
    #expect(again == original)
  }
}
