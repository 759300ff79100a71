import Foundation

/// A Swift type that converts to and from a ``SQLiteValue``.
///
/// Conforming types: `Int`, `Int64`, `Double`, `String`, `Bool` (0/1), `Data`, `Date` and
/// `Optional` of any of them. **Dates are stored as Unix-epoch milliseconds in an `INTEGER`**
/// (sub-millisecond precision is dropped), so they sort and compare correctly in SQL.
public protocol SQLiteBindable: Sendable {
  /// The value to bind.
  var sqliteValue: SQLiteValue { get }
  /// Converts a column value back; `nil` when the stored value does not fit this type.
  static func fromSQLite(_ value: SQLiteValue) -> Self?
}

extension SQLiteValue: SQLiteBindable {
  /// Itself.
  public var sqliteValue: SQLiteValue { self }
  /// Itself.
  public static func fromSQLite(_ value: SQLiteValue) -> SQLiteValue? { value }
}

extension Int64: SQLiteBindable {
  /// `.integer`.
  public var sqliteValue: SQLiteValue { .integer(self) }
  /// From `.integer`.
  public static func fromSQLite(_ value: SQLiteValue) -> Int64? {
    if case .integer(let number) = value { return number }
    return nil
  }
}

extension Int: SQLiteBindable {
  /// `.integer`.
  public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
  /// From `.integer` when it fits.
  public static func fromSQLite(_ value: SQLiteValue) -> Int? {
    if case .integer(let number) = value { return Int(exactly: number) }
    return nil
  }
}

extension Double: SQLiteBindable {
  /// `.real`.
  public var sqliteValue: SQLiteValue { .real(self) }
  /// From `.real` or `.integer`.
  public static func fromSQLite(_ value: SQLiteValue) -> Double? {
    switch value {
    case .real(let number): number
    case .integer(let number): Double(number)
    default: nil
    }
  }
}

extension String: SQLiteBindable {
  /// `.text`.
  public var sqliteValue: SQLiteValue { .text(self) }
  /// From `.text`.
  public static func fromSQLite(_ value: SQLiteValue) -> String? {
    if case .text(let text) = value { return text }
    return nil
  }
}

extension Bool: SQLiteBindable {
  /// `.integer` 1 or 0.
  public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
  /// From `.integer`: zero is false, anything else true.
  public static func fromSQLite(_ value: SQLiteValue) -> Bool? {
    if case .integer(let number) = value { return number != 0 }
    return nil
  }
}

extension Data: SQLiteBindable {
  /// `.blob`.
  public var sqliteValue: SQLiteValue { .blob(self) }
  /// From `.blob`.
  public static func fromSQLite(_ value: SQLiteValue) -> Data? {
    if case .blob(let data) = value { return data }
    return nil
  }
}

extension Date: SQLiteBindable {
  /// `.integer` Unix-epoch milliseconds (rounded to the nearest millisecond); a date beyond
  /// what an `Int64` of milliseconds holds (±292 million years) is stored at that limit, never
  /// trapping.
  public var sqliteValue: SQLiteValue {
    let milliseconds = (timeIntervalSince1970 * 1000).rounded()
    if let exact = Int64(exactly: milliseconds) { return .integer(exact) }
    return .integer(milliseconds < 0 ? .min : milliseconds > 0 ? .max : 0)
  }
  /// From `.integer` Unix-epoch milliseconds.
  public static func fromSQLite(_ value: SQLiteValue) -> Date? {
    if case .integer(let milliseconds) = value {
      return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
    return nil
  }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
  /// The wrapped value, or `.null`.
  public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
  /// `.some(nil)` for `.null`, otherwise the wrapped conversion.
  public static func fromSQLite(_ value: SQLiteValue) -> Wrapped?? {
    if case .null = value { return .some(nil) }
    guard let wrapped = Wrapped.fromSQLite(value) else { return nil }
    return .some(wrapped)
  }
}
