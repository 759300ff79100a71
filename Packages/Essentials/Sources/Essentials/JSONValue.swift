/// A JSON value: the one JSON tree of the project.
///
/// Objects keep their members in document order (duplicates included) and numbers keep their
/// text, so a value read from a device says exactly what the device sent. SimAdminClient's
/// `JSONReader` parses into it (and reads numbers as `JSONDecoder` does), the simulator writes
/// its answers from it (`JSONWriter`), and CommandLineKit reshapes `--json` output with it
/// (`Codable`, through `JSONDecoder`/`JSONEncoder`).
public indirect enum JSONValue: Sendable, Hashable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, exactly as written (`-12`, `3.5e2`).
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

  // MARK: - Making

  /// An integer.
  public static func int(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

  /// A floating-point number in Swift's shortest exact text; `null` when it is not finite
  /// (JSON has no infinity or NaN).
  public static func double(_ value: Double) -> JSONValue {
    value.isFinite ? .number("\(value)") : .null
  }

  /// A string, or `null` for `nil`.
  public static func optional(_ value: String?) -> JSONValue {
    value.map(JSONValue.string) ?? .null
  }

  /// An object from `(key, value)` pairs, in their order.
  public static func fields(_ pairs: [(String, JSONValue)]) -> JSONValue {
    .object(pairs.map { Member(key: $0.0, value: $0.1) })
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
}

// MARK: - Codable

extension JSONValue: Codable {
  /// Decodes any JSON value. Through a `Decoder` an object's order is lost (its members come
  /// sorted by key) and a number is read as an `Int64` when it is one, else as a `Double`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .int(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      let object = try container.decode([String: JSONValue].self)
      self = .object(object.sorted { $0.key < $1.key }.map { Member(key: $0.key, value: $0.value) })
    }
  }

  /// Encodes the value; a number as an `Int64` when its text is one, else as a `Double`.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .object(let members):
      var container = encoder.container(keyedBy: Key.self)
      for member in members { try container.encode(member.value, forKey: Key(member.key)) }
    default:
      var container = encoder.singleValueContainer()
      switch self {
      case .null: try container.encodeNil()
      case .bool(let value): try container.encode(value)
      case .number(let text):
        if let value = Int64(text) {
          try container.encode(value)
        } else if let value = Double(text) {
          try container.encode(value)
        } else {
          throw EncodingError.invalidValue(
            text, .init(codingPath: encoder.codingPath, debugDescription: "not a JSON number"))
        }
      case .string(let value): try container.encode(value)
      case .array(let values): try container.encode(values)
      case .object: break
      }
    }
  }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
