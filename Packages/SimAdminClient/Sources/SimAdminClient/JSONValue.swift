/// One JSON value as ``JSONReader`` parsed it: objects keep their members in order (duplicates
/// included), numbers keep their text.
public enum JSONValue: Sendable, Hashable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, exactly as written (`-12`, `3.5e2`); see ``int64Value`` and ``doubleValue``.
  case number(String)
  /// A string with its escapes resolved.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object's members in document order.
  case object([Member])

  /// One `"key": value` pair of an object.
  public struct Member: Sendable, Hashable {
    /// The key with its escapes resolved.
    public var key: String
    /// The value.
    public var value: JSONValue

    /// A member.
    public init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  // MARK: - Reading

  /// The value of the first member named `key`, or `nil` when there is none or this is not an
  /// object. The first one wins, as with `JSONDecoder`.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    for member in members where member.key == key { return member.value }
    return nil
  }

  /// Whether this is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The string, or `nil` for any other kind of value.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The boolean, or `nil` for any other kind of value.
  public var boolValue: Bool? {
    if case .bool(let flag) = self { return flag }
    return nil
  }

  /// The elements, or `nil` when this is not an array.
  public var elements: [JSONValue]? {
    if case .array(let items) = self { return items }
    return nil
  }

  /// The members in order, or `nil` when this is not an object.
  public var members: [Member]? {
    if case .object(let items) = self { return items }
    return nil
  }

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
