/// Raised when a value in a response can only be settled by `JSONDecoder`'s own rules (a
/// number it reads through `Decimal`), or has a shape the `Decodable` conformance refuses; the
/// whole response then goes to `JSONDecoder`.
struct JSONUndecided: Error {}

/// The tolerant readers of `LenientDecoding.swift`, reading the value at a ``JSONCursor``:
/// each gives what its `KeyedDecodingContainer` twin gives for the same JSON under
/// `JSONDecoder`, and consumes the value whatever it is.
extension JSONCursor {
  /// `lenientOptionalString`: a string as is; a number as the text of its `Int64` or else its
  /// `Double`; a boolean as `"true"`/`"false"`; `nil` for anything else.
  @inline(__always)
  mutating func lenientOptionalString() throws -> String? {
    // A string is by far the most common; the rest is not inlined.
    if startsString { return try readString() }
    return try lenientOptionalStringOfOtherKind()
  }

  private mutating func lenientOptionalStringOfOtherKind() throws -> String? {
    switch try peek() {
    case .string:
      return try readString()
    case .number:
      let text: String
      switch try readNumberValue() {
      case .integer(let value): return String(value)
      case .text(let other): text = other
      }
      switch JSONNumberText.int64(text) {
      case .value(let value): return String(value)
      case .undecided: throw JSONUndecided()
      case .unreadable: return JSONNumberText.double(text).map { String($0) }
      }
    case .bool:
      return String(try readBool())
    case .null:
      try readNull()
      return nil
    case .array, .object:
      try skipValue()
      return nil
    }
  }

  /// `lenientInt`: a number as its `Int64`, or else its `Double`; text through its leading
  /// number; a finite `Double` below 9e18 in magnitude is rounded toward zero.
  mutating func lenientInt() throws -> Int64? {
    if let value = readPlainInteger() { return value }
    let double: Double?
    switch try peek() {
    case .number:
      let text: String
      switch try readNumberValue() {
      case .integer(let value): return value
      case .text(let other): text = other
      }
      switch JSONNumberText.int64(text) {
      case .value(let value): return value
      case .undecided: throw JSONUndecided()
      case .unreadable: double = JSONNumberText.double(text)
      }
    case .string:
      // The very function the Codable path uses, so text ids read identically.
      double = KeyedDecodingContainer<SmsMessage.CodingKeys>.leadingNumber(in: try readString())
    case .bool, .null, .array, .object:
      try skipValue()
      return nil
    }
    guard let double, double.isFinite, abs(double) < 9e18 else { return nil }
    return Int64(double.rounded(.towardZero))
  }
}
