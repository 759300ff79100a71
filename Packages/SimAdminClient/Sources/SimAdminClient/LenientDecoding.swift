import Foundation

/// Tolerant field readers: a missing key, a `null` and a value of an unexpected type all fall
/// back to a default instead of failing the whole response.
extension KeyedDecodingContainer {
  /// A string; numbers and booleans are rendered as text; missing or null → `fallback`.
  func lenientString(_ key: Key, _ fallback: String = "") -> String {
    lenientOptionalString(key) ?? fallback
  }

  /// A string, or `nil` when missing or null.
  func lenientOptionalString(_ key: Key) -> String? {
    if let value = try? decodeIfPresent(String.self, forKey: key) { return value }
    if let value = try? decodeIfPresent(Int64.self, forKey: key) { return String(value) }
    if let value = try? decodeIfPresent(Double.self, forKey: key) { return String(value) }
    if let value = try? decodeIfPresent(Bool.self, forKey: key) { return String(value) }
    return nil
  }

  /// A boolean; `"true"`/`1` accepted; otherwise `fallback`.
  func lenientBool(_ key: Key, _ fallback: Bool = false) -> Bool {
    if let value = try? decodeIfPresent(Bool.self, forKey: key) { return value }
    if let value = try? decodeIfPresent(Int64.self, forKey: key) { return value != 0 }
    if let value = try? decodeIfPresent(String.self, forKey: key) {
      return ["true", "1", "yes"].contains(value.lowercased())
    }
    return fallback
  }

  /// A number that may arrive as a JSON number or as text (`"-95"`, `"-95 dBm"`).
  func lenientDouble(_ key: Key) -> Double? {
    if let value = try? decodeIfPresent(Double.self, forKey: key) { return value }
    if let text = try? decodeIfPresent(String.self, forKey: key) {
      return Self.leadingNumber(in: text)
    }
    return nil
  }

  /// An integer that may arrive as a JSON number or as text.
  func lenientInt(_ key: Key) -> Int64? {
    if let value = try? decodeIfPresent(Int64.self, forKey: key) { return value }
    if let value = lenientDouble(key), value.isFinite, abs(value) < 9e18 {
      return Int64(value.rounded(.towardZero))
    }
    return nil
  }

  /// An array whose unreadable elements are skipped; missing or null → `[]`.
  func lenientArray<Element: Decodable>(_ key: Key, of: Element.Type = Element.self) -> [Element] {
    guard let items = try? decodeIfPresent([LenientElement<Element>].self, forKey: key) else {
      return []
    }
    return items.compactMap(\.value)
  }

  /// A nested value, or `nil` when missing, null or unreadable.
  func lenientNested<Value: Decodable>(_ key: Key, as: Value.Type = Value.self) -> Value? {
    (try? decodeIfPresent(Value.self, forKey: key)) ?? nil
  }

  /// The first number in `text` (optional sign, digits, optional fraction); `nil` when it is
  /// not finite (400 digits read as infinity, which no encoder can write back).
  static func leadingNumber(in text: String) -> Double? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    var number = ""
    for character in trimmed {
      if character.isASCII
        && (character.isNumber || character == "." || character == "-"
          || character == "+")
      {
        number.append(character)
      } else {
        break
      }
    }
    guard let value = Double(number), value.isFinite else { return nil }
    return value
  }
}

/// Decodes one array element, or `nil` when it is not readable, so one bad item never
/// loses the rest.
struct LenientElement<Element: Decodable>: Decodable {
  let value: Element?

  init(from decoder: any Decoder) throws {
    value = try? Element(from: decoder)
  }
}
