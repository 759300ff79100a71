import Foundation

/// One result row: column names and values, read by name with typed accessors.
///
/// Accessors throw ``SQLiteError`` when the column is missing or holds another type, so a
/// schema mistake is reported instead of silently read as a default.
public struct Row: Sendable, Hashable {
  /// Column names in result order.
  public let columns: [String]
  /// Values in result order.
  public let values: [SQLiteValue]

  /// A row from parallel arrays.
  public init(columns: [String], values: [SQLiteValue]) {
    self.columns = columns
    self.values = values
  }

  /// The raw value of `column`, or `nil` when there is no such column.
  public func value(_ column: String) -> SQLiteValue? {
    guard let index = columns.firstIndex(of: column) else { return nil }
    return values[index]
  }

  /// The value of `column` as `type`: `row["name", as: String.self]`.
  public subscript<T: SQLiteBindable>(column: String, as type: T.Type) -> T {
    get throws(SQLiteError) {
      guard let raw = value(column) else {
        throw SQLiteError(
          code: SQLiteError.misuseCode, message: "no column named \(column) in the result")
      }
      guard let typed = T.fromSQLite(raw) else {
        throw SQLiteError(
          code: SQLiteError.mismatchCode,
          message: "column \(column) holds \(raw.typeName), not \(T.self)")
      }
      return typed
    }
  }

  // MARK: - Typed accessors

  /// A non-null text column.
  public func string(_ column: String) throws(SQLiteError) -> String {
    try self[column, as: String.self]
  }
  /// A nullable text column.
  public func optionalString(_ column: String) throws(SQLiteError) -> String? {
    try self[column, as: String?.self]
  }
  /// A non-null integer column.
  public func int64(_ column: String) throws(SQLiteError) -> Int64 {
    try self[column, as: Int64.self]
  }
  /// A nullable integer column.
  public func optionalInt64(_ column: String) throws(SQLiteError) -> Int64? {
    try self[column, as: Int64?.self]
  }
  /// A non-null integer column as `Int`.
  public func int(_ column: String) throws(SQLiteError) -> Int {
    try self[column, as: Int.self]
  }
  /// A nullable integer column as `Int`.
  public func optionalInt(_ column: String) throws(SQLiteError) -> Int? {
    try self[column, as: Int?.self]
  }
  /// A non-null real (or integer) column.
  public func double(_ column: String) throws(SQLiteError) -> Double {
    try self[column, as: Double.self]
  }
  /// A non-null 0/1 integer column.
  public func bool(_ column: String) throws(SQLiteError) -> Bool {
    try self[column, as: Bool.self]
  }
  /// A non-null blob column.
  public func data(_ column: String) throws(SQLiteError) -> Data {
    try self[column, as: Data.self]
  }
  /// A non-null epoch-milliseconds column.
  public func date(_ column: String) throws(SQLiteError) -> Date {
    try self[column, as: Date.self]
  }
  /// A nullable epoch-milliseconds column.
  public func optionalDate(_ column: String) throws(SQLiteError) -> Date? {
    try self[column, as: Date?.self]
  }
}
