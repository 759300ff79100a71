import Foundation
import SimAdminClient

/// The conversation key of a peer number: which senders are the same sender.
///
/// Only the documented forms of a mainland mobile number (``mobileForms``) equal the bare
/// number: `13800138000`, `+8613800138000`, `008613800138000`, `8613800138000`, each also
/// written in groups with single spaces or dashes (`+86 138-0013-8000`, `138 0013 8000`).
/// Every other sender — a short code (`10086`, `95588`, `1069…`), another country's number, an
/// alphanumeric name (`Google`) — is its own key, exactly as the device wrote it: `1-0086`,
/// `(10086)`, `10 086`, `10.086`, `-10086` and `google` are not `10086` and `Google` (issue
/// 36). Anyone can send from such a sender; merging them would put a stranger's message in a
/// bank's conversation and answer `msa code --from 10086` with it.
///
/// A formatted mobile form is at least 13 characters, more than an alphanumeric sender name
/// can hold (11), so no name can pass for a mobile number by its form.
public enum PeerNumber {
  /// What the documented mobile forms are, for messages and help.
  public static let mobileForms =
    "13800138000, +8613800138000, 008613800138000, 8613800138000 (also in groups: +86 138-0013-8000)"

  /// The normalized key of `raw`: the bare 11 digits of a mobile number in one of its
  /// documented forms, otherwise `raw` itself.
  public static func key(_ raw: String) -> String {
    mobile(raw) ?? raw
  }

  /// The bare 11 digits when `raw` is a documented form of a mainland mobile number: an
  /// optional `+86`, `0086` or `86`, then 11 digits starting with `1`; single spaces or dashes
  /// may stand between the country code and the number and between two digits, nowhere else.
  static func mobile(_ raw: String) -> String? {
    let bytes = Array(raw.utf8)
    guard bytes.count >= 11, bytes.count <= 24 else { return nil }
    var index = 0
    for prefix in ["+86", "0086", "86"] {
      let code = Array(prefix.utf8)
      // "86" alone only when 13 digits follow in all: 86 + the 11 of the number.
      if bytes.starts(with: code), prefix != "86" || digitCount(bytes) == 13 {
        index = code.count
        if index < bytes.count, isSeparator(bytes[index]) { index += 1 }
        break
      }
    }
    var digits: [UInt8] = []
    var previousWasDigit = false
    while index < bytes.count {
      let byte = bytes[index]
      if isDigit(byte) {
        digits.append(byte)
        previousWasDigit = true
      } else if isSeparator(byte), previousWasDigit, index + 1 < bytes.count,
        isDigit(bytes[index + 1])
      {
        previousWasDigit = false
      } else {
        return nil
      }
      index += 1
    }
    guard digits.count == 11, digits.first == UInt8(ascii: "1") else { return nil }
    return String(decoding: digits, as: UTF8.self)
  }

  /// What a typed beginning of a peer is looked up by (the shells' Tab key): after `+86` or
  /// `0086`, the digits of the mobile number it begins (`+86 138-00` → `13800`, as mobile
  /// numbers are keyed bare); anything else as typed, since every other sender is exact.
  static func keyPrefix(_ typed: String) -> String {
    for prefix in ["+86", "0086"] where typed.hasPrefix(prefix) {
      let digits = typed.dropFirst(prefix.count).filter { $0 != " " && $0 != "-" }
      guard digits.first == "1", digits.count <= 11,
        digits.allSatisfy({ $0.isASCII && $0.isNumber })
      else { return typed }
      return String(digits)
    }
    return typed
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private static func isSeparator(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-")
  }

  private static func digitCount(_ bytes: [UInt8]) -> Int {
    bytes.reduce(0) { $0 + (isDigit($1) ? 1 : 0) }
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
