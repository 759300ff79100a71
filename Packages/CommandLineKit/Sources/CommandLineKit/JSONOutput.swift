import Essentials
import Foundation

/// Renders `--json` output: pretty-printed, sorted-key JSON with a `schemaVersion`, ISO-8601
/// dates and a trailing newline. Strings keep their exact content; every control in them (C0,
/// DEL, C1, bidi) is written as a `\uXXXX` escape, never raw.
public enum JSONOutput {
  /// The schema version of the envelope when a command does not say otherwise.
  public static let defaultSchemaVersion = 1

  /// `{"command": ..., "data": ..., "schemaVersion": 1}` for a successful command; reasons
  /// and errors inside `data` write their `message` in `language`.
  public static func render<T: Encodable>(
    command: String, data: T, schemaVersion: Int = defaultSchemaVersion,
    language: AppLanguage = .english
  ) throws -> String {
    if let data = data as? any JSONOutputWritable,
      let text = written(
        command: command, data: data, schemaVersion: schemaVersion, language: language)
    {
      return text
    }
    return try encode(
      SuccessEnvelope(command: command, data: data, schemaVersion: schemaVersion),
      language: language)
  }

  /// The success envelope written directly (``JSONOutputWritable``): the same bytes as
  /// through the encoder; `nil` when the data holds a value only the encoder writes.
  static func written(
    command: String, data: some JSONOutputWritable, schemaVersion: Int,
    language: AppLanguage = .english
  ) -> String? {
    var json = JSONOutputWriter(language: language)
    json.object { json in
      json.key("command")
      json.string(command)
      json.key("data")
      json.value(data)
      json.key("schemaVersion")
      json.int(schemaVersion)
    }
    guard !json.isUnwritable else { return nil }
    return String(decoding: json.bytes, as: UTF8.self) + "\n"
  }

  /// The success envelope with each row of `data.<rows.key>` cut down to `fields` (names from
  /// `rows.fields`; `--fields`).
  public static func render<T: Encodable>(
    command: String, data: T, rows: JSONRows, keeping fields: [String],
    schemaVersion: Int = defaultSchemaVersion, language: AppLanguage = .english
  ) throws -> String {
    let encoder = makeEncoder()
    if let key = AppLanguage.userInfoKey { encoder.userInfo[key] = language }
    let tree = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(data))
    return try render(
      command: command, data: tree.keeping(Set(fields), ofRowsUnder: rows.key),
      schemaVersion: schemaVersion, language: language)
  }

  /// `{"command": ..., "error": {"code": ..., "message": ...}, "schemaVersion": 1}` for a
  /// failed command: `code` is a stable machine code (`recordNotFound`, `timeout`,
  /// `invalidValue` …), the same in every language; the exit status is the process's.
  public static func renderError(
    command: String, message: String, code: String, schemaVersion: Int = defaultSchemaVersion
  ) throws -> String {
    try encode(
      ErrorEnvelope(
        command: command, error: ErrorBody(code: code, message: message),
        schemaVersion: schemaVersion))
  }

  /// The error envelope for a usage error: its kind is the code, its message in `language`.
  public static func renderError(
    command: String, usageError: UsageError, language: AppLanguage,
    schemaVersion: Int = defaultSchemaVersion
  ) throws -> String {
    try renderError(
      command: command, message: usageError.message(language), code: usageError.kind.rawValue,
      schemaVersion: schemaVersion)
  }

  /// The encoder every `--json` output uses.
  public static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }

  private static func encode(_ value: some Encodable, language: AppLanguage = .english) throws
    -> String
  {
    let encoder = makeEncoder()
    if let key = AppLanguage.userInfoKey { encoder.userInfo[key] = language }
    let data = try encoder.encode(value)
    // JSONEncoder writes DEL, C1 and bidi controls raw: they go out as \uXXXX escapes.
    return UntrustedText.escapingJSON(String(decoding: data, as: UTF8.self)) + "\n"
  }

  private struct SuccessEnvelope<T: Encodable>: Encodable {
    var command: String
    var data: T
    var schemaVersion: Int
  }

  private struct ErrorEnvelope: Encodable {
    var command: String
    var error: ErrorBody
    var schemaVersion: Int
  }

  private struct ErrorBody: Encodable {
    var code: String
    var message: String
  }
}
