import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// The marker msa writes once it has created its database: with it, a missing header or
  /// an empty `msa.sqlite` means damage, not a first run.
  public static let markerFileName = ".msa-home"

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

  /// The most of a write-ahead log a process leaves behind for the next: SQLite's own
  /// automatic-checkpoint size, 1,000 pages of 4 KiB.
  public static let logLeftBehind = 1_000 * 4_096

  /// Ends this process's use of the store. When the write-ahead log file is larger than
  /// ``logLeftBehind`` (`fleet test` and `messages sync` let it grow to 64 MiB before a
  /// checkpoint), the database is closed: SQLite, closing the last connection, copies the log
  /// into the file and removes it, on the time of the command that wrote it. A smaller log
  /// stays for a later checkpoint. Why: a process's first connection reads the whole log again
  /// to rebuild its index (about 0.6 ms per MiB), so a 25 MiB log left behind made every later
  /// command, a Tab press included, about 20 ms slower. With another connection still open
  /// (another process's, or one of this process's own) SQLite skips the checkpoint, and the
  /// log waits as before.
  public func finish() {
    guard !isReadOnly else { return }
    var info = stat()
    guard stat(databaseURL.path + "-wal", &info) == 0, Int(info.st_size) > Self.logLeftBehind
    else { return }
    database.close()
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

    let unwritable = FileAccess.unwritableCompanions(of: databaseURL)
    if readOnly || !homeIsWritable(directory, databaseURL) || !unwritable.isEmpty {
      guard FileManager.default.fileExists(atPath: databaseURL.path) else {
        throw StoreError.databaseMissing(path: databaseURL.path)
      }
      try refuseDamaged(databaseURL, directory: directory)
      let database = try openReadOnly(databaseURL)
      try wrap(databaseURL) { try refuseForeign(DatabaseOwner.verdict(of: database), databaseURL) }
      var issues = try wrap(databaseURL) { try SchemaMigrator.inspect(database, modules: all) }
      if !readOnly {
        // A file beside the database that this user may not write (another user's, a
        // restore's) is named with its mode; SQLite would refuse every write with its code 8.
        let issue = unwritable.first.map {
          StoreIssue.unwritableFile(path: $0.path, mode: $0.mode, owner: $0.owner)
        }
        issues.insert(issue ?? .readOnlyHome(path: directory.path), at: 0)
      }
      return Store(
        directory: directory, database: database, issues: issues, isReadOnly: true,
        credentials: credentialStore, clock: clock, migrationReport: MigrationReport())
    }

    try DataDirectory.prepare(directory)
    try refuseDamaged(databaseURL, directory: directory)
    // Another program's SQLite file is refused before anything is written to it (the
    // read-write connection below sets WAL mode at once).
    let owner = try wrap(databaseURL) { try DatabaseOwner.verdict(ofFileAt: databaseURL) }
    try refuseForeign(owner, databaseURL)
    try createPrivateFile(databaseURL)
    let writable = try openDatabase(databaseURL, .readWrite)
    let report = try wrap(databaseURL) {
      try SchemaMigrator(database: writable, clock: clock).migrate(all)
    }
    guard report.issues.isEmpty else {
      writable.close()
      let database = try openDatabase(databaseURL, .readOnly)
      return Store(
        directory: directory, database: database, issues: report.issues, isReadOnly: true,
        credentials: credentialStore, clock: clock, migrationReport: report)
    }
    // New databases and homes from before the mark get it once (four header bytes: not a
    // versioned migration, which would first copy the whole archive aside).
    if owner != .marked {
      try wrap(databaseURL) { try DatabaseOwner.mark(writable) }
    }
    writeMarker(directory)
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

  // MARK: - Opening

  /// Whether msa may write in `directory` (or it does not exist yet) and to the database.
  static func homeIsWritable(_ directory: URL, _ databaseURL: URL) -> Bool {
    var info = stat()
    guard stat(directory.path, &info) == 0 else { return true }
    if access(directory.path, W_OK) != 0 { return false }
    if stat(databaseURL.path, &info) == 0, access(databaseURL.path, W_OK) != 0 { return false }
    return true
  }

  /// Refuses what SQLite cannot be asked about: an empty file in a home msa has used before
  /// (a first run may find an empty file; a used home must not silently start afresh, and
  /// SQLite would remove a WAL beside an empty file), and a missing database in a home that
  /// holds msa's marker: msa created it there before, so a new empty one would hide the loss
  /// of every message. Removing the marker is how a user starts afresh on purpose (the
  /// message says so).
  ///
  /// Whether a file that is there is damaged is SQLite's to say, never its size's: a main
  /// file shorter than its header says, with the rest in the write-ahead log, is what a kill
  /// during a checkpoint leaves and what another process sees while a checkpoint runs, and
  /// SQLite reads it whole. SQLite itself refuses a file whose header counts more pages than
  /// the file and its log hold (`SQLITE_CORRUPT`); the header is then only the hint that
  /// words the problem (``damage(_:_:)``).
  static func refuseDamaged(_ databaseURL: URL, directory: URL) throws(StoreError) {
    guard FileManager.default.fileExists(atPath: databaseURL.path) else {
      if FileManager.default.fileExists(
        atPath: directory.appendingPathComponent(markerFileName).path)
      {
        throw .damaged(
          path: databaseURL.path, problem: .header(.missing), directory: directory.path)
      }
      return
    }
    guard DatabaseFile.size(databaseURL) == 0 else { return }
    if !DatabaseFile.homeShowsEarlierUse(directory)
      && DatabaseFile.size(URL(fileURLWithPath: databaseURL.path + "-wal")) == 0
    {
      return
    }
    throw .damaged(path: databaseURL.path, problem: .header(.empty), directory: directory.path)
  }

  /// Refuses another program's SQLite file (``DatabaseOwner``), naming it; nothing was
  /// written.
  static func refuseForeign(_ verdict: DatabaseOwner.Verdict?, _ url: URL) throws(StoreError) {
    if case .foreign(_, let tables)? = verdict { throw .foreign(path: url.path, tables: tables) }
  }

  /// Creates an empty database file with mode 0600 (the umask notwithstanding) so SQLite,
  /// and the WAL and shared-memory files it makes with the same mode, stay private.
  static func createPrivateFile(_ url: URL) throws(StoreError) {
    let descriptor = openFile(
      url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, DataDirectory.fileMode)
    if descriptor < 0 {
      if errno == EEXIST { return }
      throw .database(
        SQLiteError(
          code: SQLiteError.cantOpenCode,
          message: "\(String(cString: strerror(errno))) (\(url.path))"))
    }
    _ = fchmod(descriptor, DataDirectory.fileMode)
    close(descriptor)
  }

  /// The marker of a used home, written once.
  private static func writeMarker(_ directory: URL) {
    let marker = directory.appendingPathComponent(markerFileName)
    guard !FileManager.default.fileExists(atPath: marker.path) else { return }
    _ = try? AtomicFile.write(
      Data(
        "MultiSimAdmin data directory. Keep this file: it tells msa this home is in use.\n".utf8),
      to: marker, existing: .refuse)
  }

  /// Read-only, and in a folder where SQLite cannot make its `-shm` file, immutable.
  private static func openReadOnly(_ url: URL) throws -> SQLiteDatabase {
    do {
      return try SQLiteDatabase(url: url, mode: .readOnly)
    } catch {
      if let damaged = damage(error, url) { throw damaged }
      return try openDatabase(url, .immutable)
    }
  }

  private static func openDatabase(_ url: URL, _ mode: SQLiteDatabase.Mode) throws -> SQLiteDatabase
  {
    do {
      return try SQLiteDatabase(url: url, mode: mode)
    } catch {
      throw damage(error, url) ?? StoreError.database(error)
    }
  }

  private static func wrap<T>(_ url: URL, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as SQLiteError {
      throw damage(error, url) ?? StoreError.database(error)
    }
  }

  /// `SQLITE_CORRUPT` and `SQLITE_NOTADB` as damage naming the file. SQLite has decided the
  /// file is damaged; its header, when it shows why (not SQLite's, or shorter than it says),
  /// words the problem, else SQLite's own message does.
  static func damage(_ error: SQLiteError, _ url: URL) -> StoreError? {
    guard error.code == SQLiteError.corruptCode || error.code == SQLiteError.notADatabaseCode
    else { return nil }
    var hint = DatabaseFile.headerProblem(url).map(DatabaseDamage.header)
    // With frames in the log, a short file is not the reason: SQLite reads the rest there.
    if case .header(.truncated)? = hint,
      DatabaseFile.size(URL(fileURLWithPath: url.path + "-wal")) > 32
    {
      hint = nil
    }
    return .damaged(
      path: url.path, problem: hint ?? .sqlite(error.message),
      directory: url.deletingLastPathComponent().path)
  }
}

/// `open(2)`, named apart from ``Store/open(directory:modules:clock:readOnly:credentials:)``.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  #if canImport(Glibc)
    return Glibc.open(path, flags, mode)
  #else
    return Darwin.open(path, flags, mode)
  #endif
}
