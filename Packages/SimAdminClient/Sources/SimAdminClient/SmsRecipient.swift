import Foundation

/// The one rule every command that sends an SMS applies to the number: what is accepted and
/// what is sent. SimAdmin stores an outgoing number exactly as given (SIMADMIN-API §6), so
/// `+86 138-0013-8000` must reach it as `+8613800138000`, and `abc` must never reach it.
public enum SmsRecipient {
  /// Why a number cannot be sent to.
  public enum Problem: Error, Sendable, Equatable {
    /// Nothing was given.
    case empty
    /// A letter or symbol where only digits belong.
    case invalidCharacter(Character)
    /// Too few or too many digits (3–20 are accepted).
    case digitCount(Int)
  }

  /// Characters dropped from a number: spaces, dashes, dots and parentheses.
  static let separators: Set<Character> = [" ", "-", "(", ")", ".", "\u{00A0}", "\t"]

  /// The number to send: an optional leading `+`, then 3 to 20 digits; the separators are
  /// removed (`+86 138-0013-8000` → `+8613800138000`).
  public static func normalized(_ text: String) throws(Problem) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw .empty }
    var result = ""
    var digits = 0
    for (offset, character) in trimmed.enumerated() {
      if character.isASCII && character.isNumber {
        digits += 1
        result.append(character)
      } else if character == "+" && offset == 0 {
        result.append(character)
      } else if !separators.contains(character) {
        throw .invalidCharacter(character)
      }
    }
    guard (3...20).contains(digits) else { throw .digitCount(digits) }
    return result
  }
}
