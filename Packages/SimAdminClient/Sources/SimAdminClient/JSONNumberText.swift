/// Converts a JSON number's text the way Foundation's `JSONDecoder` does.
enum JSONNumberText {
  /// What an `Int64` reading of a number gives.
  enum Int64Reading: Equatable {
    /// The value.
    case value(Int64)
    /// `JSONDecoder` throws for this number.
    case unreadable
    /// A whole number of 2^53 or more written with a fraction or an exponent: `JSONDecoder`
    /// reads those through `Decimal`, whose rules are not repeated here.
    case undecided
  }

  /// 2^53: below it every whole `Double` is exact and `JSONDecoder` takes it as is.
  static let exactDoubleLimit = 9_007_199_254_740_992.0

  /// `text` as an `Int64`: an integer literal exactly; otherwise through its `Double` value
  /// (Foundation's `_slowpath_unwrapFixedWidthInteger`).
  static func int64(_ text: String) -> Int64Reading {
    if let literal = integerLiteral(text) { return .value(literal) }
    guard let double = Double(text), let value = Int64(exactly: double) else {
      return .unreadable
    }
    return double.magnitude < exactDoubleLimit ? .value(value) : .undecided
  }

  /// `text` as a `Double`: finite, and zero only when every digit before the exponent is zero.
  static func double(_ text: String) -> Double? {
    guard let value = Double(text), value.isFinite else { return nil }
    if value == 0 && !isTrueZero(text) { return nil }
    return value
  }

  /// `-?[0-9]+` that fits an `Int64`, or `nil`.
  static func integerLiteral(_ text: String) -> Int64? {
    var text = text
    return text.withUTF8 { integerLiteral($0) }
  }

  /// `-?[0-9]+` that fits an `Int64`, or `nil`.
  static func integerLiteral(_ utf8: UnsafeBufferPointer<UInt8>) -> Int64? {
    var digits = utf8[...]
    let negative = digits.first == UInt8(ascii: "-")
    if negative { digits = digits.dropFirst() }
    guard !digits.isEmpty else { return nil }
    // Accumulated negatively so that Int64.min fits.
    var value: Int64 = 0
    for byte in digits {
      let digit = Int64(byte) &- 48
      guard digit >= 0 && digit <= 9 else { return nil }
      let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) = shifted.subtractingReportingOverflow(digit)
      guard !overflow1 && !overflow2 else { return nil }
      value = next
    }
    if negative { return value }
    return value == .min ? nil : -value
  }

  /// Whether no digit `1`–`9` comes before the exponent.
  static func isTrueZero(_ text: String) -> Bool {
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "1")...UInt8(ascii: "9"): return false
      case UInt8(ascii: "e"), UInt8(ascii: "E"): return true
      default: continue
      }
    }
    return true
  }
}
