import Essentials
import Foundation

/// Dates as the log center shows and reads them: UTC, so output does not depend on the
/// machine's time zone.
enum LogTime {
  /// `2026-01-01 08:30:05Z`.
  static func display(_ date: Date) -> String {
    CivilTime(date, offsetSeconds: 0).text() + "Z"
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
    TimeArgument.date(text, now: now, timeZone: TimeZone(identifier: "UTC") ?? .current)
  }

}
