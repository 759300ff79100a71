import Essentials
import Foundation

/// Essentials' one ``JSONValue`` as the validator reads it.
extension JSONValue {
  static func parse(_ data: Data) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: data)
  }

  /// Its JSON Schema type: a number whose text is a whole `Int64` is an `integer`.
  var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number(let text): Int64(text) == nil ? "number" : "integer"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  /// The number, or `nil` for any other kind of value.
  var numberValue: Double? {
    if case .number(let text) = self { return Double(text) }
    return nil
  }

  /// The object's members by key, or `nil` when this is not an object.
  var dictionary: [String: JSONValue]? {
    members.map {
      Dictionary($0.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
  }
}

extension JSONValue: @retroactive CustomStringConvertible {
  public var description: String {
    switch self {
    case .null: "null"
    case .bool(let value): String(value)
    case .number(let text): text
    case .string(let value): "\"\(value)\""
    case .array(let values): "[\(values.count) items]"
    case .object(let members): "{\(members.map(\.key).sorted().joined(separator: ", "))}"
    }
  }
}

/// Checks a JSON value against the subset of JSON Schema (draft 2020-12) that
/// `docs/json/*.schema.json` use: `type` (one or several), `properties`, `required`,
/// `additionalProperties` (false or a schema), `items`, `enum`, `const`, `minimum`, `anyOf`,
/// `$ref` to `#/$defs/NAME` in the same file or to another file in the same folder
/// (`common.schema.json#/$defs/NAME`), and `$defs`. `$schema`, `$id`, `title`,
/// `description` and `format` are ignored. Any other keyword is reported as a problem, so a
/// schema cannot silently ask for more than is checked.
struct JSONSchemaValidator {
  /// The folder the schemas live in.
  let folder: URL
  private var documents: [String: JSONValue] = [:]

  static let known: Set<String> = [
    "$schema", "$id", "$defs", "$ref", "title", "description", "format", "type", "properties",
    "required", "additionalProperties", "items", "enum", "const", "minimum", "anyOf",
  ]

  init(folder: URL) {
    self.folder = folder
  }

  /// The parsed schema file `name`.
  mutating func document(_ name: String) throws -> JSONValue {
    if let known = documents[name] { return known }
    let parsed = try JSONValue.parse(Data(contentsOf: folder.appendingPathComponent(name)))
    documents[name] = parsed
    return parsed
  }

  /// Every way `value` breaks schema file `name`, with JSON paths; empty when it conforms.
  mutating func problems(of value: JSONValue, against name: String) throws -> [String] {
    let schema = try document(name)
    var problems: [String] = []
    check(value, schema, path: "$", file: name, into: &problems)
    return problems
  }

  private mutating func resolve(_ reference: String, file: String) -> (JSONValue, String)? {
    let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    let target = parts[0].isEmpty ? file : String(parts[0])
    guard var node = try? document(target) else { return nil }
    if parts.count > 1 {
      for component in parts[1].split(separator: "/") {
        guard let next = node[String(component)] else { return nil }
        node = next
      }
    }
    return (node, target)
  }

  static func matches(_ value: JSONValue, type: String) -> Bool {
    value.typeName == type || (type == "number" && value.typeName == "integer")
  }

  private mutating func check(
    _ value: JSONValue, _ schemaNode: JSONValue, path: String, file: String,
    into problems: inout [String]
  ) {
    if case .bool(let allowed) = schemaNode {
      if !allowed { problems.append("\(path): not allowed by \(file)") }
      return
    }
    guard let schema = schemaNode.dictionary else {
      problems.append("\(path): the schema in \(file) is not an object")
      return
    }
    for key in schema.keys.sorted() where !Self.known.contains(key) {
      problems.append("\(path): \(file) uses \(key), which this validator does not check")
    }
    if case .string(let reference)? = schema["$ref"] {
      guard let (target, targetFile) = resolve(reference, file: file) else {
        problems.append("\(path): \(file) refers to \(reference), which does not exist")
        return
      }
      check(value, target, path: path, file: targetFile, into: &problems)
    }
    if let type = schema["type"] {
      var types: [String] = []
      switch type {
      case .string(let one): types = [one]
      case .array(let many):
        types = many.compactMap { if case .string(let name) = $0 { name } else { nil } }
      default: break
      }
      if !types.contains(where: { Self.matches(value, type: $0) }) {
        problems.append(
          "\(path): is \(value.typeName), expected \(types.joined(separator: " or "))")
        return
      }
    }
    if let constant = schema["const"], value != constant {
      problems.append("\(path): is \(value), expected \(constant)")
    }
    if case .array(let options)? = schema["enum"], !options.contains(value) {
      problems.append("\(path): \(value) is none of \(options.map(\.description))")
    }
    if let minimum = schema["minimum"] {
      if let bound = minimum.numberValue, let actual = value.numberValue, actual < bound {
        problems.append("\(path): \(actual) is below \(bound)")
      }
    }
    if case .array(let choices)? = schema["anyOf"] {
      let fits = choices.contains { choice in
        var trial: [String] = []
        check(value, choice, path: path, file: file, into: &trial)
        return trial.isEmpty
      }
      if !fits { problems.append("\(path): matches none of the choices in \(file)") }
    }
    if let members = value.dictionary {
      let properties = schema["properties"]?.dictionary ?? [:]
      if case .array(let required)? = schema["required"] {
        for case .string(let name) in required where members[name] == nil {
          problems.append("\(path): lacks \(name)")
        }
      }
      for (name, member) in members.sorted(by: { $0.key < $1.key }) {
        if let property = properties[name] {
          check(member, property, path: "\(path).\(name)", file: file, into: &problems)
        } else if let additional = schema["additionalProperties"] {
          check(member, additional, path: "\(path).\(name)", file: file, into: &problems)
        }
      }
    }
    if case .array(let elements) = value, let items = schema["items"] {
      for (index, element) in elements.enumerated() {
        check(element, items, path: "\(path)[\(index)]", file: file, into: &problems)
      }
    }
  }
}
