import Essentials
import Foundation

/// Dates as the log center shows and reads them: UTC, so output does not depend on the
/// machine's time zone.
enum LogTime {
  private static var utc: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar
  }

  /// `2026-01-01 08:30:05Z`.
  static func display(_ date: Date) -> String {
    let parts = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func pad(_ value: Int?, _ width: Int = 2) -> String {
      let text = String(value ?? 0)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(parts.year, 4))-\(pad(parts.month))-\(pad(parts.day)) "
      + "\(pad(parts.hour)):\(pad(parts.minute)):\(pad(parts.second))Z"
  }

  /// `2026-01-01T08:30:05Z`.
  static func iso(_ date: Date) -> String {
    display(date).replacingOccurrences(of: " ", with: "T")
  }

  /// `20260101T083005Z`, for file names.
  static func stamp(_ date: Date) -> String {
    iso(date).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
  }

  /// Parses a `--since` / `--until` value: an ISO-8601 instant (`2026-01-01T08:00:00Z`,
  /// with an offset or fractional seconds), a UTC day (`2026-01-01`), or a span before `now`
  /// (`30m`, `12h`, `7d`).
  static func parse(_ text: String, now: Date) -> Date? {
    let value = text.trimmingCharacters(in: .whitespaces)
    if let unit = value.last, "smhd".contains(unit), let amount = Int(value.dropLast()),
      amount >= 0
    {
      let seconds: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
      return now.addingTimeInterval(-Double(amount) * (seconds[unit] ?? 1))
    }
    let full = ISO8601DateFormatter()
    if let date = full.date(from: value) { return date }
    full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = full.date(from: value) { return date }
    let day = ISO8601DateFormatter()
    day.formatOptions = [.withFullDate]
    day.timeZone = TimeZone(identifier: "UTC")
    return day.date(from: value)
  }
}
