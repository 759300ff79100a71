import Foundation
import SimAdminClient

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

  /// Why `text` cannot be a number to send to, or nil when it can
  /// (``SmsRecipient/normalized(_:)``: an optional leading `+`, then 3 to 20 digits with
  /// optional spaces, dashes, dots and parentheses).
  public static func problem(sending text: String) -> SendNumberProblem? {
    do {
      _ = try SmsRecipient.normalized(text)
      return nil
    } catch {
      return error
    }
  }
}

/// What is wrong with a number given to send to.
public typealias SendNumberProblem = SmsRecipient.Problem
