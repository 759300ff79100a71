import Essentials
import Foundation

/// Something found while opening the store that the user must know about.
///
/// Any issue means the store was opened read-only.
public enum StoreIssue: Sendable, Equatable, LocalizedStoreError {
  /// The file holds a newer schema than this program knows; it was not migrated.
  case newerSchema(module: String, found: Int, supported: Int)
  /// A migration failed and was rolled back; the data is as it was before.
  case migrationFailed(
    module: String, version: Int, name: String, message: String, safetyCopy: URL?)
  /// Opened read-only on request while migrations are pending; queries may fail.
  case pendingMigrations(module: String, found: Int, supported: Int)
  /// msa may not write in the data directory (permissions, a read-only file system): the
  /// data was opened read-only; commands that only read work.
  case readOnlyHome(path: String)
  /// A file msa writes beside the database (its write-ahead log or shared memory, left by
  /// another user or a restore) may not be written by this user: the data was opened
  /// read-only. `mode` is `0444`-style, `owner` the owner's user name or id.
  case unwritableFile(path: String, mode: String, owner: String)

  /// The message in `language`, telling what happened and what to do.
  public func localizedMessage(_ language: AppLanguage) -> String {
    switch self {
    case .newerSchema(let module, let found, let supported):
      return LocalStoreStrings.text(
        "store.issue.newerSchema", language,
        ["module": module, "found": String(found), "supported": String(supported)])
    case .migrationFailed(let module, let version, let name, let message, let safetyCopy):
      var arguments = [
        "module": module, "version": String(version), "name": name, "message": message,
      ]
      if let safetyCopy {
        arguments["backup"] = safetyCopy.path
        return LocalStoreStrings.text("store.issue.migrationFailed", language, arguments)
      }
      return LocalStoreStrings.text("store.issue.migrationFailed.noCopy", language, arguments)
    case .pendingMigrations(let module, let found, let supported):
      return LocalStoreStrings.text(
        "store.issue.pendingMigrations", language,
        ["module": module, "found": String(found), "supported": String(supported)])
    case .readOnlyHome(let path):
      return LocalStoreStrings.text("store.issue.readOnlyHome", language, ["path": path])
    case .unwritableFile(let path, let mode, let owner):
      return LocalStoreStrings.text(
        "store.issue.unwritableFile", language, ["path": path, "mode": mode, "owner": owner])
    }
  }
}

/// Why the store could not be opened at all.
public enum StoreError: LocalizedStoreError, Equatable {
  /// Two schema modules share a name.
  case duplicateModule(String)
  /// A module's migration versions are not 1, 2, 3… in order.
  case invalidMigrationVersions(module: String)
  /// Read-only opening of a database that does not exist.
  case databaseMissing(path: String)
  /// The database file could not be opened or read.
  case database(SQLiteError)
  /// The database file is damaged (not SQLite, truncated, empty in a used home, corrupt):
  /// nothing was changed; `msa data restore BACKUP` brings the data back.
  case damaged(path: String, problem: DatabaseDamage, directory: String)
  /// The database file is another program's SQLite file (tables without msa's mark, or
  /// another program's mark, ``DatabaseOwner``): msa did not write into it.
  case foreign(path: String, tables: Int)

  /// The message in `language`.
  public func localizedMessage(_ language: AppLanguage) -> String {
    switch self {
    case .duplicateModule(let module):
      LocalStoreStrings.text("store.error.duplicateModule", language, ["module": module])
    case .invalidMigrationVersions(let module):
      LocalStoreStrings.text("store.error.invalidMigrations", language, ["module": module])
    case .databaseMissing(let path):
      LocalStoreStrings.text("store.error.databaseMissing", language, ["path": path])
    case .database(let error):
      error.localizedMessage(language)
    case .damaged(let path, let problem, let directory):
      Self.damageMessage(path: path, problem: problem, directory: directory, language)
    case .foreign(let path, let tables):
      LocalStoreStrings.text(
        "store.error.foreign", language, ["path": path, "count": String(tables)])
    }
  }

  private static func damageMessage(
    path: String, problem: DatabaseDamage, directory: String, _ language: AppLanguage
  ) -> String {
    let home = URL(fileURLWithPath: directory, isDirectory: true)
    let copies = DatabaseFile.safetyCopies(in: home)
    var text =
      problem == .header(.missing)
      ? LocalStoreStrings.text(
        "store.error.missing", language,
        ["path": path, "marker": home.appendingPathComponent(Store.markerFileName).path])
      : LocalStoreStrings.text(
        "store.error.damaged", language, ["path": path, "problem": problem.describe(language)])
    if let newest = copies.first {
      text +=
        " "
        + LocalStoreStrings.text(
          "store.error.damaged.copies", language,
          ["count": String(copies.count), "newest": newest.path])
    }
    return text
  }
}

/// What is wrong with a damaged database file.
public enum DatabaseDamage: Sendable, Equatable {
  /// Seen from its header, before SQLite opened it.
  case header(DatabaseFile.Problem)
  /// SQLite's own words (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
  case sqlite(String)

  /// The problem in plain words.
  public func describe(_ language: AppLanguage) -> String {
    switch self {
    case .header(let problem): DatabaseFile.describe(problem, language)
    case .sqlite(let message):
      LocalStoreStrings.text("database.problem.sqlite", language, ["message": message])
    }
  }
}
