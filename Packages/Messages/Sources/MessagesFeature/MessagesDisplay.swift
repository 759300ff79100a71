import Essentials
import FeatureKit
import Foundation

/// How messages are shown: the time zone of displayed instants.
///
/// The app need not register it (the system's time zone is used); tests register a fixed one.
public struct MessagesDisplay: Sendable {
  /// The zone instants are shown in.
  public var timeZone: TimeZone

  /// Display settings.
  public init(timeZone: TimeZone = .current) {
    self.timeZone = timeZone
  }

  /// The registered settings, else the system time zone.
  public static func resolve(_ environment: AppEnvironment) -> MessagesDisplay {
    (try? environment.services.resolve(MessagesDisplay.self)) ?? MessagesDisplay()
  }

  /// `yyyy-MM-dd HH:mm` in ``timeZone`` (proleptic Gregorian calendar).
  ///
  /// Computed with integer arithmetic rather than a `DateFormatter`: making one formatter per
  /// call cost about half the time of rendering a 200-row message list.
  public func format(_ date: Date) -> String {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let local = seconds + timeZone.secondsFromGMT(for: date)
    let days = Self.floorDivide(local, 86_400)
    let secondOfDay = local - days * 86_400
    let (year, month, day) = Self.civilDate(daysSince1970: days)
    return "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2)) "
      + "\(Self.pad(secondOfDay / 3600, 2)):\(Self.pad(secondOfDay % 3600 / 60, 2))"
  }

  static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
    value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
  }

  /// Year, month and day of the day `days` after 1970-01-01 (H. Hinnant's `civil_from_days`).
  static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = floorDivide(shifted, 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
    return value < 0 ? "-" + padded : padded
  }
}

func text(_ key: String, _ language: AppLanguage, _ arguments: [String: String] = [:]) -> String {
  MessagesStrings.catalogue.text(key, language, arguments)
}

func localized(_ key: String, _ arguments: [String: String] = [:]) -> LocalizedString {
  LocalizedString(key, in: MessagesStrings.catalogue, arguments)
}
