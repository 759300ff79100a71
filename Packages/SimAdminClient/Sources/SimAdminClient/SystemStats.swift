import Foundation

/// `GET /api/stats`: memory, disks, load, uptime, temperatures and network speed.
public struct SystemStats: Codable, Sendable, Hashable {
  /// Per-interface throughput.
  public var networkSpeed: NetworkSpeed?
  /// Memory use.
  public var memory: Memory?
  /// Mounted file systems.
  public var disks: [Disk]
  /// Load averages.
  public var cpuLoad: CPULoad?
  /// Uptime.
  public var uptime: Uptime?
  /// `uname` fields.
  public var systemInfo: SystemInfo?
  /// Thermal zones.
  public var temperatures: [Temperature]

  enum CodingKeys: String, CodingKey {
    case memory, uptime
    case networkSpeed = "network_speed"
    case disks = "disk"
    case cpuLoad = "cpu_load"
    case systemInfo = "system_info"
    case temperatures = "temperature"
  }

  /// Decodes tolerantly: any missing section is `nil` or empty.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    networkSpeed = c.lenientNested(.networkSpeed)
    memory = c.lenientNested(.memory)
    disks = c.lenientArray(.disks)
    cpuLoad = c.lenientNested(.cpuLoad)
    uptime = c.lenientNested(.uptime)
    systemInfo = c.lenientNested(.systemInfo)
    temperatures = c.lenientArray(.temperatures)
  }

  /// The highest temperature reported, °C, among those believed (``DeviceReading/celsius``):
  /// one broken sensor's `1e308` does not hide the others.
  public var maxTemperature: Double? {
    Self.hottest(temperatures)
  }

  static func hottest(_ zones: [Temperature]) -> Double? {
    zones.compactMap { DeviceReading.celsius.checked($0.temperature) }.max()
  }

  /// The part of `GET /api/stats` a connection test keeps (memory, uptime, temperatures),
  /// decoded exactly as ``SystemStats`` decodes those sections: each section is read on its
  /// own, so leaving the others (network speed, disks, load, `uname`) unread changes nothing
  /// but the work. A fleet refresh reads one per device.
  public struct Glance: Decodable, Sendable, Hashable {
    /// Memory use.
    public var memory: Memory?
    /// Uptime.
    public var uptime: Uptime?
    /// Thermal zones.
    public var temperatures: [Temperature]

    enum CodingKeys: String, CodingKey, CaseIterable {
      case memory, uptime
      case temperatures = "temperature"
    }

    /// Decodes tolerantly, as ``SystemStats/init(from:)``.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      memory = c.lenientNested(.memory)
      uptime = c.lenientNested(.uptime)
      temperatures = c.lenientArray(.temperatures)
    }

    /// The highest temperature reported, °C, among those believed.
    public var maxTemperature: Double? {
      SystemStats.hottest(temperatures)
    }
  }

  // MARK: - Sections

  /// Network throughput.
  public struct NetworkSpeed: Codable, Sendable, Hashable {
    /// One entry per interface.
    public var interfaces: [InterfaceSpeed]
    /// Sampling interval, seconds.
    public var intervalSeconds: Double

    enum CodingKeys: String, CodingKey {
      case interfaces
      case intervalSeconds = "interval_seconds"
    }

    /// Decodes tolerantly.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      interfaces = c.lenientArray(.interfaces)
      intervalSeconds = c.lenientDouble(.intervalSeconds) ?? 0
    }
  }

  /// One interface's throughput.
  public struct InterfaceSpeed: Codable, Sendable, Hashable {
    /// Interface name.
    public var interface: String
    /// Receive rate, bytes per second.
    public var rxBytesPerSec: Double
    /// Transmit rate, bytes per second.
    public var txBytesPerSec: Double
    /// Bytes received since boot; `nil` when missing or not an integer (a `1e308`).
    public var totalRxBytes: Int64?
    /// Bytes sent since boot; `nil` when missing or not an integer.
    public var totalTxBytes: Int64?

    enum CodingKeys: String, CodingKey {
      case interface
      case rxBytesPerSec = "rx_bytes_per_sec"
      case txBytesPerSec = "tx_bytes_per_sec"
      case totalRxBytes = "total_rx_bytes"
      case totalTxBytes = "total_tx_bytes"
    }

    /// Decodes tolerantly.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      interface = c.lenientString(.interface)
      rxBytesPerSec = c.lenientDouble(.rxBytesPerSec) ?? 0
      txBytesPerSec = c.lenientDouble(.txBytesPerSec) ?? 0
      totalRxBytes = c.lenientInt(.totalRxBytes)
      totalTxBytes = c.lenientInt(.totalTxBytes)
    }
  }

  /// Memory figures, bytes; a size that is missing or not an integer (a `1e308`) is `nil`.
  public struct Memory: Codable, Sendable, Hashable {
    /// Total.
    public var totalBytes: Int64?
    /// Available.
    public var availableBytes: Int64?
    /// Used.
    public var usedBytes: Int64?
    /// Used, percent.
    public var usedPercent: Double
    /// Page cache.
    public var cachedBytes: Int64?
    /// Buffers.
    public var buffersBytes: Int64?

    enum CodingKeys: String, CodingKey, CaseIterable {
      case totalBytes = "total_bytes"
      case availableBytes = "available_bytes"
      case usedBytes = "used_bytes"
      case usedPercent = "used_percent"
      case cachedBytes = "cached_bytes"
      case buffersBytes = "buffers_bytes"
    }

    /// Decodes tolerantly.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      totalBytes = c.lenientInt(.totalBytes)
      availableBytes = c.lenientInt(.availableBytes)
      usedBytes = c.lenientInt(.usedBytes)
      usedPercent = c.lenientDouble(.usedPercent) ?? 0
      cachedBytes = c.lenientInt(.cachedBytes)
      buffersBytes = c.lenientInt(.buffersBytes)
    }
  }

  /// One file system; a size that is missing or not an integer is `nil`.
  public struct Disk: Codable, Sendable, Hashable {
    /// Mount point.
    public var mountPoint: String
    /// File system type.
    public var fsType: String
    /// Size, bytes.
    public var totalBytes: Int64?
    /// Used, bytes.
    public var usedBytes: Int64?
    /// Free, bytes.
    public var availableBytes: Int64?
    /// Used, percent.
    public var usedPercent: Double

    enum CodingKeys: String, CodingKey {
      case mountPoint = "mount_point"
      case fsType = "fs_type"
      case totalBytes = "total_bytes"
      case usedBytes = "used_bytes"
      case availableBytes = "available_bytes"
      case usedPercent = "used_percent"
    }

    /// Decodes tolerantly.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      mountPoint = c.lenientString(.mountPoint)
      fsType = c.lenientString(.fsType)
      totalBytes = c.lenientInt(.totalBytes)
      usedBytes = c.lenientInt(.usedBytes)
      availableBytes = c.lenientInt(.availableBytes)
      usedPercent = c.lenientDouble(.usedPercent) ?? 0
    }
  }

  /// Load averages.
  public struct CPULoad: Codable, Sendable, Hashable {
    /// 1-minute load.
    public var load1: Double
    /// 5-minute load.
    public var load5: Double
    /// 15-minute load.
    public var load15: Double
    /// Cores; `nil` when missing or not an integer.
    public var coreCount: Int64?
    /// Load relative to cores, percent.
    public var loadPercent: Double

    enum CodingKeys: String, CodingKey {
      case load1 = "load_1min"
      case load5 = "load_5min"
      case load15 = "load_15min"
      case coreCount = "core_count"
      case loadPercent = "load_percent"
    }

    /// Decodes tolerantly.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      load1 = c.lenientDouble(.load1) ?? 0
      load5 = c.lenientDouble(.load5) ?? 0
      load15 = c.lenientDouble(.load15) ?? 0
      coreCount = c.lenientInt(.coreCount)
      loadPercent = c.lenientDouble(.loadPercent) ?? 0
    }
  }

  /// Uptime.
  public struct Uptime: Codable, Sendable, Hashable {
    /// Seconds since boot.
    public var uptimeSeconds: Double
    /// Idle seconds summed over cores.
    public var idleSeconds: Double
    /// The device's own rendering, e.g. `3 days, 4:05`.
    public var uptimeFormatted: String

    enum CodingKeys: String, CodingKey, CaseIterable {
      case uptimeSeconds = "uptime_seconds"
      case idleSeconds = "idle_seconds"
      case uptimeFormatted = "uptime_formatted"
    }

    /// Decodes tolerantly.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      uptimeSeconds = c.lenientDouble(.uptimeSeconds) ?? 0
      idleSeconds = c.lenientDouble(.idleSeconds) ?? 0
      uptimeFormatted = c.lenientString(.uptimeFormatted)
    }
  }

  /// `uname` fields.
  public struct SystemInfo: Codable, Sendable, Hashable {
    /// e.g. `Linux`.
    public var sysname: String
    /// Host name.
    public var nodename: String
    /// Kernel release.
    public var release: String
    /// Kernel version string.
    public var version: String
    /// e.g. `aarch64`.
    public var machine: String
    /// `uname -a`.
    public var fullInfo: String

    enum CodingKeys: String, CodingKey {
      case sysname, nodename, release, version, machine
      case fullInfo = "full_info"
    }

    /// Decodes tolerantly.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      sysname = c.lenientString(.sysname)
      nodename = c.lenientString(.nodename)
      release = c.lenientString(.release)
      version = c.lenientString(.version)
      machine = c.lenientString(.machine)
      fullInfo = c.lenientString(.fullInfo)
    }
  }

  /// One thermal zone.
  public struct Temperature: Codable, Sendable, Hashable {
    /// Zone name.
    public var zone: String
    /// Zone type.
    public var type: String
    /// Label.
    public var label: String
    /// Degrees Celsius, when readable.
    public var temperature: Double?

    enum CodingKeys: String, CodingKey, CaseIterable {
      case zone, type, label, temperature
    }

    /// Decodes tolerantly.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      zone = c.lenientString(.zone)
      type = c.lenientString(.type)
      label = c.lenientString(.label)
      temperature = c.lenientDouble(.temperature)
    }
  }
}
