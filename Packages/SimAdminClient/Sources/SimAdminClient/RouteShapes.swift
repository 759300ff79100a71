import Essentials
import Foundation

/// What each SimAdmin route answers, read from `RouteShapes.json` (SIMADMIN-API §3 as data).
///
/// The same file serves two purposes: its `promises` are what a `200`/`ok` answer must carry
/// or the client reports ``SimAdminError/missingField(_:)`` instead of an empty state, and
/// its `shape`s are what the conformance test holds the simulator to.
public struct RouteShapes: Sendable {
  /// The shape of a JSON value.
  public indirect enum Shape: Sendable, Hashable {
    /// A value of one of these type names (`string`, `integer`, `number`, `boolean`, `null`,
    /// `any`, `centiDB`, `band`, `timestamp`) or exact strings (`'esim'`).
    case types(Set<String>)
    /// An object with exactly these keys (optional ones may be missing).
    case object([Field])
    /// An array whose every element has this shape.
    case array(Shape)
  }

  /// One key of an object shape.
  public struct Field: Sendable, Hashable {
    /// The key.
    public var key: String
    /// Whether it may be missing.
    public var optional: Bool
    /// Its value's shape.
    public var shape: Shape
  }

  /// One route's entry.
  public struct Route: Sendable, Hashable {
    /// `METHOD /path/template`.
    public var endpoint: String
    /// Whether the answer is wrapped in `{status, message, data}`.
    public var enveloped: Bool
    /// The keys of `data` (of the body, for health) an `ok` answer must have, not null.
    public var promises: [String]
    /// The shape of `data` (of the body, for health).
    public var shape: Shape
  }

  /// The routes by endpoint.
  public let routes: [String: Route]
  /// The shape of an error envelope.
  public let errorEnvelope: Shape
  /// The body of SimAdmin's plain-text 404.
  public let notFoundText: String

  /// `RouteShapes.json`, compiled into the program and read on first use; empty (no
  /// promises) if unreadable, which the conformance test would catch.
  public static let standard: RouteShapes = {
    guard let shapes = try? RouteShapes(json: Data(PackageResources.RouteShapes_json)) else {
      return RouteShapes(routes: [:], errorEnvelope: .types(["any"]), notFoundText: "")
    }
    return shapes
  }()

  init(routes: [String: Route], errorEnvelope: Shape, notFoundText: String) {
    self.routes = routes
    self.errorEnvelope = errorEnvelope
    self.notFoundText = notFoundText
  }

  /// Why a shapes file could not be read.
  public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public var description: String
  }

  /// Reads a shapes file.
  public init(json data: Data) throws {
    let root: JSONValue
    do { root = try JSONReader().read(data) } catch {
      throw FormatError(description: "not JSON: \(error)")
    }
    var named: [String: JSONValue] = [:]
    for member in root["named"]?.members ?? [] { named[member.key] = member.value }
    func shape(_ value: JSONValue, depth: Int = 0) throws -> Shape {
      guard depth < 32 else { throw FormatError(description: "shapes nest too deep") }
      switch value {
      case .string(let text):
        if let definition = named[text] { return try shape(definition, depth: depth + 1) }
        return .types(Set(text.split(separator: "|").map(String.init)))
      case .array(let items):
        guard items.count == 1 else {
          throw FormatError(description: "an array shape names exactly one element shape")
        }
        return .array(try shape(items[0], depth: depth + 1))
      case .object(let members):
        return .object(
          try members.map { member in
            let optional = member.key.hasSuffix("?")
            return Field(
              key: optional ? String(member.key.dropLast()) : member.key, optional: optional,
              shape: try shape(member.value, depth: depth + 1))
          })
      default:
        throw FormatError(description: "a shape is a type name, an object or an array")
      }
    }
    var routes: [String: Route] = [:]
    for entry in root["routes"]?.elements ?? [] {
      guard let endpoint = entry["endpoint"]?.stringValue, let body = entry["shape"] else {
        throw FormatError(description: "a route needs an endpoint and a shape")
      }
      routes[endpoint] = Route(
        endpoint: endpoint, enveloped: entry["enveloped"]?.boolValue ?? true,
        promises: (entry["promises"]?.elements ?? []).compactMap(\.stringValue),
        shape: try shape(body))
    }
    self.routes = routes
    errorEnvelope = try shape(root["errorEnvelope"] ?? .string("any"))
    notFoundText = root["notFoundText"]?.stringValue ?? ""
  }

  // MARK: - Promises

  /// The first promised part missing from an `ok` answer to `endpoint`, as a dotted path
  /// (`data.messages`), or `nil` when every promise holds (or the route promises nothing, or
  /// the body is not JSON: the decoder reports that).
  public func missingPromise(in body: Data, endpoint: String) -> String? {
    guard let route = routes[endpoint], !route.promises.isEmpty,
      let root = try? JSONReader().read(body)
    else { return nil }
    let prefix = route.enveloped ? "data." : ""
    let payload = route.enveloped ? root["data"] : root
    guard let payload, !payload.isNull else { return route.enveloped ? "data" : "body" }
    for key in route.promises {
      guard let value = payload[key], !value.isNull else { return prefix + key }
      if case .object(let fields) = route.shape,
        let field = fields.first(where: { $0.key == key }),
        !Self.kindMatches(value, field.shape)
      {
        return prefix + key
      }
    }
    return nil
  }

  /// Whether `value` is the right kind (object, array or scalar) for `shape`.
  static func kindMatches(_ value: JSONValue, _ shape: Shape) -> Bool {
    switch (shape, value) {
    case (.object, .object), (.array, .array), (.types, _): true
    default: false
    }
  }

  // MARK: - Conformance

  /// Every way `value` differs from `shape`, each naming its path (`data.cells[0].rsrp`).
  public static func violations(of value: JSONValue, against shape: Shape, at path: String)
    -> [String]
  {
    switch shape {
    case .types(let names):
      if names.contains(where: { matches(value, type: $0) }) { return [] }
      return ["\(path): \(describe(value)) is not \(names.sorted().joined(separator: "|"))"]
    case .array(let element):
      guard let items = value.elements else {
        return ["\(path): \(describe(value)) is not an array"]
      }
      return items.enumerated().flatMap { index, item in
        violations(of: item, against: element, at: "\(path)[\(index)]")
      }
    case .object(let fields):
      guard let members = value.members else {
        return ["\(path): \(describe(value)) is not an object"]
      }
      var problems: [String] = []
      let known = Set(fields.map(\.key))
      for member in members where !known.contains(member.key) {
        problems.append("\(path).\(member.key): not in SIMADMIN-API.md")
      }
      for field in fields {
        guard let child = value[field.key] else {
          if !field.optional { problems.append("\(path).\(field.key): missing") }
          continue
        }
        problems += violations(of: child, against: field.shape, at: "\(path).\(field.key)")
      }
      return problems
    }
  }

  static func matches(_ value: JSONValue, type: String) -> Bool {
    // `'text'`: exactly this string (a field with a closed set of values).
    if type.count >= 2, type.hasPrefix("'"), type.hasSuffix("'") {
      return value.stringValue == String(type.dropFirst().dropLast())
    }
    switch (type, value) {
    case ("any", _): return true
    case ("null", .null), ("boolean", .bool), ("string", .string), ("number", .number):
      return true
    case ("integer", .number(let text)):
      return !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        && value.int64Value != nil
    case ("centiDB", .string(let text)):
      let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
      return text.isEmpty || (!digits.isEmpty && digits.allSatisfy(\.isASCIIDigit))
    case ("band", .string(let text)):
      return text.isEmpty || CellBand(text).number != nil
    case ("timestamp", .string(let text)):
      return BeijingTime.date(from: text) != nil
    default:
      return false
    }
  }

  static func describe(_ value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool(let flag): String(flag)
    case .number(let text): text
    case .string(let text): "\"\(text.prefix(40))\""
    case .array: "an array"
    case .object: "an object"
    }
  }
}

extension Character {
  /// `0`…`9` only.
  var isASCIIDigit: Bool { isASCII && isNumber }
}
