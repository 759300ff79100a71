import Essentials
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

extension JSONValue {
  /// This value with each object of the array under `key` cut down to `fields`: how
  /// ``JSONOutput/render(command:data:rows:keeping:schemaVersion:language:)`` reshapes encoded
  /// output for `--fields`.
  func keeping(_ fields: Set<String>, ofRowsUnder key: String) -> JSONValue {
    guard case .object(let members) = self else { return self }
    return .object(
      members.map { member in
        guard member.key == key, case .array(let rows) = member.value else { return member }
        let kept = rows.map { row -> JSONValue in
          guard case .object(let fieldsOfRow) = row else { return row }
          return .object(fieldsOfRow.filter { fields.contains($0.key) })
        }
        return Member(key: key, value: .array(kept))
      })
  }
}
