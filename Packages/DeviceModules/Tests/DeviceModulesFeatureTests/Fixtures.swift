import Foundation
import SimAdminClient
import Testing

@testable import DeviceModulesFeature

/// Fixed section states for view snapshots, decoded from SimAdmin-shaped JSON.
enum Fixtures {
  static let fetchedAt = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
  static let now = fetchedAt.addingTimeInterval(42)
  static let target = DeviceTarget(
    id: "3f2a9c1b7d40", name: "Office CPE", origin: "http://192.168.8.1:3000")

  static func decode<T: Decodable>(_ json: String) -> T {
    do {
      return try JSONDecoder().decode(T.self, from: Data(json.utf8))
    } catch {
      fatalError("fixture does not decode: \(error)")
    }
  }

  static let device: DeviceInfo = decode(
    """
    {"imei":"861234567890123","manufacturer":"Quectel","model":"RM520N-GL",
     "revision":"RM520NGLAAR03A03M4G","online":true,"powered":true}
    """)

  static let sim: SimInfo = decode(
    """
    {"present":true,"iccid":"89860012345678901234","imsi":"460001234567890",
     "phone_numbers":["+8613800138000"],"sms_center":"+8613800100500","mcc":"460","mnc":"00",
     "phone_number_is_manual":false,"sms_center_is_manual":false,"sim_path":"/SIM/0",
     "modem_path":"/Modem/0","sim_type":"physical","esim_status":"not_esim","active":true,
     "operator_name":"中国移动","registered_operator_name":"CHINA MOBILE",
     "registered_operator_code":"46000","lock_status":"none","pin1_retries":3,
     "puk1_retries":10,"pin2_retries":null,"puk2_retries":null,"carrier_config":"CMCC",
     "carrier_config_revision":"0x05010821"}
    """)

  static let network: NetworkInfo = decode(
    """
    {"operator_name":"CHINA MOBILE","registration_status":"registered",
     "technology_preference":"nr","signal_strength":62,"mcc":"460","mnc":"00"}
    """)

  static let cells: CellsInfo = decode(
    """
    {"serving_cell":{"tech":"NR","cell_id":26353666,"tac":27183},
     "cells":[
      {"is_serving":true,"tech":"NR","cell_id":26353666,"band":"NR n78","arfcn":"627264",
       "pci":"301","rsrp":"-9530","rsrq":"-1100","sinr":"1450","type":"serving"},
      {"is_serving":false,"tech":"NR","cell_id":0,"band":"NR n41","arfcn":"504990",
       "pci":"122","rsrp":"-10400","rsrq":"","sinr":"300","type":"neighbor"}]}
    """)

  static let stats: SystemStats = decode(
    """
    {"network_speed":{"interfaces":[
       {"interface":"wwan0","rx_bytes_per_sec":153600,"tx_bytes_per_sec":20480,
        "total_rx_bytes":5368709120,"total_tx_bytes":734003200}],"interval_seconds":1},
     "memory":{"total_bytes":1073741824,"available_bytes":641728512,"used_bytes":432013312,
       "used_percent":40.2,"cached_bytes":209715200,"buffers_bytes":31457280},
     "disk":[{"mount_point":"/","fs_type":"ext4","total_bytes":7516192768,
       "used_bytes":2147483648,"available_bytes":5368709120,"used_percent":28.6}],
     "cpu_load":{"load_1min":0.42,"load_5min":0.35,"load_15min":0.3,"core_count":4,
       "load_percent":10.5},
     "uptime":{"uptime_seconds":277200,"idle_seconds":900000,"uptime_formatted":"3 days, 5:00"},
     "system_info":{"sysname":"Linux","nodename":"office","release":"5.15.0","version":"#1 SMP",
       "machine":"aarch64","full_info":"Linux office 5.15.0 aarch64"},
     "temperature":[{"zone":"thermal_zone0","type":"cpu-thermal","label":"CPU",
       "temperature":48.5}]}
    """)

  static let cpu: CPUInfo = decode(
    """
    {"core_count":2,"cores":[
      {"processor":"0","bogomips":38.4,"features":["fp","asimd"],"implementer":"0x41",
       "architecture":"8","variant":"0x0","part":"0xd03","revision":"4"},
      {"processor":"1","bogomips":38.4,"features":["fp","asimd"],"implementer":"0x41",
       "architecture":"8","variant":"0x0","part":"0xd03","revision":"4"}],
     "hardware":"Qualcomm SDX62","serial":"00000000a1b2c3d4","model_name":"Cortex-A53"}
    """)

  static let connectivity: ConnectivityInfo = decode(
    """
    {"ipv4":{"success":true,"latency_ms":23.4,"target":"223.5.5.5"},
     "ipv6":{"success":false,"target":"2400:3200::1","error":"Network is unreachable"}}
    """)

  static let data: DataState = decode(#"{"active":true}"#)
  static let roaming: RoamingState = decode(#"{"roaming_allowed":false,"is_roaming":false}"#)

  static let messages: [SmsMessage] = decode(
    """
    [{"id":42,"direction":"incoming","phone_number":"10086","content":"您的验证码是 482913，5 分钟内有效。",
      "timestamp":"2026-01-01 07:58:00","status":"received","pdu":"mmfp:abc"},
     {"id":41,"direction":"outgoing","phone_number":"+8613912345678",
      "content":"Meeting moved to 3pm","timestamp":"2025-12-31 21:10:05","status":"sent",
      "pdu":null}]
    """)

  static func loaded(_ section: DeviceSection, _ content: SectionContent) -> SectionState {
    SectionState(section: section, status: .loaded, content: content, fetchedAt: fetchedAt)
  }

  static let sections: [SectionState] = [
    loaded(.device, .device(device)),
    loaded(.sim, .sim(sim)),
    loaded(.cellular, .cellular(CellularSnapshot(network: network, cells: cells))),
    loaded(.resources, .resources(stats)),
    loaded(.cpu, .cpu(cpu)),
    loaded(
      .connection,
      .connection(
        ConnectionSnapshot(
          connectivity: connectivity, data: data, roaming: roaming, airplaneMode: nil,
          problems: ["airplaneMode": .notSupported]))),
    loaded(.sms, .sms(SmsSnapshot(messages: messages))),
  ]

  static let report = DeviceReport(instance: target, sections: sections)

  /// One section in each non-loaded state.
  static let states = DeviceReport(
    instance: target,
    sections: [
      SectionState.loading(.device),
      SectionState(section: .sim, status: .noPermission, fetchedAt: fetchedAt),
      SectionState(
        section: .cellular, status: .upstream(message: "未检测到调制解调器"), fetchedAt: fetchedAt),
      SectionState(section: .resources, status: .timeout, fetchedAt: fetchedAt),
      SectionState(section: .cpu, status: .notSupported, fetchedAt: fetchedAt),
      SectionState(section: .connection, status: .loginRequired, fetchedAt: fetchedAt),
      SectionState(section: .sms, status: .empty, fetchedAt: fetchedAt),
    ])
}
