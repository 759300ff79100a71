import Essentials
import Foundation

/// The app's local data: the SQLite database `msa.sqlite` and the credential store, in one
/// data directory.
///
/// ``open(directory:modules:clock:readOnly:credentials:)`` applies the ``CoreSchema`` module
/// plus the features' modules. When a module's stored schema is newer than the code, or a
/// migration fails, the store is still returned, **read-only**, with the reason in
/// ``issues``; callers show those issues and refuse writes (repositories throw
/// ``RegistryError/readOnly(reason:)``).
public final class Store: Sendable {
  /// The database file name inside the data directory.
  public static let databaseFileName = "msa.sqlite"

  /// The data directory.
  public let directory: URL
  /// `<directory>/msa.sqlite`.
  public let databaseURL: URL
  /// The connection every repository shares.
  public let database: SQLiteDatabase
  /// Problems found while opening; non-empty means read-only.
  public let issues: [StoreIssue]
  /// Whether writes are refused (on request, or because of ``issues``).
  public let isReadOnly: Bool
  /// Instance passwords (never in the database).
  public let credentials: any CredentialStore
  /// The clock stamping every write.
  public let clock: AppClock
  /// Migrations applied and safety copies made while opening.
  public let migrationReport: MigrationReport

  private init(
    directory: URL, database: SQLiteDatabase, issues: [StoreIssue], isReadOnly: Bool,
    credentials: any CredentialStore, clock: AppClock, migrationReport: MigrationReport
  ) {
    self.directory = directory
    self.databaseURL = database.url
    self.database = database
    self.issues = issues
    self.isReadOnly = isReadOnly
    self.credentials = credentials
    self.clock = clock
    self.migrationReport = migrationReport
  }

  /// Opens the store in `directory` (created with mode 0700 unless `readOnly`).
  ///
  /// - Parameters:
  ///   - modules: the features' schema modules; ``CoreSchema/module`` is always included.
  ///   - readOnly: open without migrating or writing; the database must exist.
  ///   - credentials: the credential store; by default ``FileCredentialStore`` in `directory`.
  /// - Throws: ``StoreError`` or ``DataDirectoryError`` when nothing can be opened at all.
  public static func open(
    directory: URL, modules: [SchemaModule], clock: AppClock, readOnly: Bool = false,
    credentials: (any CredentialStore)? = nil
  ) throws -> Store {
    var all = [CoreSchema.module]
    for module in modules where module.name != CoreSchema.module.name {
      guard !all.contains(where: { $0.name == module.name }) else {
        throw StoreError.duplicateModule(module.name)
      }
      all.append(module)
    }
    for module in all where !module.hasValidVersions {
      throw StoreError.invalidMigrationVersions(module: module.name)
    }
    let databaseURL = directory.appendingPathComponent(databaseFileName)
    let credentialStore = credentials ?? FileCredentialStore(directory: directory)

    if readOnly {
      guard FileManager.default.fileExists(atPath: databaseURL.path) else {
        throw StoreError.databaseMissing(path: databaseURL.path)
      }
      let database = try openDatabase(databaseURL, .readOnly)
      let issues = try wrap { try SchemaMigrator.inspect(database, modules: all) }
      return Store(
        directory: directory, database: database, issues: issues, isReadOnly: true,
        credentials: credentialStore, clock: clock, migrationReport: MigrationReport())
    }

    try DataDirectory.prepare(directory)
    let writable = try openDatabase(databaseURL, .readWrite)
    let report = try wrap { try SchemaMigrator(database: writable, clock: clock).migrate(all) }
    guard report.issues.isEmpty else {
      writable.close()
      let database = try openDatabase(databaseURL, .readOnly)
      return Store(
        directory: directory, database: database, issues: report.issues, isReadOnly: true,
        credentials: credentialStore, clock: clock, migrationReport: report)
    }
    return Store(
      directory: directory, database: writable, issues: [], isReadOnly: false,
      credentials: credentialStore, clock: clock, migrationReport: report)
  }

  /// The stored schema version of each module.
  public func schemaVersions() throws -> [String: Int] {
    try SchemaMigrator.storedVersions(database)
  }

  /// Throws ``RegistryError/readOnly(reason:)`` when writes are refused; repositories call it
  /// before every write.
  public func requireWritable() throws(RegistryError) {
    if isReadOnly { throw .readOnly(reason: issues.first) }
  }

  private static func openDatabase(_ url: URL, _ mode: SQLiteDatabase.Mode) throws -> SQLiteDatabase
  {
    do {
      return try SQLiteDatabase(url: url, mode: mode)
    } catch {
      throw StoreError.database(error)
    }
  }

  private static func wrap<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as SQLiteError {
      throw StoreError.database(error)
    }
  }
}
