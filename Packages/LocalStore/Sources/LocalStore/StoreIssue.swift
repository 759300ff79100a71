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
    }
  }
}
