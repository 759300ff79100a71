import Foundation

/// One value as SQLite stores it: the five storage classes.
public enum SQLiteValue: Sendable, Hashable {
  /// SQL `NULL`.
  case null
  /// A 64-bit signed integer.
  case integer(Int64)
  /// A double-precision float.
  case real(Double)
  /// UTF-8 text.
  case text(String)
  /// Bytes.
  case blob(Data)

  /// Whether this is `NULL`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The storage class name, for error messages (`INTEGER`, `TEXT`…).
  public var typeName: String {
    switch self {
    case .null: "NULL"
    case .integer: "INTEGER"
    case .real: "REAL"
    case .text: "TEXT"
    case .blob: "BLOB"
    }
  }
}
