import Essentials
import Foundation

/// Which of the two logs a record comes from.
public enum LogKind: String, Sendable, Codable, CaseIterable, Hashable {
  /// App events written through the `Logger` (table `runtime_log`).
  case runtime
  /// One row per connection probe (table `connection_log`).
  case connection

  /// The one-letter prefix of record ids of this kind: `r` or `c`.
  public var idPrefix: Character {
    switch self {
    case .runtime: "r"
    case .connection: "c"
    }
  }

  /// The localized name, e.g. "runtime" / "运行".
  public func title(_ language: AppLanguage) -> String {
    LogCenterStrings.text("kind.\(rawValue)", language)
  }
}

/// A record id that says which log it belongs to: `r123` (runtime) or `c45` (connection).
public struct LogRecordID: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The log.
  public let kind: LogKind
  /// The row id inside that log.
  public let rowID: Int64

  /// An id from its parts.
  public init(kind: LogKind, rowID: Int64) {
    self.kind = kind
    self.rowID = rowID
  }

  /// Parses `r123` / `c45` (case-insensitive); nil for anything else.
  public init?(_ text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    guard let first = trimmed.first,
      let kind = LogKind.allCases.first(where: { $0.idPrefix == first }),
      let number = Int64(trimmed.dropFirst()), number > 0,
      trimmed.dropFirst().allSatisfy(\.isNumber)
    else { return nil }
    self.init(kind: kind, rowID: number)
  }

  /// `r123`.
  public var description: String { "\(kind.idPrefix)\(rowID)" }

  /// Decodes from its text form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let id = LogRecordID(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "not a log record id: \(text)")
    }
    self = id
  }

  /// Encodes as its text form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
