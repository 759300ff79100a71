import Essentials
import Foundation

/// Ages in words: "just now", "5 min ago", "3 h ago", "2 d ago".
enum Freshness {
  /// How long before `now` `date` was, in `language`.
  static func age(of date: Date, now: Date, _ language: AppLanguage) -> String {
    let seconds = max(0, Int(now.timeIntervalSince(date)))
    switch seconds {
    case ..<60: return FleetStrings.text("age.justNow", language)
    case ..<3600:
      return FleetStrings.text("age.minutes", language, ["n": String(seconds / 60)])
    case ..<86_400:
      return FleetStrings.text("age.hours", language, ["n": String(seconds / 3600)])
    default:
      return FleetStrings.text("age.days", language, ["n": String(seconds / 86_400)])
    }
  }

  /// The freshness of a row's values: "never tested", "2 min ago", or "stale, 5 min ago".
  static func describe(_ row: FleetRow, now: Date, _ language: AppLanguage) -> String {
    guard let checked = row.checkedAt else {
      return FleetStrings.text("freshness.never", language)
    }
    if row.isStale, let fetched = row.snapshotFetchedAt {
      return FleetStrings.text(
        "freshness.stale", language, ["age": age(of: fetched, now: now, language)])
    }
    return age(of: checked, now: now, language)
  }
}
