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
  /// Computed with Essentials' integer ``CivilTime`` rather than a `DateFormatter`: making one
  /// formatter per call cost about half the time of rendering a 200-row message list.
  public func format(_ date: Date) -> String {
    CivilTime(date, offsetSeconds: timeZone.secondsFromGMT(for: date)).text(seconds: false)
  }
}
