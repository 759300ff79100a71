import CommandLineKit
import Essentials
import FeatureKit
import Foundation

/// `--fields`: which fields of each row a `--json` list keeps, or (given alone) the request to
/// list the fields a command has.
enum FieldSelection: Equatable {
  /// Keep only `fields` of each row under `rows.key`.
  case keep(rows: JSONRows, fields: [String])
  /// List the fields instead of running the command.
  case list(JSONRows)

  static let option = OptionSpec(
    name: "fields", valueName: "FIELDS", help: AppStrings.string("option.fields"),
    isValueOptional: true)

  /// The selection asked for on the command line, `nil` without `--fields`; a usage error for
  /// a command that lists no rows, a field it does not have, or field names without `--json`.
  static func from(_ parsed: ParsedCommand, command: CommandSpec?, json: Bool) throws(UsageError)
    -> FieldSelection?
  {
    guard let value = parsed.optionalString("fields") else { return nil }
    let subject = option.synopsis
    guard let rows = command?.jsonRows else {
      throw UsageError(.invalidValue, path: parsed.path, subject: subject, problem: .noRows)
    }
    let names = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    if names.isEmpty { return .list(rows) }
    for name in names where !rows.fields.contains(name) {
      throw UsageError(
        .invalidValue, path: parsed.path, subject: subject, value: name,
        problem: .notAllowed(allowed: rows.fields),
        suggestion: closest(to: name, in: rows.fields))
    }
    guard json else {
      throw UsageError(
        .invalidValue, path: parsed.path, subject: subject, value: value,
        problem: .needsOption("--json"))
    }
    return .keep(rows: rows, fields: names)
  }

  /// The field names, one a line, or as `{"fields": [...]}` with `--json`.
  static func listing(_ rows: JSONRows, command: String, json: Bool) throws -> String {
    guard json else { return rows.fields.joined(separator: "\n") + "\n" }
    return try JSONOutput.render(command: command, data: ["fields": rows.fields])
  }

  /// The closest field name (a near miss or the one the typed text starts).
  private static func closest(to typed: String, in fields: [String]) -> String? {
    let lowered = typed.lowercased()
    return fields.first { $0.lowercased() == lowered }
      ?? fields.first { $0.lowercased().hasPrefix(lowered) }
  }
}
