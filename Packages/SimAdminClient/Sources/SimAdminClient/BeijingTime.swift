import Foundation

/// SimAdmin's SMS clock: `YYYY-MM-DD HH:MM:SS` in Beijing time (UTC+8) with no offset.
///
/// `"2026-01-01 00:30:00"` is the instant 2025-12-31T16:30:00Z. Pure arithmetic: no
/// formatter, no time-zone database, no locale.
public enum BeijingTime {
  /// Beijing's offset from UTC, seconds.
  public static let offsetSeconds = 8 * 3600

  /// The instant a device timestamp names, or `nil` when it is not `YYYY-MM-DD HH:MM:SS`
  /// (a `T` separator and fractional seconds are accepted).
  public static func date(from text: String) -> Date? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "T" })
    guard parts.count == 2 else { return nil }
    let day = parts[0].split(separator: "-", omittingEmptySubsequences: false)
    let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
    guard day.count == 3, time.count == 3,
      let year = Int(day[0]), let month = Int(day[1]), let dayOfMonth = Int(day[2]),
      let hour = Int(time[0]), let minute = Int(time[1]),
      let second = Double(time[2])
    else { return nil }
    guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(dayOfMonth),
      (0...23).contains(hour), (0...59).contains(minute), second >= 0, second < 61
    else { return nil }
    let days = daysFromCivil(year: year, month: month, day: dayOfMonth)
    let local = Double(days * 86_400 + hour * 3_600 + minute * 60) + second
    return Date(timeIntervalSince1970: local - Double(offsetSeconds))
  }

  /// The device-style text of `date` in Beijing time (whole seconds, truncated).
  public static func string(from date: Date) -> String {
    let local = Int64(floor(date.timeIntervalSince1970)) + Int64(offsetSeconds)
    let days = Int(floorDiv(local, 86_400))
    let secondsOfDay = Int(local - Int64(days) * 86_400)
    let (year, month, day) = civilFromDays(days)
    let pad = { (value: Int, width: Int) -> String in
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) "
      + "\(pad(secondsOfDay / 3600, 2)):\(pad(secondsOfDay % 3600 / 60, 2)):"
      + "\(pad(secondsOfDay % 60, 2))"
  }

  // MARK: - Calendar arithmetic (Howard Hinnant's civil-date algorithms)

  static func floorDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
    value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
