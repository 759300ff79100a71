import Foundation

/// Masks secrets before they can reach a log, an export or the screen.
///
/// Keys are recognised by name (case-insensitive, any part of the key): credentials
/// (`password`, `cookie`, `authorization`, `token`, `session`, `secret`) are replaced whole;
/// SMS bodies (`body`, `content`, `text`, `sms`) are shortened by ``maskBody(_:)``.
/// Free text is scanned for cookie and Authorization forms.
public enum Redactor {
  /// What replaces a credential.
  public static let mask = "‹redacted›"

  static let credentialKeys = [
    "password", "passwd", "cookie", "authorization", "token", "session", "secret",
  ]
  static let bodyKeys = ["body", "content", "text", "sms"]

  /// Whether values under `key` are credentials.
  public static func isCredential(key: String) -> Bool {
    let lower = key.lowercased()
    return credentialKeys.contains { lower.contains($0) }
  }

  /// Masks the values of secret keys.
  public static func redact(metadata: LogMetadata) -> LogMetadata {
    var result = LogMetadata(minimumCapacity: metadata.count)
    for (key, value) in metadata {
      let lower = key.lowercased()
      if isCredential(key: key) {
        result[key] = mask
      } else if bodyKeys.contains(where: { lower.contains($0) }) {
        result[key] = maskBody(value)
      } else {
        result[key] = redact(text: value)
      }
    }
    return result
  }

  /// Masks `simadmin_session=…`, `Cookie: …`, `Authorization: …` and `password=…` in free text.
  public static func redact(text: String) -> String {
    guard text.contains("=") || text.contains(":") else { return text }
    var result = text
    for pattern in textPatterns {
      let range = NSRange(result.startIndex..., in: result)
      result = pattern.stringByReplacingMatches(
        in: result, range: range, withTemplate: "$1\(mask)")
    }
    return result
  }

  static let textPatterns: [NSRegularExpression] = [
    #"(?i)(simadmin_session=)[^;\s"]+"#,
    #"(?i)((?:set-)?cookie:\s*)[^\r\n"]+"#,
    #"(?i)(authorization:\s*)[^\r\n"]+"#,
    #"(?i)((?:password|passwd|token|secret)"?\s*[=:]\s*"?)[^\s",}&]+"#,
  ].compactMap { try? NSRegularExpression(pattern: $0) }

  /// An SMS body for lists and logs: at most `preview` characters, every code-like part that
  /// ``CodeDetector/standard`` finds masked with `•` (digit runs of four or more, codes with
  /// separators such as `852-598` or `2-3-1174`, letter-digit codes such as `A7K9Q2`), an
  /// ellipsis when shortened.
  ///
  /// `"Your code is 482913, valid 5 min"` → `"Your code is ••••••…"`.
  ///
  /// Walked by Unicode scalar when the body is made of simple scalars (nearly every SMS), else
  /// by `Character`; both give the same text (``referenceMaskBody(_:preview:)``).
  public static func maskBody(_ body: String, preview: Int = 20) -> String {
    CodeDetector.standard.maskedPreview(body, preview: preview)
      ?? referenceMaskBody(body, preview: preview)
  }

  /// ``maskBody(_:preview:)`` by the walk by `Character` alone: the reference the walk by
  /// scalar is tested against.
  static func referenceMaskBody(_ body: String, preview: Int = 20) -> String {
    let flat = body.split(whereSeparator: \.isNewline).joined(separator: " ")
    let masked = CodeDetector.standard.referenceMask(flat)
    guard masked.count > preview else { return masked }
    return String(masked.prefix(preview)) + "…"
  }
}
