import Foundation

/// How a command-line option names a time or a length of time, the same everywhere:
/// `--since 7d`, `--until 2026-01-31`, `--expires-in 30m`.
public enum TimeArgument {
  /// The longest length of time accepted: 10,000 years, in seconds. Past it a length means
  /// nothing a user could want, and its milliseconds or nanoseconds no longer fit an integer
  /// (`--wait 99999999999999999999d` crashed converting its deadline).
  public static let longestSeconds: TimeInterval = 315_576_000_000

  /// `90`, `90s`, `30m`, `12h`, `7d` → seconds; nil for anything else (or a negative,
  /// non-finite or longer than ``longestSeconds`` amount).
  public static func seconds(_ text: String) -> TimeInterval? {
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
    var number = Substring(trimmed)
    var unit = 1.0
    if let last = trimmed.last, let factor = units[last] {
      number = number.dropLast()
      unit = factor
    }
    guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      let value = Double(number), value >= 0, value.isFinite, value * unit <= longestSeconds
    else { return nil }
    return value * unit
  }

  /// A point in time: a length of time before `now` (`7d`, `12h`, `30m`), a day
  /// (`YYYY-MM-DD`, midnight in `timeZone`; with `endOfDay`, the following midnight so that
  /// the whole day is included), or ISO 8601 with an offset (`2026-01-01T08:00:00+08:00`,
  /// `…Z`, fractional seconds allowed). Nil for anything else.
  public static func date(
    _ text: String, now: Date, endOfDay: Bool = false, timeZone: TimeZone = .current
  ) -> Date? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let last = trimmed.last, last.isLetter, let seconds = seconds(trimmed) {
      return now.addingTimeInterval(-seconds)
    }
    let dayParts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
    if trimmed.count == 10, dayParts.count == 3, let year = Int(dayParts[0]),
      let month = Int(dayParts[1]), let day = Int(dayParts[2])
    {
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = timeZone
      let components = DateComponents(year: year, month: month, day: day)
      if components.isValidDate(in: calendar), let start = calendar.date(from: components) {
        return endOfDay ? calendar.date(byAdding: .day, value: 1, to: start) ?? start : start
      }
      return nil
    }
    for options in [
      ISO8601DateFormatter.Options.withInternetDateTime,
      [.withInternetDateTime, .withFractionalSeconds],
    ] {
      let formatter = ISO8601DateFormatter()
      formatter.formatOptions = options
      if let date = formatter.date(from: trimmed) { return date }
    }
    return nil
  }
}
