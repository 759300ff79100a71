import Essentials
import Foundation

/// What the archive makes of a device's SMS timestamp (SIMADMIN-API §6), which it never
/// trusts blindly.
///
/// SimAdmin writes `YYYY-MM-DD HH:MM:SS` in Beijing time; v1.0.0–1.0.5 wrote RFC 3339 in UTC
/// (`2026-05-19T08:17:25.123456789+00:00`, chrono's `to_rfc3339`), which v1.0.6 rewrites to
/// the Beijing form on upgrade. Both name an instant. Anything else (`""`,
/// `0000-00-00 00:00:00`, `2026-02-30 10:00:00`, an epoch number), and any instant more than
/// ``futureTolerance`` ahead of the archive's clock, is not a time: the archive keeps the
/// device's text as written and places the message by when it first archived it, marked
/// approximate (`time_approximate`).
public enum DeviceTime {
  /// How far ahead of the archive's clock a device time may lie and still be believed: a day.
  public static let futureTolerance: TimeInterval = 86_400

  /// The instant `text` names: the Beijing form (``BeijingTime/date(from:)``), or RFC 3339
  /// with an offset (`Z`, `±HH:MM`, `±HHMM`, `±HH`, a space or `T` between date and time,
  /// fractional seconds); nil for anything else.
  public static func instant(_ text: String) -> Date? {
    if let date = BeijingTime.date(from: text) { return date }
    return rfc3339(text)
  }

  /// The instant `text` names when the archive can believe it at `now`: parsed, and at most
  /// ``futureTolerance`` after `now`.
  public static func trusted(_ text: String, now: Date) -> Date? {
    guard let date = instant(text), date.timeIntervalSince(now) <= futureTolerance else {
      return nil
    }
    return date
  }

  /// The instant `text` names, truncated to the second, as the Beijing form: two texts of one
  /// message before and after v1.0.6's rewrite give the same string. Nil when `text` names no
  /// instant.
  static func canonical(_ text: String) -> String? {
    instant(text).map { BeijingTime.string(from: $0) }
  }

  /// RFC 3339 with an explicit offset.
  static func rfc3339(_ text: String) -> Date? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let scalars = Array(trimmed.unicodeScalars)
    // `YYYY-MM-DD` + separator + `HH:MM:SS` is 19 scalars; the offset comes after.
    guard scalars.count > 19, scalars[10] == "T" || scalars[10] == "t" || scalars[10] == " "
    else { return nil }
    var end = 19
    var fraction = 0.0
    if scalars[19] == "." {
      var digits = ""
      end = 20
      while end < scalars.count, ("0"..."9").contains(scalars[end]) {
        digits.unicodeScalars.append(scalars[end])
        end += 1
      }
      guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
      fraction = value
    }
    let offsetText = String(String.UnicodeScalarView(scalars[end...]))
    let offset: Int
    if offsetText == "Z" || offsetText == "z" {
      offset = 0
    } else {
      guard let sign = offsetText.first, sign == "+" || sign == "-" else { return nil }
      let body = offsetText.dropFirst()
      let digits: String
      switch body.count {
      case 2, 4: digits = String(body)
      case 5 where body.dropFirst(2).first == ":": digits = String(body.prefix(2) + body.suffix(2))
      default: return nil
      }
      guard digits.allSatisfy(\.isDigitASCII), let hours = Int(digits.prefix(2)),
        let minutes = Int(digits.count == 4 ? digits.suffix(2) : "0"), hours <= 23, minutes <= 59
      else { return nil }
      offset = (sign == "-" ? -1 : 1) * (hours * 3_600 + minutes * 60)
    }
    let head = String(String.UnicodeScalarView(scalars[0..<19]))
    let day = head.prefix(10).split(separator: "-", omittingEmptySubsequences: false)
    let time = head.suffix(8).split(separator: ":", omittingEmptySubsequences: false)
    guard day.count == 3, time.count == 3, day[0].count == 4,
      [day[1], day[2], time[0], time[1], time[2]].allSatisfy({ $0.count == 2 }),
      (day + time).allSatisfy({ $0.allSatisfy(\.isDigitASCII) }),
      let year = Int(day[0]), let month = Int(day[1]), let dayOfMonth = Int(day[2]),
      let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]),
      let reading = CivilTime(
        year: year, month: month, day: dayOfMonth, hour: hour, minute: minute, second: second)
    else { return nil }
    return reading.instant(offsetSeconds: offset).addingTimeInterval(fraction)
  }
}

extension Character {
  /// `0`–`9` and nothing else.
  fileprivate var isDigitASCII: Bool { isASCII && isNumber }
}
