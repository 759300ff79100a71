import Essentials

extension JSONValue {
  /// The number as `JSONDecoder` reads an `Int64`: an integer literal that fits exactly; any
  /// other number (`1e3`, `34.0`) whose `Double` value is a whole number below 2^53 in
  /// magnitude. `nil` for anything else, including larger numbers written with a fraction or
  /// an exponent, and for values that are not numbers.
  public var int64Value: Int64? {
    guard case .number(let text) = self else { return nil }
    if case .value(let value) = JSONNumberText.int64(text) { return value }
    return nil
  }

  /// The number as `JSONDecoder` reads a `Double`: `nil` when it overflows to infinity or is a
  /// non-zero number that rounds to zero, and for values that are not numbers.
  public var doubleValue: Double? {
    guard case .number(let text) = self else { return nil }
    return JSONNumberText.double(text)
  }
}
