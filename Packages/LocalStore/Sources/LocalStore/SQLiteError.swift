import Essentials
import Foundation

/// A failure reported by SQLite (or by this layer's use of it).
///
/// It carries the result code, SQLite's own message and the SQL text, but **never the bound
/// values**: they may be secret, and the error may be logged.
public struct SQLiteError: LocalizedStoreError, Equatable {
  /// The primary result code (`SQLITE_CONSTRAINT` is 19, `SQLITE_READONLY` 8…).
  public let code: Int32
  /// The extended result code, when known (e.g. 2067 for a UNIQUE constraint).
  public let extendedCode: Int32
  /// SQLite's message, untranslated.
  public let message: String
  /// The statement that failed, when there was one.
  public let sql: String?

  /// An error with its codes, message and statement.
  public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
    self.code = code
    self.extendedCode = extendedCode ?? code
    self.message = message
    self.sql = sql
  }

  /// `SQLITE_READONLY`.
  public static let readOnlyCode: Int32 = 8
  /// `SQLITE_CONSTRAINT`.
  public static let constraintCode: Int32 = 19
  /// `SQLITE_MISMATCH`.
  public static let mismatchCode: Int32 = 20
  /// `SQLITE_MISUSE`.
  public static let misuseCode: Int32 = 21
  /// `SQLITE_CORRUPT`.
  public static let corruptCode: Int32 = 11
  /// `SQLITE_NOTADB`.
  public static let notADatabaseCode: Int32 = 26
  /// `SQLITE_CANTOPEN`.
  public static let cantOpenCode: Int32 = 14

  /// Whether the database refused a write because it is read-only.
  public var isReadOnly: Bool { code == Self.readOnlyCode }
  /// Whether a constraint (UNIQUE, FOREIGN KEY, NOT NULL…) failed.
  public var isConstraint: Bool { code == Self.constraintCode }

  /// `sqlite`.
  public var failureCode: String { "sqlite" }

  /// The message in `language`; SQLite's own text is kept as it is.
  public func localizedMessage(_ language: AppLanguage) -> String {
    var text = LocalStoreStrings.text(
      "sqlite.error", language, ["code": String(extendedCode), "message": message])
    if let sql {
      text += " [\(sql.split(whereSeparator: \.isNewline).joined(separator: " "))]"
    }
    return text
  }
}
