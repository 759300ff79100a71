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

  /// `yyyy-MM-dd HH:mm` in ``timeZone``.
  public func format(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.string(from: date)
  }
}

func text(_ key: String, _ language: AppLanguage, _ arguments: [String: String] = [:]) -> String {
  MessagesStrings.catalogue.text(key, language, arguments)
}

func localized(_ key: String, _ arguments: [String: String] = [:]) -> LocalizedString {
  LocalizedString(key, in: MessagesStrings.catalogue, arguments)
}
