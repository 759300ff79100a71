import Foundation
import SimAdminClient

/// Realistic decoded models for feature tests and previews, shaped like SimAdmin 1.1.10's
/// answers. Every property of the models is `var`, so a test changes what it needs.
public enum SimAdminFixtures {
  /// `/api/health` of a 1.1.10 device.
  public static var health: HealthInfo {
    get throws {
      try decode(
        #"{"status":"ok","message":"Service is running","platform":"linux-modem","version":"1.1.10"}"#
      )
    }
  }

  /// `/api/auth/status` with protection off.
  public static var authOpen: AuthStatus {
    get throws {
      try decode(
        #"{"configured":false,"authenticated":true,"settings":{"password_protection_enabled":false,"password_min_length":8,"session_ttl_seconds":604800,"idle_timeout_seconds":3600}}"#
      )
    }
  }

  /// `/api/device`.
  public static var device: DeviceInfo {
    get throws {
      try decode(
        #"{"imei":"867000000000017","manufacturer":"Quectel","model":"EC20F","revision":"EC20CEFAGR06A05M4G","online":true,"powered":true}"#
      )
    }
  }

  /// `/api/sim` with one number and unknown PUK retries.
  public static var sim: SimInfo {
    get throws {
      try decode(
        #"{"present":true,"iccid":"89860012345678901234","imsi":"460001234567890","phone_numbers":["+8613800138000"],"sms_center":"+8613800100500","mcc":"460","mnc":"00","sim_type":"physical","active":true,"operator_name":"CMCC","registered_operator_name":"中国移动","registered_operator_code":"46000","lock_status":"none","pin1_retries":3,"puk1_retries":null}"#
      )
    }
  }

  /// `/api/network`, registered with a good signal.
  public static var network: NetworkInfo {
    get throws {
      try decode(
        #"{"operator_name":"中国移动","registration_status":"registered","technology_preference":"4G/5G","signal_strength":78,"mcc":"460","mnc":"00"}"#
      )
    }
  }

  /// `/api/stats` with one disk and one temperature.
  public static var stats: SystemStats {
    get throws {
      try decode(
        #"{"memory":{"total_bytes":536870912,"available_bytes":268435456,"used_bytes":268435456,"used_percent":50.0},"disk":[{"mount_point":"/","fs_type":"ext4","total_bytes":7516192768,"used_bytes":2147483648,"available_bytes":5368709120,"used_percent":28.6}],"cpu_load":{"load_1min":0.42,"load_5min":0.35,"load_15min":0.3,"core_count":4,"load_percent":10.5},"uptime":{"uptime_seconds":93784,"idle_seconds":350000,"uptime_formatted":"1 day, 2:03"},"system_info":{"sysname":"Linux","nodename":"cpe-01","release":"5.15.0","machine":"aarch64"},"temperature":[{"zone":"thermal_zone0","type":"cpu-thermal","label":"CPU","temperature":46.5}]}"#
      )
    }
  }

  /// Two messages, newest first: an incoming verification code and an outgoing query.
  public static var messages: [SmsMessage] {
    get throws {
      try decode(
        #"[{"id":2,"direction":"incoming","phone_number":"+8610690000","content":"【示例】您的验证码是 482913，5 分钟内有效。","timestamp":"2026-01-01 08:30:00","status":"received","pdu":"mmfp:5d41402abc4b2a76b9719d911017c592"},{"id":1,"direction":"outgoing","phone_number":"10086","content":"CXLL","timestamp":"2026-01-01 08:00:00","status":"sent","pdu":null}]"#
      )
    }
  }

  /// `/api/hub` of a standalone device.
  public static var hubStandalone: HubState {
    get throws {
      try decode(
        #"{"config":{"enabled":false,"url":"","local_fallback_timeout_seconds":120,"local_fallback_enabled":true},"runtime":{"enabled":false,"online":false,"connection_state":"disabled","device_ids":[],"local_fallback_state":"inactive"}}"#
      )
    }
  }

  /// Decodes a fixture; a fixture that does not decode fails the test that reads it.
  static func decode<T: Decodable>(_ json: String) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(json.utf8))
  }
}
