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
    var bytes = [UInt8](repeating: 0, count: 19)
    func put(_ value: Int64, at index: Int, width: Int) {
      var rest = value
      for position in stride(from: index + width - 1, through: index, by: -1) {
        bytes[position] = UInt8(48 + rest % 10)
        rest /= 10
      }
    }
    put(year, at: 0, width: 4)
    put(month, at: 5, width: 2)
    put(day, at: 8, width: 2)
    put(secondOfDay / 3600, at: 11, width: 2)
    put(secondOfDay / 60 % 60, at: 14, width: 2)
    put(secondOfDay % 60, at: 17, width: 2)
    bytes[4] = UInt8(ascii: "-")
    bytes[7] = UInt8(ascii: "-")
    bytes[10] = UInt8(ascii: " ")
    bytes[13] = UInt8(ascii: ":")
    bytes[16] = UInt8(ascii: ":")
    return String(decoding: bytes, as: UTF8.self)
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
