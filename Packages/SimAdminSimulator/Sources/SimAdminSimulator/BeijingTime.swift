import Foundation

/// SimAdmin's SMS time format: `YYYY-MM-DD HH:MM:SS` in UTC+8 with no offset.
enum BeijingTime {
  static let offsetSeconds: Int64 = 8 * 3600

  /// Formats `date` as Beijing wall-clock time (no Foundation formatter: it is on the hot path).
  static func string(from date: Date) -> String {
    let seconds = Int64(date.timeIntervalSince1970.rounded(.down)) + offsetSeconds
    let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
    let secondOfDay = seconds - days * 86400
    let (year, month, day) = civil(fromDays: days)
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return
      "\(year)-\(two(month))-\(two(day)) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
  }

  /// Howard Hinnant's days-to-civil algorithm.
  static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthPrime = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
    let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }
}
