import Foundation

/// The conversation key of a peer number: the rule that makes `+86 138-0013-8000`,
/// `008613800138000` and `13800138000` one conversation.
///
/// 1. Spaces, dashes, dots and parentheses are dropped.
/// 2. `+86` or `0086` followed by an 11-digit mobile number starting with `1` becomes the bare
///    11 digits.
/// 3. Anything else (short codes such as `10086`, other countries' numbers, alphanumeric
///    sender names) is kept as it is, with letters case-folded (`Google` → `google`).
public enum PeerNumber {
  /// The normalized key of `raw`.
  public static func key(_ raw: String) -> String {
    let dropped: Set<Character> = [" ", "-", "(", ")", ".", "\u{00A0}", "\t"]
    let compact = String(raw.filter { !dropped.contains($0) })
    for prefix in ["+86", "0086"] where compact.hasPrefix(prefix) {
      let rest = compact.dropFirst(prefix.count)
      if rest.count == 11, rest.first == "1", rest.allSatisfy({ $0.isASCII && $0.isNumber }) {
        return String(rest)
      }
    }
    return compact.lowercased()
  }

  /// Why `text` cannot be a number to send to, or nil when it can.
  ///
  /// Accepted: an optional leading `+`, then digits with optional spaces, dashes and
  /// parentheses; 3 to 20 digits in all.
  public static func problem(sending text: String) -> SendNumberProblem? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty { return .empty }
    var digits = 0
    for (offset, character) in trimmed.enumerated() {
      if character.isASCII && character.isNumber {
        digits += 1
      } else if character == "+" && offset == 0 {
        continue
      } else if [" ", "-", "(", ")"].contains(character) {
        continue
      } else {
        return .invalidCharacter(character)
      }
    }
    return (3...20).contains(digits) ? nil : .digitCount(digits)
  }
}

/// What is wrong with a number given to send to.
public enum SendNumberProblem: Sendable, Equatable {
  /// Nothing was given.
  case empty
  /// A letter or symbol where only digits belong.
  case invalidCharacter(Character)
  /// Too few or too many digits (3–20 are accepted).
  case digitCount(Int)
}
