import Foundation

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// The registry's names read straight from a data directory, for the shells' Tab key:
/// read-only, no migration, nothing created, and empty rather than failing when there is no
/// database yet (or it is from another version).
public enum RegistryNames {
  /// One instance as completion shows it.
  public struct InstanceName: Sendable, Equatable {
    /// Its id.
    public let id: String
    /// Its name.
    public let name: String
    /// Its SimAdmin address.
    public let origin: String
  }

  /// The query of ``instances(in:)``.
  static let instancesSQL = "SELECT id, name, origin FROM instances ORDER BY name COLLATE NOCASE"

  /// Every instance, by name (a row whose id, name or origin is not text is left out, as
  /// ``rows(in:_:_:_:)`` leaves out a row its transform rejects).
  public static func instances(in directory: URL) -> [InstanceName] {
    // Read off the statement's columns, without a `Row` of three `SQLiteValue`s for each of
    // a thousand instances (`instancesReadAsRowsRead` holds the two reads together).
    guard let database = open(directory) else { return [] }
    var names: [InstanceName] = []
    do {
      try database.eachRow(instancesSQL) { statement in
        guard let id = text(statement, 0), let name = text(statement, 1),
          let origin = text(statement, 2)
        else { return }
        names.append(InstanceName(id: id, name: name, origin: origin))
      }
    } catch { return [] }
    return names
  }

  /// Column `index` of the current row when it holds text, as ``Row/string(_:)`` reads it.
  static func text(_ statement: OpaquePointer, _ index: Int32) -> String? {
    guard sqlite3_column_type(statement, index) == SQLITE_TEXT else { return nil }
    guard let pointer = sqlite3_column_text(statement, index) else { return "" }
    let count = Int(sqlite3_column_bytes(statement, index))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }

  /// Every group's name.
  public static func groups(in directory: URL) -> [String] {
    rows(in: directory, "SELECT name FROM instance_groups ORDER BY name COLLATE NOCASE") {
      try $0.string("name")
    }
  }

  /// Every tag in use.
  public static func tags(in directory: URL) -> [String] {
    rows(
      in: directory,
      "SELECT DISTINCT tag.value AS tag FROM instances, json_each(instances.tags) AS tag ORDER BY 1"
    ) { try $0.string("tag") }
  }

  /// Hands `body` the first `columns` columns of each row of `sql` as text, read off the
  /// statement (no ``Row``), until it returns `false`; a row with a column that is not text
  /// is passed over. Read-only like the rest; nothing when the database cannot be read, and
  /// the walk ends quietly at an error.
  public static func eachTextRow(
    in directory: URL, _ sql: String, _ values: [any SQLiteBindable] = [], columns: Int32,
    _ body: ([String]) -> Bool
  ) {
    guard let database = open(directory) else { return }
    try? database.eachRow(sql, values) { statement in
      var texts: [String] = []
      texts.reserveCapacity(Int(columns))
      for index in 0..<columns {
        guard let text = text(statement, index) else { return true }
        texts.append(text)
      }
      return body(texts)
    }
  }

  /// The rows of `sql` in the directory's database, read-only; empty when it cannot be read.
  public static func rows<T>(
    in directory: URL, _ sql: String, _ values: [any SQLiteBindable] = [],
    _ transform: (Row) throws -> T
  ) -> [T] {
    guard let database = open(directory), let rows = try? database.query(sql, values)
    else { return [] }
    return rows.compactMap { try? transform($0) }
  }

  /// The directory's database opened for a Tab press, or `nil` when there is none or it
  /// cannot be opened.
  static func open(_ directory: URL) -> SQLiteDatabase? {
    let url = directory.appendingPathComponent(Store.databaseFileName)
    guard let mode = openMode(url) else { return nil }
    return try? SQLiteDatabase(url: url, mode: mode)
  }

  /// How a Tab press opens the database, or `nil` when there is no file: with nothing
  /// waiting in its write-ahead log (no other msa writing, the usual case) as an immutable
  /// file — no locks, and no `-wal` or `-shm` file created beside it, which a read-only open
  /// in WAL mode otherwise makes (and leaves behind); with a log to read (another msa has
  /// written since the last checkpoint) read-only, so a name just added is offered.
  /// Completion is a glance: a write landing during the read at worst gives a short or empty
  /// list, never a changed file. Two `stat` calls (not `FileManager`, whose attribute
  /// dictionary costs a Tab press more than the rest of its open).
  static func openMode(_ database: URL) -> SQLiteDatabase.Mode? {
    var info = stat()
    guard stat(database.path, &info) == 0 else { return nil }
    guard stat(database.path + "-wal", &info) == 0 else { return .immutable }
    return info.st_size == 0 ? .immutable : .readOnly
  }
}
