/// The range in which a device's reading of one quantity is believed (issue 36).
///
/// The models keep the numbers a device sent, whatever they are (a broken sensor's `1e308`, a
/// counter gone negative, an old firmware's `-1`): they are the device's words. What shows or
/// stores them asks ``checked(_:)-(Double?)`` first: a value that is not finite or lies outside
/// the quantity's range is unknown, shown as such (`—`), and never reaches an integer
/// conversion. The ranges are wide on purpose: they only keep out what no working device
/// reports.
public struct DeviceReading: Sendable, Hashable {
  /// The values believed, inclusive.
  public let range: ClosedRange<Double>

  /// A reading believed within `range`.
  public init(_ range: ClosedRange<Double>) {
    self.range = range
  }

  /// A temperature, °C: −100 to 250 (thermal zones report −40 to 125).
  public static let celsius = DeviceReading(-100...250)
  /// A share, percent: 0 to 100 (memory, disk, signal strength).
  public static let percent = DeviceReading(0...100)
  /// A load relative to the cores, percent: 0 to 100,000 (a load of 1,000 per core).
  public static let loadPercent = DeviceReading(0...100_000)
  /// A load average: 0 to 100,000.
  public static let loadAverage = DeviceReading(0...100_000)
  /// A duration such as an uptime, seconds: 0 to 100 years.
  public static let seconds = DeviceReading(0...3_155_760_000)
  /// A size, bytes: 0 to 2^62 (4 EiB).
  public static let bytes = DeviceReading(0...4_611_686_018_427_387_904)
  /// A throughput, bytes per second: 0 to 10^12 (a terabyte each second).
  public static let bytesPerSecond = DeviceReading(0...1_000_000_000_000)
  /// A radio level in dBm or dB (RSRP, RSRQ, SINR, RSSI): −200 to 100.
  public static let decibels = DeviceReading(-200...100)
  /// A network latency, milliseconds: 0 to one hour.
  public static let milliseconds = DeviceReading(0...3_600_000)
  /// A processor speed (BogoMIPS, MHz): 0 to 1,000,000.
  public static let speed = DeviceReading(0...1_000_000)
  /// A count of things on one device (cores, PIN retries): 0 to 1,000,000.
  public static let count = DeviceReading(0...1_000_000)

  /// `value` when it is finite and within the range; `nil` otherwise (unknown).
  public func checked(_ value: Double?) -> Double? {
    guard let value, value.isFinite, range.contains(value) else { return nil }
    return value
  }

  /// `value` when it is within the range; `nil` otherwise (unknown).
  public func checked(_ value: Int64?) -> Int64? {
    guard let value, range.contains(Double(value)) else { return nil }
    return value
  }

  /// `value` rounded to the nearest integer when it is believed; `nil` otherwise. Every range
  /// lies well inside `Int`, so the conversion cannot trap.
  public func rounded(
    _ value: Double?, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
  )
    -> Int?
  {
    guard let value = checked(value) else { return nil }
    return Int(exactly: value.rounded(rule))
  }
}
