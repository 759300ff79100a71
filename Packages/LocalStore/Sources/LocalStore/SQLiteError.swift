import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// The database file, when the failure came from a connection to one.
  public var path: String?
  /// The system's `errno` behind an I/O failure (`sqlite3_system_errno`), 0 when none.
  public var systemErrno: Int32 = 0

  /// An error with its codes, message and statement.
  public init(
    code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil,
    path: String? = nil
  ) {
    self.code = code
    self.extendedCode = extendedCode ?? code
    self.message = message
    self.sql = sql
    self.path = path
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
  /// `SQLITE_BUSY`.
  public static let busyCode: Int32 = 5
  /// `SQLITE_LOCKED`.
  public static let lockedCode: Int32 = 6
  /// `SQLITE_IOERR`.
  public static let ioErrorCode: Int32 = 10
  /// `SQLITE_FULL`.
  public static let fullCode: Int32 = 13

  /// Whether the file itself failed (damaged, read-only, full, unreadable, busy), not the
  /// statement: a command must stop with it, never blame a device for it.
  public var isFileFailure: Bool {
    [
      Self.readOnlyCode, Self.corruptCode, Self.notADatabaseCode, Self.fullCode,
      Self.ioErrorCode, Self.cantOpenCode, Self.busyCode, Self.lockedCode,
    ].contains(code)
  }

  /// Whether the disk (or the file size limit, `ulimit -f`) left no room: `SQLITE_FULL`, or
  /// an I/O failure with `ENOSPC`, `EFBIG` or `EDQUOT` behind it.
  public var isFull: Bool {
    code == Self.fullCode
      || (code == Self.ioErrorCode && [ENOSPC, EFBIG, EDQUOT].contains(systemErrno))
  }

  /// Whether SQLite found the file damaged (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
  public var isDamage: Bool { code == Self.corruptCode || code == Self.notADatabaseCode }

  /// Whether the database refused a write because it is read-only.
  public var isReadOnly: Bool { code == Self.readOnlyCode }
  /// Whether a constraint (UNIQUE, FOREIGN KEY, NOT NULL…) failed.
  public var isConstraint: Bool { code == Self.constraintCode }

  /// `sqlite`.
  public var failureCode: String { "sqlite" }

  /// The message in `language`. A failure of the file itself says what happened to which
  /// file and what to do, in words (SQLite's own text only in brackets, never its statement);
  /// any other keeps SQLite's text and the statement, for a bug report.
  public func localizedMessage(_ language: AppLanguage) -> String {
    if let path, isFileFailure {
      let key =
        switch code {
        case _ where isFull: "sqlite.file.full"
        case Self.readOnlyCode: "sqlite.file.readOnly"
        case Self.corruptCode, Self.notADatabaseCode: "sqlite.file.damaged"
        case Self.busyCode, Self.lockedCode: "sqlite.file.busy"
        default: "sqlite.file.unusable"
        }
      return LocalStoreStrings.text(
        key, language,
        [
          "path": path, "directory": URL(fileURLWithPath: path).deletingLastPathComponent().path,
          "message": message,
        ])
    }
    var text = LocalStoreStrings.text(
      "sqlite.error", language, ["code": String(extendedCode), "message": message])
    if let sql {
      text += " [\(sql.split(whereSeparator: \.isNewline).joined(separator: " "))]"
    }
    return text
  }
}
