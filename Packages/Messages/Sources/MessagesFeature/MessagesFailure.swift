import Essentials
import Foundation
import SimAdminClient

/// A bad input or refused request of a messages command, explained in either language.
public struct MessagesFailure: LocalizedFailure, Equatable, CustomStringConvertible {
  /// The catalogue key.
  public let key: String
  /// The placeholder values.
  public let arguments: [String: String]

  /// A failure with a message from this package's catalogue.
  public init(_ key: String, _ arguments: [String: String] = [:]) {
    self.key = key
    self.arguments = arguments
  }

  public func localizedMessage(_ language: AppLanguage) -> String {
    MessagesStrings.text(key, language, arguments)
  }

  /// The last part of the catalogue key.
  public var failureCode: String { FailureCode.of(key: key) }

  /// The English message.
  public var description: String { localizedMessage(.english) }
}

/// The rules for text to send.
public enum SendText {
  /// The longest text accepted, in characters (as people count them: one Chinese character
  /// or one emoji is one). ModemManager splits anything over one SMS into parts; 1,000
  /// characters is at most 15 UCS-2 parts, which devices accept.
  public static let maximumLength = 1_000

  /// Refuses empty (or whitespace-only) text and text over ``maximumLength``.
  public static func validate(_ text: String) throws(MessagesFailure) {
    if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      throw MessagesFailure("error.emptyText")
    }
    if text.count > maximumLength {
      throw MessagesFailure(
        "error.textTooLong",
        ["count": String(text.count), "limit": String(maximumLength)])
    }
  }

  /// Refuses numbers that cannot be sent to (letters, too few or too many digits).
  public static func validate(number: String) throws(MessagesFailure) {
    _ = try normalized(number: number)
  }

  /// The number as it is sent (``SmsRecipient/normalized(_:)``), or why it cannot be.
  public static func normalized(number: String) throws(MessagesFailure) -> String {
    let problem: SendNumberProblem
    do { return try SmsRecipient.normalized(number) } catch { problem = error }
    switch problem {
    case .empty: throw MessagesFailure("error.emptyNumber")
    case .invalidCharacter(let character):
      throw MessagesFailure(
        "error.numberCharacter", ["number": number, "character": String(character)])
    case .digitCount(let count):
      throw MessagesFailure("error.numberDigits", ["number": number, "count": String(count)])
    }
  }
}

/// Reads `--since` / `--until` values.
public enum DateArgument {
  /// A length of time before `now` (`7d`, `12h`, `30m`), `YYYY-MM-DD` (midnight in
  /// `timeZone`; for an end, the following midnight so the whole day is included) or ISO 8601
  /// with an offset (`2026-01-01T08:00:00+08:00`, `…Z`, fractional seconds allowed): the
  /// same forms every time option accepts (``TimeArgument``).
  public static func parse(
    _ text: String, option: String, endOfDay: Bool, timeZone: TimeZone, now: Date
  ) throws(MessagesFailure) -> Date {
    guard let date = TimeArgument.date(text, now: now, endOfDay: endOfDay, timeZone: timeZone)
    else { throw MessagesFailure("error.badDate", ["option": option, "value": text]) }
    return date
  }
}
