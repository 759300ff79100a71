import Essentials
import Foundation

/// Whose SQLite file a database is: msa's, an empty one msa may make its own, or another
/// program's, which msa never writes into.
///
/// msa marks its databases with `PRAGMA application_id` (``applicationID``, "MSA1"): a new
/// database when it is created, an existing home the first time this version opens it. A
/// file with tables and without the mark is msa's only when it has msa's `schema_versions`
/// table with the `core` module (a home from before the mark). One check serves the store's
/// opening (``Store``) and `msa data restore` (its staged copy), before anything is written.
public enum DatabaseOwner {
  /// msa's `application_id`: the bytes "MSA1".
  public static let applicationID: Int32 = 0x4D53_4131

  /// What a database file is, to msa.
  public enum Verdict: Sendable, Equatable {
    /// msa's, marked.
    case marked
    /// msa's, from before the mark (`schema_versions` with `core`, `application_id` 0).
    case unmarked
    /// No tables: a new database msa may make its own.
    case empty
    /// Another program's: tables without msa's mark, or another program's mark.
    case foreign(applicationID: Int32, tables: Int)

    /// Whether msa may use the file as its database.
    public var isMSA: Bool {
      switch self {
      case .marked, .unmarked, .empty: true
      case .foreign: false
      }
    }
  }

  /// Reads the mark and the tables of an open database; writes nothing.
  public static func verdict(of database: SQLiteDatabase) throws(SQLiteError) -> Verdict {
    let mark =
      try database.queryOne("PRAGMA application_id")?.values.first
      .flatMap(Int64.fromSQLite).map { Int32(truncatingIfNeeded: $0) } ?? 0
    let tables = try database.query(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ).compactMap { $0.values.first.flatMap(String.fromSQLite) }
    if mark == applicationID { return .marked }
    if mark != 0 { return .foreign(applicationID: mark, tables: tables.count) }
    if tables.isEmpty { return .empty }
    if tables.contains("schema_versions"),
      try database.queryOne("SELECT 1 FROM schema_versions WHERE module = 'core'") != nil
    {
      return .unmarked
    }
    return .foreign(applicationID: 0, tables: tables.count)
  }

  /// Marks the database as msa's (one write of its header).
  static func mark(_ database: SQLiteDatabase) throws(SQLiteError) {
    try database.execute("PRAGMA application_id = \(applicationID)")
  }

  /// The verdict on the file at `url`, read through a read-only connection of its own (nil
  /// for a file that is not there or is empty). A file SQLite cannot read throws SQLite's
  /// error, for the caller to word as damage.
  static func verdict(ofFileAt url: URL) throws(SQLiteError) -> Verdict? {
    guard DatabaseFile.size(url) > 0 else { return nil }
    let database = try SQLiteDatabase(url: url, mode: .readOnly)
    defer { database.close() }
    return try verdict(of: database)
  }
}
