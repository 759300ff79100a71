import Foundation

/// The rows a command's `--json` output lists: the name of the array under `data` and the
/// fields each row may have. `--fields a,b` keeps only those fields of each row; `--fields`
/// alone lists them (as `gh … --json` does).
public struct JSONRows: Sendable, Equatable {
  /// The array's name under `data`, e.g. `instances`.
  public var key: String
  /// Every field a row may have (optional ones included), in a stable order.
  public var fields: [String]

  /// Rows under `data.<key>` with `fields`.
  public init(key: String, fields: [String]) {
    self.key = key
    self.fields = fields
  }
}

extension CommandSpec {
  /// This command, its `--json` output listing rows under `data.<key>` with `fields`.
  public func listing(_ key: String, fields: [String]) -> CommandSpec {
    var command = self
    command.jsonRows = JSONRows(key: key, fields: fields)
    return command
  }

  /// This command, whose output is never JSON (``printsNoJSON``).
  public func withoutJSON() -> CommandSpec {
    var command = self
    command.printsNoJSON = true
    return command
  }
}

/// A JSON value as a tree, to reshape encoded output (``JSONOutput/render(command:data:rows:keeping:schemaVersion:)``).
enum JSONTree: Codable, Equatable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONTree])
  case object([String: JSONTree])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONTree].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONTree].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// This tree with each object of the array under `key` cut down to `fields`.
  func keeping(_ fields: Set<String>, ofRowsUnder key: String) -> JSONTree {
    guard case .object(var object) = self, case .array(let rows)? = object[key] else {
      return self
    }
    object[key] = .array(
      rows.map { row in
        guard case .object(let fieldsOfRow) = row else { return row }
        return .object(fieldsOfRow.filter { fields.contains($0.key) })
      })
    return .object(object)
  }
}
