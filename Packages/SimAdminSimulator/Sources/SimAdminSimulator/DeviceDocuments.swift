import Essentials
import Foundation

/// The `data` documents of SimAdmin's read-only device routes, from the seeded identity.
enum DeviceDocuments {
  /// `online` is the modem state ≥ 6 (enabled), `powered` ≥ 3 (disabled, as in airplane
  /// mode); `revision` is left out when the modem reports none (`skip_serializing_if`).
  static func device(_ state: DeviceState) -> JSONValue {
    let modem = state.identity.modem
    var fields: [(String, JSONValue)] = [
      ("imei", .string(state.identity.imei)),
      ("manufacturer", .string(state.shown(modem.manufacturer))),
      ("model", .string(state.shown(modem.model))),
    ]
    if state.profile.reportsRevision { fields.append(("revision", .string(modem.revision))) }
    fields += [("online", .bool(!state.airplaneMode)), ("powered", .bool(true))]
    return .fields(fields)
  }

  static func sim(_ state: DeviceState) -> JSONValue {
    let identity = state.identity
    let carrier = identity.carrier
    let esim = state.profile.esimMode
    return .fields([
      ("present", .bool(true)), ("iccid", .string(state.swappedSIM?.iccid ?? identity.iccid)),
      ("imsi", .string(identity.imsi)),
      (
        "phone_numbers",
        .array(
          (state.swappedSIM.map(\.phoneNumber) ?? identity.phoneNumber).map {
            [.string(state.shown($0))]
          } ?? [])
      ),
      ("sms_center", .string(carrier.smsCenter)), ("mcc", .string("460")),
      ("mnc", .string(carrier.mnc)), ("phone_number_is_manual", .bool(false)),
      ("sms_center_is_manual", .bool(false)),
      ("sim_path", .string("/org/freedesktop/ModemManager1/SIM/0")),
      ("modem_path", .string("/org/freedesktop/ModemManager1/Modem/0")),
      ("sim_type", .string(esim ? "esim" : "physical")),
      // SimAdmin maps ModemManager's EsimStatus 1/2/3 to none/no-profiles/with-profiles and
      // anything else to unknown. A physical SIM reports 0 (unknown); ModemManager numbers an
      // eSIM with profiles 2, which SimAdmin's table calls "no-profiles".
      ("esim_status", .string(esim ? "no-profiles" : "unknown")), ("active", .bool(true)),
      ("operator_name", .string(state.shown(carrier.simName))),
      ("registered_operator_name", .string(state.shown(carrier.networkName))),
      ("registered_operator_code", .string("460" + carrier.mnc)),
      ("lock_status", .string("none")), ("pin1_retries", .int(3)), ("puk1_retries", .int(10)),
      ("pin2_retries", .null), ("puk2_retries", .null),
      ("carrier_config", .string(carrier.carrierConfig)),
      ("carrier_config_revision", .string("0x05010821")),
    ])
  }

  /// `mcc` and `mnc` come from the registered operator's code and are left out when it is
  /// unknown (not registered: airplane mode here).
  static func network(_ state: DeviceState) -> JSONValue {
    let carrier = state.identity.carrier
    let registered = !state.airplaneMode
    var fields: [(String, JSONValue)] = [
      ("operator_name", .string(state.shown(registered ? carrier.networkName : ""))),
      ("registration_status", .string(registered ? "registered" : "idle")),
      (
        "technology_preference",
        .string(registered ? (state.identity.modem.technology == "5gnr" ? "nr" : "lte") : "unknown")
      ),
      ("signal_strength", .int(registered ? state.identity.signal : 0)),
    ]
    if registered { fields += [("mcc", .string("460")), ("mnc", .string(carrier.mnc))] }
    return .fields(fields)
  }

  static func cells(_ state: DeviceState) -> JSONValue {
    let identity = state.identity
    let tech = identity.modem.technology
    let serving = identity.cells.first
    let channelKey = tech == "5gnr" ? "nrarfcn" : "earfcn"
    return .fields([
      (
        "serving_cell",
        .fields([
          ("tech", .string(tech)), ("cell_id", .int(serving?.cellID ?? 0)),
          ("tac", .int(identity.tac)),
        ])
      ),
      (
        "cells",
        .array(
          identity.cells.map { cell in
            var fields: [(String, JSONValue)] = [
              ("is_serving", .bool(cell.isServing)), ("tech", .string(tech)),
              ("cell_id", .int(cell.cellID)), ("band", .string(cell.band)),
              ("arfcn", .string(cell.arfcn)), ("pci", .string(cell.pci)),
              ("rsrp", .string(cell.rsrp)), ("rsrq", .string(cell.rsrq)),
              ("sinr", .string(cell.sinr)),
              ("type", .string(cell.isServing ? "serving" : "neighbor")),
            ]
            // Optional fields are skipped when empty (`skip_serializing_if`).
            if !cell.arfcn.isEmpty { fields.append((channelKey, .string(cell.arfcn))) }
            return .fields(fields)
          })
      ),
    ])
  }

  static func stats(_ state: inout DeviceState, now: Date) -> JSONValue {
    let identity = state.identity
    let uptime = identity.uptimeBase + max(0, now.timeIntervalSince(state.startedAt))
    let total = identity.memoryTotal
    let used = Int64(Double(total) * identity.memoryUsedFraction)
    let cached = total / 8
    let load1 = state.noise.double(in: 0.05...2.5)
    let cores = identity.modem.cores
    let days = Int(uptime) / 86_400
    let hours = Int(uptime) % 86_400 / 3600
    let minutes = Int(uptime) % 3600 / 60
    let rx = Int64(state.noise.int(in: 200...900_000))
    let tx = Int64(state.noise.int(in: 100...120_000))
    let diskTotal: Int64 = 7_818_182_656
    let diskUsed: Int64 = 2_411_724_800
    let kernel = identity.kernel
    let name = state.profile.name
    return .fields([
      (
        "network_speed",
        .fields([
          (
            "interfaces",
            .array([
              .fields([
                ("interface", .string("wwan0")), ("rx_bytes_per_sec", .int(rx)),
                ("tx_bytes_per_sec", .int(tx)),
                ("total_rx_bytes", .int(Int64(uptime) * 2_048)),
                ("total_tx_bytes", .int(Int64(uptime) * 512)),
              ]),
              .fields([
                ("interface", .string("br-lan")), ("rx_bytes_per_sec", .int(tx)),
                ("tx_bytes_per_sec", .int(rx)), ("total_rx_bytes", .int(Int64(uptime) * 480)),
                ("total_tx_bytes", .int(Int64(uptime) * 1_990)),
              ]),
            ])
          ),
          ("interval_seconds", .double(1.2055)),
        ])
      ),
      (
        "memory",
        .fields([
          ("total_bytes", .int(total)), ("available_bytes", .int(total - used)),
          ("used_bytes", .int(used)),
          ("used_percent", .double((Double(used) / Double(total) * 1000).rounded() / 10)),
          ("cached_bytes", .int(cached)), ("buffers_bytes", .int(total / 64)),
        ])
      ),
      (
        "disk",
        .array([
          .fields([
            ("mount_point", .string("/")), ("fs_type", .string("ext4")),
            ("total_bytes", .int(diskTotal)), ("used_bytes", .int(diskUsed)),
            ("available_bytes", .int(diskTotal - diskUsed)), ("used_percent", .double(30.8)),
          ]),
          .fields([
            ("mount_point", .string("/data")), ("fs_type", .string("ext4")),
            ("total_bytes", .int(524_288_000)), ("used_bytes", .int(61_440_000)),
            ("available_bytes", .int(462_848_000)), ("used_percent", .double(11.7)),
          ]),
        ])
      ),
      (
        "cpu_load",
        .fields([
          ("load_1min", .double((load1 * 100).rounded() / 100)),
          ("load_5min", .double((load1 * 80).rounded() / 100)),
          ("load_15min", .double((load1 * 60).rounded() / 100)),
          ("core_count", .int(cores)),
          ("load_percent", .double((load1 / Double(cores) * 1000).rounded() / 10)),
        ])
      ),
      (
        "uptime",
        .fields([
          ("uptime_seconds", .int(Int64(uptime))),
          ("idle_seconds", .int(Int64(uptime * Double(cores) * 0.8))),
          ("uptime_formatted", .string("\(days)天 \(hours)小时 \(minutes)分钟")),
        ])
      ),
      (
        "system_info",
        .fields([
          ("sysname", .string("Linux")), ("nodename", .string(name)),
          ("release", .string(kernel)), ("version", .string("#1 SMP PREEMPT")),
          ("machine", .string(identity.modem.machine)),
          (
            "full_info",
            .string("Linux \(name) \(kernel) #1 SMP PREEMPT \(identity.modem.machine)")
          ),
        ])
      ),
      (
        "temperature",
        .array(
          identity.temperatures.enumerated().map { index, value in
            .fields([
              ("zone", .string("thermal_zone\(index)")),
              ("type", .string(["cpu-thermal", "modem-thermal", "pa-therm0"][index % 3])),
              ("label", .string(["CPU", "Modem", "PA"][index % 3])),
              ("temperature", .double((value * 10).rounded() / 10)),
            ])
          })
      ),
    ])
  }

  static func cpu(_ state: DeviceState) -> JSONValue {
    let modem = state.identity.modem
    let arm = modem.machine == "aarch64"
    let cores: [JSONValue] = (0..<modem.cores).map { index in
      .fields([
        ("processor", .int(index)), ("bogomips", .string(arm ? "38.40" : "")),
        (
          "features",
          .array(
            (arm
              ? ["fp", "asimd", "evtstrm", "aes", "pmull", "sha1", "sha2", "crc32", "cpuid"]
              : ["fpu", "vme", "sse", "sse2", "ssse3", "sse4_1", "sse4_2", "aes"]).map(
                JSONValue.string))
        ),
        ("implementer", .string(arm ? "0x41" : "")), ("architecture", .string(arm ? "8" : "")),
        ("variant", .string(arm ? "0x0" : "")), ("part", .string(modem.part)),
        ("revision", .string(arm ? "4" : "")),
      ])
    }
    return .fields([
      ("core_count", .int(modem.cores)), ("cores", .array(cores)),
      ("hardware", .string(modem.hardware)), ("serial", .string("0000000000000000")),
      ("model_name", .string(arm ? "" : modem.hardware)),
    ])
  }

  static func connectivity(_ state: inout DeviceState) -> JSONValue {
    let online = state.dataActive && !state.airplaneMode
    let latency: JSONValue =
      online ? .double(Double(state.noise.int(in: 1_800...9_000)) / 100) : .null
    // Every key is always present; `null` where there is nothing (SIMADMIN-API §3).
    return .fields([
      (
        "ipv4",
        .fields([
          ("success", .bool(online)), ("latency_ms", latency), ("target", .string("223.5.5.5")),
          ("error", online ? .null : .string("Network is unreachable")),
        ])
      ),
      (
        "ipv6",
        .fields([
          ("success", .bool(false)), ("latency_ms", .null), ("target", .string("2400:3200::1")),
          ("error", .string("Network is unreachable")),
        ])
      ),
    ])
  }

  /// `/api/stats` before the background sampler's first sample: default values.
  static func statsBeforeFirstSample() -> JSONValue {
    .fields([
      ("network_speed", .fields([("interfaces", .array([])), ("interval_seconds", .double(0))])),
      (
        "memory",
        .fields([
          ("total_bytes", .int(0)), ("available_bytes", .int(0)), ("used_bytes", .int(0)),
          ("used_percent", .double(0)), ("cached_bytes", .int(0)), ("buffers_bytes", .int(0)),
        ])
      ),
      ("disk", .array([])),
      (
        "cpu_load",
        .fields([
          ("load_1min", .double(0)), ("load_5min", .double(0)), ("load_15min", .double(0)),
          ("core_count", .int(0)), ("load_percent", .double(0)),
        ])
      ),
      (
        "uptime",
        .fields([
          ("uptime_seconds", .int(0)), ("idle_seconds", .int(0)), ("uptime_formatted", .string("")),
        ])
      ),
      (
        "system_info",
        .fields(
          ["sysname", "nodename", "release", "version", "machine", "full_info"].map {
            ($0, JSONValue.string(""))
          })
      ),
      ("temperature", .array([])),
    ])
  }

  static func hub(_ state: DeviceState) -> JSONValue {
    let hub = state.hub
    let connected = hub.isBound
    return .fields([
      (
        "config",
        .fields([
          ("enabled", .bool(hub.enabled)), ("url", .string(hub.url)),
          ("local_fallback_timeout_seconds", .int(hub.localFallbackTimeoutSeconds)),
          ("local_fallback_enabled", .bool(hub.localFallbackEnabled)),
        ])
      ),
      (
        "runtime",
        .fields([
          ("enabled", .bool(hub.enabled)), ("online", .bool(connected)),
          ("connection_state", .string(hub.connectionState)),
          ("hub_url", connected ? .string(hub.url) : .null),
          ("hub_instance_id", connected ? .string("hub_main") : .null),
          ("hub_version", connected ? .string("1.1.10") : .null),
          ("last_connected_at", .null), ("agent_id", .optional(hub.agentID)),
          ("device_ids", .array(hub.deviceIDs.map(JSONValue.string))),
          ("local_fallback_state", .string(hub.localFallbackState)), ("last_error", .null),
        ])
      ),
    ])
  }
}
