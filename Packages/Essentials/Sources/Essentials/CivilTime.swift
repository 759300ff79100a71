import Foundation

/// A wall-clock reading: a day of the proleptic Gregorian calendar and a second of that day,
/// at some offset from UTC.
///
/// Pure integer arithmetic (Howard Hinnant's civil-date algorithms): no formatter, no calendar,
/// no time-zone database, no locale. Formatting an instant this way is several times cheaper
/// than a `DateFormatter`, which matters where thousands of timestamps are written or shown
/// (the simulator's SMS lists, the message archive's tables).
public struct CivilTime: Sendable, Hashable {
  /// The year (may be zero or negative: the proleptic calendar).
  public var year: Int
  /// The month, 1–12.
  public var month: Int
  /// The day of the month, 1–31.
  public var day: Int
  /// Seconds since midnight, 0–86 399.
  public var secondOfDay: Int

  /// The reading at `offsetSeconds` from UTC of `instant`, its fraction of a second dropped
  /// (towards the past, also before 1970). An instant further than ``farthestSeconds`` from
  /// 1970 reads as that far (a date no calendar shows), never trapping.
  public init(_ instant: Date, offsetSeconds: Int) {
    let interval = instant.timeIntervalSince1970
    let bounded =
      interval.isNaN ? 0 : min(max(interval, -Self.farthestSeconds), Self.farthestSeconds)
    let local = Int(bounded.rounded(.down)) + offsetSeconds
    let days = Self.floorDivide(local, 86_400)
    secondOfDay = local - days * 86_400
    (year, month, day) = Self.civil(daysSince1970: days)
  }

  /// How far from 1970 an instant is read: 10^14 seconds, some three million years.
  public static let farthestSeconds: Double = 1e14

  /// A reading from its fields, or `nil` when one is out of range (31 April, 25:00).
  public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
    guard (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day),
      (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
    secondOfDay = hour * 3_600 + minute * 60 + second
  }

  /// Days from 1970-01-01 to this reading's day (negative before it).
  public var daysSince1970: Int {
    let y = month <= 2 ? year - 1 : year
    let era = Self.floorDivide(y, 400)
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The instant this reading names at `offsetSeconds` from UTC.
  public func instant(offsetSeconds: Int) -> Date {
    Date(timeIntervalSince1970: Double(daysSince1970 * 86_400 + secondOfDay - offsetSeconds))
  }

  /// `yyyy-MM-dd HH:mm:ss`, or `yyyy-MM-dd HH:mm` without `seconds`.
  public func text(seconds: Bool = true) -> String {
    var bytes = [UInt8](repeating: UInt8(ascii: "0"), count: seconds ? 19 : 16)
    func put(_ value: Int, at index: Int, width: Int) {
      var rest = abs(value)
      for position in stride(from: index + width - 1, through: index, by: -1) {
        bytes[position] = UInt8(48 + rest % 10)
        rest /= 10
      }
    }
    put(year, at: 0, width: 4)
    put(month, at: 5, width: 2)
    put(day, at: 8, width: 2)
    put(secondOfDay / 3_600, at: 11, width: 2)
    put(secondOfDay / 60 % 60, at: 14, width: 2)
    bytes[4] = UInt8(ascii: "-")
    bytes[7] = UInt8(ascii: "-")
    bytes[10] = UInt8(ascii: " ")
    bytes[13] = UInt8(ascii: ":")
    if seconds {
      bytes[16] = UInt8(ascii: ":")
      put(secondOfDay % 60, at: 17, width: 2)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    if year < 0 { return "-" + text }
    return year > 9999 ? "\(year)" + text.dropFirst(4) : text
  }

  /// `HH:mm:ss`, the time of day alone.
  public var timeText: String { String(text().suffix(8)) }

  /// How many days `month` of `year` has.
  public static func days(inMonth month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  // MARK: - Calendar arithmetic

  static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
    value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
  }

  /// Year, month and day of the day `days` after 1970-01-01 (Hinnant's `civil_from_days`).
  static func civil(daysSince1970 days: Int) -> (Int, Int, Int) {
    let shifted = days + 719_468
    let era = floorDivide(shifted, 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}

/// SimAdmin's SMS clock: `YYYY-MM-DD HH:MM:SS` in Beijing time (UTC+8) with no offset.
///
/// `"2026-01-01 00:30:00"` is the instant 2025-12-31T16:30:00Z. The client reads it, the
/// simulator writes it; both use this one definition (see ``CivilTime``).
public enum BeijingTime {
  /// Beijing's offset from UTC, seconds.
  public static let offsetSeconds = 8 * 3_600

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
      let second = Double(time[2]), second >= 0, second < 61,
      let reading = CivilTime(
        year: year, month: month, day: dayOfMonth, hour: hour, minute: minute, second: 0)
    else { return nil }
    return reading.instant(offsetSeconds: offsetSeconds).addingTimeInterval(second)
  }

  /// The device-style text of `date` in Beijing time (whole seconds, truncated).
  public static func string(from date: Date) -> String {
    CivilTime(date, offsetSeconds: offsetSeconds).text()
  }
}
