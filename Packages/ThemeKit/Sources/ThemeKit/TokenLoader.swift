import Foundation

/// Reads a W3C Design Tokens file into resolved values.
///
/// A token is any object with `$value`; other objects are groups. `$type` may sit on the token
/// or on any enclosing group (the nearest wins). Values may be aliases (`"{group.token}"`) to
/// another token's full path. Colours accept `"#112233"` or
/// `{"colorSpace": "srgb", "components": [r, g, b], "hex": "#112233"}`; dimensions accept
/// `"10px"` or `{"value": 10, "unit": "px"}` (units `px` and `rem`).
public enum TokenLoader {
  /// Every token of the file, resolved, keyed by dotted path.
  public struct Result: Sendable, Equatable {
    /// Token path → value.
    public var values: [String: TokenValue]
    /// Token path → `$description`, for tokens that have one.
    public var descriptions: [String: String]
  }

  /// Parses and resolves `data`; throws a ``TokenError`` naming the first bad token.
  public static func load(_ data: Data) throws -> Result {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw TokenError.malformedDocument(detail: error.localizedDescription)
    }
    guard let root = object as? [String: Any] else {
      throw TokenError.malformedDocument(detail: "the top level is not an object")
    }
    var raw: [String: RawToken] = [:]
    var descriptions: [String: String] = [:]
    try collect(root, prefix: [], inheritedType: nil, into: &raw, descriptions: &descriptions)
    var resolver = Resolver(raw: raw)
    for path in raw.keys.sorted() {
      _ = try resolver.resolve(path, stack: [])
    }
    return Result(values: resolver.resolved, descriptions: descriptions)
  }

  // MARK: - Collecting

  struct RawToken {
    var declaredType: String?
    var value: Any
  }

  static func collect(
    _ group: [String: Any], prefix: [String], inheritedType: String?,
    into raw: inout [String: RawToken], descriptions: inout [String: String]
  ) throws {
    let groupType = (group["$type"] as? String) ?? inheritedType
    for (key, child) in group where !key.hasPrefix("$") {
      let path = prefix + [key]
      guard let object = child as? [String: Any] else {
        throw TokenError.malformedDocument(
          detail: "\(path.joined(separator: ".")) is neither a group nor a token")
      }
      if let value = object["$value"] {
        let dotted = path.joined(separator: ".")
        raw[dotted] = RawToken(
          declaredType: (object["$type"] as? String) ?? groupType, value: value)
        if let description = object["$description"] as? String {
          descriptions[dotted] = description
        }
      } else {
        try collect(
          object, prefix: path, inheritedType: groupType, into: &raw, descriptions: &descriptions)
      }
    }
  }

  // MARK: - Resolving

  struct Resolver {
    let raw: [String: RawToken]
    var resolved: [String: TokenValue] = [:]

    init(raw: [String: RawToken]) {
      self.raw = raw
    }

    mutating func resolve(_ path: String, stack: [String]) throws -> TokenValue {
      if let done = resolved[path] { return done }
      if let start = stack.firstIndex(of: path) {
        throw TokenError.aliasCycle(Array(stack[start...]) + [path])
      }
      guard let token = raw[path] else {
        // Only reachable for alias targets; callers check existence first.
        throw TokenError.missingAliasTarget(path: stack.last ?? path, target: path)
      }
      var declared: TokenType?
      if let name = token.declaredType {
        guard let type = TokenType(rawValue: name) else {
          throw TokenError.unknownType(path: path, type: name)
        }
        declared = type
      }
      let value: TokenValue
      if let target = TokenLoader.aliasTarget(token.value) {
        guard raw[target] != nil else {
          throw TokenError.missingAliasTarget(path: path, target: target)
        }
        value = try resolve(target, stack: stack + [path])
        if let declared, declared != value.type {
          throw TokenError.typeMismatch(
            path: path, expected: declared.rawValue, found: value.type.rawValue)
        }
      } else {
        guard let declared else { throw TokenError.missingType(path: path) }
        value = try TokenLoader.parse(token.value, as: declared, path: path)
      }
      resolved[path] = value
      return value
    }
  }

  /// The target path of an alias value `"{a.b.c}"`, or `nil` when `value` is not an alias.
  static func aliasTarget(_ value: Any) -> String? {
    guard let text = value as? String, text.hasPrefix("{"), text.hasSuffix("}"), text.count > 2
    else { return nil }
    return String(text.dropFirst().dropLast())
  }

  // MARK: - Parsing values

  static func parse(_ value: Any, as type: TokenType, path: String) throws -> TokenValue {
    func failure(_ detail: String) -> TokenError {
      TokenError.unparsableValue(path: path, type: type.rawValue, detail: detail)
    }
    switch type {
    case .color:
      if let text = value as? String {
        guard let color = RGBColor(hex: text) else { throw failure("\"\(text)\" is not #rrggbb") }
        return .color(color)
      }
      if let object = value as? [String: Any] {
        if let hex = object["hex"] as? String {
          guard let color = RGBColor(hex: hex) else {
            throw failure("hex \"\(hex)\" is not #rrggbb")
          }
          return .color(color)
        }
        let space = object["colorSpace"] as? String ?? "srgb"
        guard space == "srgb" else { throw failure("colour space \(space) is not srgb") }
        guard let components = object["components"] as? [Any], components.count == 3 else {
          throw failure("components must be three numbers from 0 to 1")
        }
        let numbers = components.compactMap(number)
        guard numbers.count == 3, numbers.allSatisfy({ (0...1).contains($0) }) else {
          throw failure("components must be three numbers from 0 to 1")
        }
        return .color(RGBColor(components: numbers[0], numbers[1], numbers[2]))
      }
      throw failure("expected \"#rrggbb\" or an object with colorSpace and components")
    case .dimension:
      if let text = value as? String {
        guard let dimension = parseDimension(text) else {
          throw failure("\"\(text)\" is not a number followed by px or rem")
        }
        return .dimension(dimension)
      }
      if let object = value as? [String: Any], let magnitude = object["value"].flatMap(number),
        let unit = object["unit"] as? String
      {
        guard ["px", "rem"].contains(unit) else {
          throw failure("unit \"\(unit)\" is not px or rem")
        }
        return .dimension(Dimension(value: magnitude, unit: unit))
      }
      throw failure("expected \"10px\" or {\"value\": 10, \"unit\": \"px\"}")
    case .fontFamily:
      if let text = value as? String, !text.isEmpty { return .fontFamily([text]) }
      if let list = value as? [Any], !list.isEmpty {
        let names = list.compactMap { $0 as? String }
        if names.count == list.count { return .fontFamily(names) }
      }
      throw failure("expected a font name or a list of font names")
    case .fontWeight:
      if let weight = number(value), (1...1000).contains(weight) {
        return .fontWeight(Int(weight))
      }
      if let name = value as? String, let weight = fontWeights[name.lowercased()] {
        return .fontWeight(weight)
      }
      throw failure("expected 1–1000 or a weight name such as bold")
    case .number:
      guard let magnitude = number(value) else { throw failure("expected a number") }
      return .number(magnitude)
    }
  }

  static func number(_ value: Any) -> Double? {
    if let double = value as? Double { return double }
    if let int = value as? Int { return Double(int) }
    return nil
  }

  static func parseDimension(_ text: String) -> Dimension? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    for unit in ["rem", "px"] where trimmed.hasSuffix(unit) {
      guard let magnitude = Double(trimmed.dropLast(unit.count)) else { return nil }
      return Dimension(value: magnitude, unit: unit)
    }
    return nil
  }

  static let fontWeights: [String: Int] = [
    "thin": 100, "hairline": 100, "extra-light": 200, "ultra-light": 200, "light": 300,
    "normal": 400, "regular": 400, "book": 400, "medium": 500, "semi-bold": 600,
    "demi-bold": 600, "bold": 700, "extra-bold": 800, "ultra-bold": 800, "black": 900,
    "heavy": 900, "extra-black": 950, "ultra-black": 950,
  ]
}
