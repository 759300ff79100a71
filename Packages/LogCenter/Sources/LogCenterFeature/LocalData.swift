import Essentials
import Foundation
import LocalStore

/// What `msa data info` reports.
public struct DataSummary: Sendable, Equatable, Codable {
  /// One table and its row count.
  public struct TableCount: Sendable, Equatable, Codable {
    /// The table name.
    public var table: String
    /// Its rows.
    public var rows: Int

    /// A count.
    public init(table: String, rows: Int) {
      self.table = table
      self.rows = rows
    }
  }

  /// The data directory.
  public var dataDirectory: String
  /// The database file.
  public var databasePath: String
  /// Bytes of the database file plus its write-ahead log.
  public var databaseBytes: Int64
  /// Every table with its rows, by name.
  public var tables: [TableCount]
  /// The stored schema version of each module.
  public var schemaVersions: [String: Int]
  /// Whether the store was opened read-only.
  public var readOnly: Bool

  /// A summary.
  public init(
    dataDirectory: String, databasePath: String, databaseBytes: Int64, tables: [TableCount],
    schemaVersions: [String: Int], readOnly: Bool
  ) {
    self.dataDirectory = dataDirectory
    self.databasePath = databasePath
    self.databaseBytes = databaseBytes
    self.tables = tables
    self.schemaVersions = schemaVersions
    self.readOnly = readOnly
  }
}

/// What `msa data compact` reports.
public struct CompactReport: Sendable, Equatable, Codable {
  /// Bytes before `VACUUM`.
  public var bytesBefore: Int64
  /// Bytes after.
  public var bytesAfter: Int64
}

/// What `msa data restore` reports.
public struct RestoreReport: Sendable, Equatable, Codable {
  /// The file restored from.
  public var source: String
  /// The copy of the previous data, made first.
  public var safetyCopy: String
  /// The schema versions of the restored data.
  public var schemaVersions: [String: Int]
}

/// Local data maintenance: summary, integrity check, compaction, backup and restore.
public struct LocalData: Sendable {
  /// The store.
  public let store: Store
  /// The clock naming safety copies.
  public let clock: AppClock

  /// Maintenance over `store`.
  public init(store: Store, clock: AppClock) {
    self.store = store
    self.clock = clock
  }

  // MARK: - Inspecting

  /// Directory, size, table counts and schema versions. A virtual table that cannot be
  /// scanned (a contentless full-text index) is left out: its rows live in its shadow
  /// tables, which are counted.
  public func summary() throws -> DataSummary {
    var tables: [DataSummary.TableCount] = []
    let names = try store.database.query(
      """
      SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
      ORDER BY name
      """)
    for row in names {
      let name = try row.string("name")
      let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      let query = "SELECT count(*) AS n FROM \(quoted)"
      let virtual = (try row.optionalString("sql") ?? "").uppercased()
        .hasPrefix("CREATE VIRTUAL TABLE")
      let count: Int
      if virtual {
        guard let rows = try? store.database.queryOne(query)?.int("n") else { continue }
        count = rows
      } else {
        count = try store.database.queryOne(query)?.int("n") ?? 0
      }
      tables.append(.init(table: name, rows: count))
    }
    return DataSummary(
      dataDirectory: store.directory.path, databasePath: store.databaseURL.path,
      databaseBytes: Self.fileBytes(store.databaseURL)
        + Self.fileBytes(URL(fileURLWithPath: store.databaseURL.path + "-wal")),
      tables: tables, schemaVersions: try store.schemaVersions(), readOnly: store.isReadOnly)
  }

  /// `PRAGMA integrity_check`: the problems found, empty when sound. A file so damaged the
  /// check cannot run gives SQLite's error as its one problem.
  public func check() -> [String] {
    do {
      return try store.database.integrityCheck()
    } catch {
      return [error.message]
    }
  }

  /// Instance names, group names and tags holding control or bidi characters (stored before
  /// they were refused), each with the command that fixes it; nothing is changed.
  static func nameProblems(store: Store, language: AppLanguage) throws -> [String] {
    try InstanceRepository(store: store).namesWithControls().map { problem in
      LogCenterStrings.text(
        "data.check.control.\(problem.kind.rawValue)", language,
        ["id": problem.id, "text": problem.shown])
    }
  }

  /// Instances whose names collide ignoring case and surrounding spaces (stored before names
  /// were compared so; a reference by that name is ambiguous), one line per name listing
  /// every id and how to rename by id; nothing is renamed.
  static func nameCollisions(store: Store, language: AppLanguage) throws -> [String] {
    try InstanceRepository(store: store).nameCollisions().map { instances in
      LogCenterStrings.text(
        "data.check.collision", language,
        [
          "names": instances.map { "\"\(UntrustedText.neutralised($0.name))\"" }
            .joined(separator: ", "),
          "ids": instances.map(\.id).joined(separator: ", "),
          "id": instances[0].id,
        ])
    }
  }

  /// Instances registered more than once at one origin (issue 36: an older version kept
  /// `http://2130706433:3000` beside `http://127.0.0.1:3000`), one line per origin listing
  /// every id (oldest first) and how to remove all but the first by id; nothing is removed.
  static func originCollisions(store: Store, language: AppLanguage) throws -> [String] {
    try InstanceRepository(store: store).originCollisions().map { instances in
      LogCenterStrings.text(
        "data.check.sameOrigin", language,
        [
          "ids": instances.map(\.id).joined(separator: ", "),
          "names": instances.map { "\"\(UntrustedText.neutralised($0.name))\"" }
            .joined(separator: ", "),
          "origin": instances[0].origin.string,
          "others": instances.dropFirst().map(\.id).joined(separator: " "),
        ])
    }
  }

  /// Rebuilds the file (`VACUUM`) and reports the size before and after.
  public func compact() throws -> CompactReport {
    try store.requireWritable()
    let before = try logicalBytes()
    try store.database.vacuum()
    _ = try? store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
    return CompactReport(bytesBefore: before, bytesAfter: try logicalBytes())
  }

  // MARK: - Backup

  /// Writes a consistent copy of the database to `destination` (online backup API; the app
  /// may keep using the database), mode 0600, through a temporary file renamed into place.
  /// An existing file is refused unless `force`, and anything but a regular file always; a
  /// database failing its quick check is refused unless `force`.
  public func backup(to destination: URL, force: Bool) throws -> Int64 {
    if !force {
      let problems = store.database.quickCheck()
      guard problems.isEmpty else {
        throw LogCenterError.backupOfDamaged(path: store.databaseURL.path, problems: problems)
      }
    }
    do {
      try store.database.backup(to: destination, existing: force ? .replace : .refuse)
    } catch let failure as AtomicFile.Failure {
      throw failure
    } catch let error as SQLiteError where error.code == SQLiteError.fullCode {
      // The destination's disk (or the file size limit), in the system's words.
      throw LogCenterError.unwritable(path: destination.path, reason: error.message)
    } catch {
      throw LogCenterError.unwritable(path: destination.path, reason: error.message)
    }
    return DatabaseFile.size(destination)
  }

  // MARK: - Restore

  /// Replaces the data with the database in `source`.
  ///
  /// Order: copy the file into the data directory (a temporary file, so it cannot change
  /// underneath), validate the copy (SQLite header, length, integrity check,
  /// `schema_versions` present, no module unknown or newer than the current data's), make a
  /// safety copy of the current data, then copy the pages in with one transaction. Any
  /// failure before the last step changes nothing; a failure during it rolls back, and the
  /// safety copy remains.
  public func restore(from source: URL) throws -> RestoreReport {
    try store.requireWritable()
    let current = try store.schemaVersions()
    let (staging, versions) = try Self.stage(source, in: store.directory, current: current)
    defer { TemporaryFiles.remove(staging.path) }
    let safetyCopy: URL
    do {
      safetyCopy = try store.database.backup(to: try safetyCopyURL(), existing: .number)
    } catch {
      throw LogCenterError.unwritable(path: store.directory.path, reason: error.message)
    }
    do {
      try store.database.restore(from: staging)
    } catch {
      throw LogCenterError.restoreFailed(reason: error.message, safetyCopy: safetyCopy.path)
    }
    return RestoreReport(
      source: source.path, safetyCopy: safetyCopy.path, schemaVersions: versions)
  }

  /// Restores into a data directory whose database cannot be opened: the damaged file (and
  /// its `-wal` / `-shm`) is moved aside to `msa.damaged.<stamp>.sqlite`, never deleted, and
  /// the validated copy of `source` takes its place. The next open migrates it as usual (a
  /// newer schema opens read-only).
  public static func restoreIntoDamagedHome(
    directory: URL, databaseURL: URL, from source: URL, clock: AppClock
  ) throws -> RestoreReport {
    let (staging, versions) = try stage(source, in: directory, current: nil)
    defer { TemporaryFiles.remove(staging.path) }
    let aside = AtomicFile.unusedName(
      directory.appendingPathComponent("msa.damaged.\(LogTime.stamp(clock.now())).sqlite"))
    var moved = false
    for suffix in ["", "-wal", "-shm"]
    where FileManager.default.fileExists(atPath: databaseURL.path + suffix) {
      guard rename(databaseURL.path + suffix, aside.path + suffix) == 0 else {
        throw LogCenterError.unwritable(
          path: databaseURL.path + suffix, reason: String(cString: strerror(errno)))
      }
      moved = moved || suffix.isEmpty
    }
    guard rename(staging.path, databaseURL.path) == 0 else {
      throw LogCenterError.restoreFailed(
        reason: String(cString: strerror(errno)), safetyCopy: moved ? aside.path : "")
    }
    // A missing database had nothing to move aside: no safety copy to name.
    return RestoreReport(
      source: source.path, safetyCopy: moved ? aside.path : "", schemaVersions: versions)
  }

  /// Copies `source` to a temporary file in `directory` and validates the copy; returns it
  /// (the caller removes it) with its schema versions.
  private static func stage(_ source: URL, in directory: URL, current: [String: Int]?) throws
    -> (URL, [String: Int])
  {
    try validateHeader(source)
    let staging = try AtomicFile.temporaryFile(
      beside: directory.appendingPathComponent("restore.sqlite"))
    do {
      do {
        try AtomicFile.copyContents(of: source, into: staging)
      } catch {
        throw LogCenterError.unreadable(path: source.path, reason: error.reason)
      }
      return (staging, try validate(staging, reportedAs: source.path, current: current))
    } catch {
      TemporaryFiles.remove(staging.path)
      throw error
    }
  }

  /// Refuses a file that is missing, unreadable or not SQLite (empty, or without SQLite's
  /// header). Whether an SQLite file is whole is SQLite's to say, on the staged copy
  /// (``validate(_:reportedAs:current:)``): its size is only the words for a file SQLite
  /// refused.
  static func validateHeader(_ url: URL) throws(LogCenterError) {
    let path = url.path
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw .unreadable(path: path, reason: "no such file, or no permission to read it")
    }
    switch DatabaseFile.headerProblem(url) {
    case nil, .truncated: return
    case .empty, .notSQLite, .missing: throw .notADatabase(path: path)
    }
  }

  /// The error for a copy SQLite refused: shorter than its header says, when it is, else
  /// SQLite's own findings.
  private static func refused(_ staging: URL, reportedAs path: String, problems: [String])
    -> LogCenterError
  {
    if case .truncated(let expected, let actual)? = DatabaseFile.headerProblem(staging) {
      return .truncated(path: path, expected: expected, actual: actual)
    }
    return .integrityFailed(path: path, problems: problems)
  }

  /// Opens the staged copy read-only and checks its content; returns its schema versions.
  /// `current` (the data's versions) refuses unknown or newer modules; nil skips that.
  private static func validate(_ staging: URL, reportedAs path: String, current: [String: Int]?)
    throws -> [String: Int]
  {
    let candidate: SQLiteDatabase
    do {
      candidate = try SQLiteDatabase(url: staging, mode: .readOnly)
    } catch {
      if error.code == SQLiteError.corruptCode {
        throw refused(staging, reportedAs: path, problems: [error.message])
      }
      throw LogCenterError.notADatabase(path: path)
    }
    defer { candidate.close() }
    let problems: [String]
    do {
      problems = try candidate.integrityCheck()
    } catch {
      throw refused(staging, reportedAs: path, problems: [error.message])
    }
    guard problems.isEmpty else {
      throw refused(staging, reportedAs: path, problems: problems)
    }
    // The store's own check (DatabaseOwner): msa's mark, or msa's schema from before it.
    switch try? DatabaseOwner.verdict(of: candidate) {
    case .marked?, .unmarked?: break
    case .foreign(_, let tables)?: throw LogCenterError.foreignDatabase(path: path, tables: tables)
    case .empty?, nil: throw LogCenterError.missingSchemaVersions(path: path)
    }
    var versions: [String: Int] = [:]
    do {
      for row in try candidate.query("SELECT module, version FROM schema_versions") {
        versions[try row.string("module")] = try row.int("version")
      }
    } catch {
      throw LogCenterError.missingSchemaVersions(path: path)
    }
    guard let current else { return versions }
    for (module, found) in versions.sorted(by: { $0.key < $1.key }) {
      guard let supported = current[module] else {
        throw LogCenterError.unknownModule(path: path, module: module)
      }
      if found > supported {
        throw LogCenterError.newerSchema(
          path: path, module: module, found: found, supported: supported)
      }
    }
    return versions
  }

  /// `msa.before-restore.<stamp>.sqlite` in the data directory (numbered when taken).
  private func safetyCopyURL() throws -> URL {
    store.directory.appendingPathComponent(
      "msa.before-restore.\(LogTime.stamp(clock.now())).sqlite")
  }

  // MARK: - Sizes

  private func logicalBytes() throws -> Int64 {
    let pages = try store.database.queryOne("PRAGMA page_count")?.values.first
    let size = try store.database.queryOne("PRAGMA page_size")?.values.first
    return (pages.flatMap(Int64.fromSQLite) ?? 0) * (size.flatMap(Int64.fromSQLite) ?? 0)
  }

  static func fileBytes(_ url: URL) -> Int64 {
    DatabaseFile.size(url)
  }
}

extension Error {
  /// A short, secret-free explanation for messages.
  var message: String {
    if let failure = self as? any LocalizedFailure { return failure.localizedMessage(.english) }
    return Redactor.redact(text: String(describing: self))
  }
}
