import Foundation

/// How a command-line option names a time or a length of time, the same everywhere:
/// `--since 7d`, `--until 2026-01-31`, `--expires-in 30m`.
///
/// A length of time is a non-negative number with an optional unit (`s`, `m`, `h`, `d`, `w`)
/// and at most ``longest`` (100 years): every point it names, and every wait in nanoseconds,
/// fits the integers dates and timers are stored in, so no value typed can crash a command.
public enum TimeArgument {
  /// Why a value is not a length of time or a point in time.
  public enum Problem: String, Error, Sendable, Equatable, CaseIterable {
    /// Not of the form (`7x`, `yesterday`, `2026-02-30`).
    case malformed
    /// A length of time below zero (`-5d`): lengths count back from now, so they are positive.
    case negative
    /// Longer than ``TimeArgument/longest``.
    case tooLong
  }

  /// The longest length of time accepted: 36,525 days (100 years). Past it a length means
  /// nothing a user could want, and its nanoseconds no longer fit the integers timers use.
  public static let longest: TimeInterval = 36_525 * 86_400
  /// ``longest``, under the name an earlier version gave it.
  public static var longestSeconds: TimeInterval { longest }
  /// ``longest`` as the user writes it.
  public static let longestText = "36525d"

  /// `90`, `90s`, `30m`, `12h`, `7d`, `2w` → seconds; nil for anything else (negative, longer
  /// than ``longest``, not finite).
  public static func seconds(_ text: String) -> TimeInterval? {
    try? duration(text).get()
  }

  /// `90`, `90s`, `30m`, `12h`, `7d`, `2w` → seconds, or why not.
  public static func duration(_ text: String) -> Result<TimeInterval, Problem> {
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
    var number = Substring(trimmed)
    var unit = 1.0
    if let last = trimmed.last, let factor = units[last] {
      number = number.dropLast()
      unit = factor
    }
    var negative = false
    if number.first == "-" {
      negative = true
      number = number.dropFirst()
    }
    guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      let value = Double(number)
    else { return .failure(.malformed) }
    if negative && value > 0 { return .failure(.negative) }
    let seconds = value * unit
    guard seconds.isFinite, seconds <= longest else { return .failure(.tooLong) }
    return .success(seconds)
  }

  /// A point in time: a length of time before `now` (`7d`, `12h`, `30m`), a day
  /// (`YYYY-MM-DD`, midnight in `timeZone`; with `endOfDay`, the following midnight so that
  /// the whole day is included), or ISO 8601 with an offset (`2026-01-01T08:00:00+08:00`,
  /// `…Z`, fractional seconds allowed). Nil for anything else.
  public static func date(
    _ text: String, now: Date, endOfDay: Bool = false, timeZone: TimeZone = .current
  ) -> Date? {
    try? pointInTime(text, now: now, endOfDay: endOfDay, timeZone: timeZone).get()
  }

  /// ``date(_:now:endOfDay:timeZone:)``, or why the text is not a point in time.
  public static func pointInTime(
    _ text: String, now: Date, endOfDay: Bool = false, timeZone: TimeZone = .current
  ) -> Result<Date, Problem> {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let last = trimmed.last, last.isLetter {
      switch duration(trimmed) {
      case .success(let seconds): return .success(now.addingTimeInterval(-seconds))
      // Not a length of time: an instant ending in `Z` is read below.
      case .failure(.malformed): break
      case .failure(let problem): return .failure(problem)
      }
    }
    let dayParts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
    if trimmed.count == 10, dayParts.count == 3, let year = Int(dayParts[0]),
      let month = Int(dayParts[1]), let day = Int(dayParts[2])
    {
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = timeZone
      let components = DateComponents(year: year, month: month, day: day)
      if components.isValidDate(in: calendar), let start = calendar.date(from: components) {
        return .success(
          endOfDay ? calendar.date(byAdding: .day, value: 1, to: start) ?? start : start)
      }
      return .failure(.malformed)
    }
    for options in [
      ISO8601DateFormatter.Options.withInternetDateTime,
      [.withInternetDateTime, .withFractionalSeconds],
    ] {
      let formatter = ISO8601DateFormatter()
      formatter.formatOptions = options
      if let date = formatter.date(from: trimmed) { return .success(date) }
    }
    return .failure(.malformed)
  }
}
