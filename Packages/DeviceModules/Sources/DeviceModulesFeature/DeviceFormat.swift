import Essentials
import Foundation
import SimAdminClient

/// How values people read are written: sizes, durations, signal, temperatures, identifiers.
///
/// Every number here comes from a device. Each is checked against the range its quantity is
/// believed in (``DeviceReading``) before anything is made of it: a value outside (`1e308`,
/// a negative size, an infinity) is written ``unknown`` and never reaches an integer
/// conversion (issue 36).
public enum DeviceFormat {
  /// What an unknown or unbelievable value shows as.
  public static let unknown = "—"

  /// A byte count with binary units: `512 B`, `1.5 KiB`, `412.0 MiB`, `3.7 GiB`, `1.2 TiB`;
  /// ``unknown`` when missing, negative or beyond ``DeviceReading/bytes``.
  public static func bytes(_ value: Int64?) -> String {
    guard let value = DeviceReading.bytes.checked(value) else { return unknown }
    let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
    guard value >= 1024 else { return "\(value) B" }
    var amount = Double(value) / 1024
    var unit = 0
    while amount >= 1024, unit < units.count - 1 {
      amount /= 1024
      unit += 1
    }
    return String(format: "%.1f", amount) + " " + units[unit]
  }

  /// A rate: `bytes(...)/s`; ``unknown`` outside ``DeviceReading/bytesPerSecond``.
  public static func rate(_ bytesPerSecond: Double) -> String {
    guard let rounded = DeviceReading.bytesPerSecond.rounded(bytesPerSecond) else { return unknown }
    return bytes(Int64(rounded)) + "/s"
  }

  /// An uptime as days and hours (`3 d 4 h`), hours and minutes under a day (`4 h 12 min`),
  /// minutes under an hour (`12 min`), in `language`; ``unknown`` outside
  /// ``DeviceReading/seconds``.
  public static func uptime(_ seconds: Double, _ language: AppLanguage) -> String {
    guard let total = DeviceReading.seconds.rounded(seconds, .down) else { return unknown }
    let days = total / 86_400
    let hours = total % 86_400 / 3600
    let minutes = total % 3600 / 60
    let arguments = ["days": String(days), "hours": String(hours), "minutes": String(minutes)]
    let key =
      days > 0 ? "format.uptime.days" : hours > 0 ? "format.uptime.hours" : "format.uptime.minutes"
    return DeviceModulesStrings.text(key, language, arguments)
  }

  /// A five-cell signal bar for a 0–100 percentage: `███░░`.
  public static func signalBar(_ percent: Int64) -> String {
    let clamped = min(100, max(0, percent))
    let filled = Int((Double(clamped) / 20).rounded())
    return String(repeating: "█", count: filled) + String(repeating: "░", count: 5 - filled)
  }

  /// `███░░ 62%` from the device's percentage; when the serving cell's RSRP is known the bar
  /// is drawn from it instead (``percent(rsrp:)``) and the dBm come first:
  /// `███░░ -89.3 dBm · 62%`. A percentage outside 0–100 or a level outside
  /// ``DeviceReading/decibels`` is unknown and left out; ``unknown`` when both are.
  public static func signal(percent: Int64?, dBm: Double?) -> String {
    let percent = DeviceReading.percent.checked(percent)
    guard let dBm = DeviceReading.decibels.checked(dBm) else {
      return percent.map { "\(signalBar($0)) \($0)%" } ?? unknown
    }
    let bar = "\(signalBar(Self.percent(rsrp: dBm))) \(number(dBm, .decibels)) dBm"
    return bar + (percent.map { " · \($0)%" } ?? "")
  }

  /// How strong a signal looks: the bar height of the RSRP when it is believed, else the
  /// device's percentage when it is; `nil` when neither is (a view's tone then stays neutral).
  public static func signalLevel(percent: Int64?, dBm: Double?) -> Int64? {
    DeviceReading.decibels.checked(dBm).map(Self.percent(rsrp:))
      ?? DeviceReading.percent.checked(percent)
  }

  /// A bar height for an RSRP in dBm: −125 dBm or less is empty, −75 dBm or more full,
  /// linear between (the usual LTE/NR reading: above −80 excellent, below −110 poor).
  public static func percent(rsrp: Double) -> Int64 {
    guard rsrp.isFinite else { return 0 }
    return Int64(min(100, max(0, ((rsrp + 125) * 2).rounded())))
  }

  /// A temperature: `48.5 °C`; ``unknown`` outside ``DeviceReading/celsius``.
  public static func temperature(_ celsius: Double) -> String {
    guard let celsius = DeviceReading.celsius.checked(celsius) else { return unknown }
    return String(format: "%.1f °C", celsius)
  }

  /// A percentage with one decimal: `41.2%`; ``unknown`` outside 0–100.
  public static func percent(_ value: Double) -> String {
    guard let value = DeviceReading.percent.checked(value) else { return unknown }
    return String(format: "%.1f%%", value)
  }

  /// A number of `reading` without a trailing `.0`: `-95`, `12.5`; ``unknown`` outside its
  /// range.
  public static func number(_ value: Double, _ reading: DeviceReading) -> String {
    guard let value = reading.checked(value) else { return unknown }
    if let whole = Int64(exactly: value) { return String(whole) }
    return String(format: "%.1f", value)
  }

  /// A count of `reading` (cores, retries) as written; ``unknown`` outside its range.
  public static func count(_ value: Int64?, _ reading: DeviceReading = .count) -> String {
    reading.checked(value).map { String($0) } ?? unknown
  }

  /// The identifier mask used in overviews (IMEI, ICCID, IMSI, serials):
  ///
  /// - empty → `—`;
  /// - up to 8 characters → all but the last 2 replaced by `•`;
  /// - longer → the first 4 and the last 4 kept, every character between replaced by `•`
  ///   (`861234567890123` → `8612•••••••0123`).
  public static func maskIdentifier(_ identifier: String) -> String {
    let characters = Array(identifier)
    guard !characters.isEmpty else { return "—" }
    if characters.count <= 8 {
      let kept = min(2, characters.count)
      return String(repeating: "•", count: characters.count - kept)
        + String(characters.suffix(kept))
    }
    return String(characters.prefix(4)) + String(repeating: "•", count: characters.count - 8)
      + String(characters.suffix(4))
  }

  /// An identifier shown in full (detail views): `—` when the device sent none.
  public static func identifier(_ identifier: String) -> String {
    identifier.isEmpty ? "—" : identifier
  }

  /// `HH:mm:ss` of `date` in `timeZone`.
  public static func time(_ date: Date, timeZone: TimeZone) -> String {
    CivilTime(date, offsetSeconds: timeZone.secondsFromGMT(for: date)).timeText
  }

  /// How long ago `date` was: `just now`, `12 s ago`, `3 min ago`, `2 h ago`, `4 d ago`.
  public static func age(of date: Date, now: Date, _ language: AppLanguage) -> String {
    // A date from a device may lie anywhere: the interval is bounded before it becomes an Int.
    let interval = now.timeIntervalSince(date)
    let seconds = interval.isFinite ? Int(min(max(0, interval), 1e15)) : 0
    let (key, value): (String, Int) =
      switch seconds {
      case ..<1: ("format.age.now", 0)
      case ..<60: ("format.age.seconds", seconds)
      case ..<3600: ("format.age.minutes", seconds / 60)
      case ..<86_400: ("format.age.hours", seconds / 3600)
      default: ("format.age.days", seconds / 86_400)
      }
    return DeviceModulesStrings.text(key, language, ["value": String(value)])
  }

  /// Yes / no in `language`.
  public static func yesNo(_ value: Bool, _ language: AppLanguage) -> String {
    DeviceModulesStrings.text(value ? "value.yes" : "value.no", language)
  }
}
