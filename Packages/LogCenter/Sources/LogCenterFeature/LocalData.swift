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

  /// Directory, size, table counts and schema versions.
  public func summary() throws -> DataSummary {
    var tables: [DataSummary.TableCount] = []
    let names = try store.database.query(
      """
      SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
      ORDER BY name
      """)
    for row in names {
      let name = try row.string("name")
      let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      let count = try store.database.queryOne("SELECT count(*) AS n FROM \(quoted)")?.int("n") ?? 0
      tables.append(.init(table: name, rows: count))
    }
    return DataSummary(
      dataDirectory: store.directory.path, databasePath: store.databaseURL.path,
      databaseBytes: Self.fileBytes(store.databaseURL)
        + Self.fileBytes(URL(fileURLWithPath: store.databaseURL.path + "-wal")),
      tables: tables, schemaVersions: try store.schemaVersions(), readOnly: store.isReadOnly)
  }

  /// `PRAGMA integrity_check`: the problems found, empty when sound.
  public func check() throws -> [String] {
    try store.database.integrityCheck()
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
  /// may keep using the database). An existing file is refused unless `overwrite`.
  public func backup(to destination: URL, overwrite: Bool) throws -> Int64 {
    let exists = FileManager.default.fileExists(atPath: destination.path)
    if exists && !overwrite { throw LogCenterError.destinationExists(path: destination.path) }
    let folder = destination.deletingLastPathComponent()
    guard FileManager.default.isWritableFile(atPath: folder.path) else {
      throw LogCenterError.unwritable(path: destination.path, reason: "folder is not writable")
    }
    let partial = folder.appendingPathComponent(
      ".\(destination.lastPathComponent).\(UUID().uuidString).backup")
    do {
      try store.database.backup(to: partial)
    } catch {
      try? FileManager.default.removeItem(at: partial)
      throw LogCenterError.unwritable(path: destination.path, reason: error.message)
    }
    if rename(partial.path, destination.path) != 0 {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: partial)
      throw LogCenterError.unwritable(path: destination.path, reason: reason)
    }
    return Self.fileBytes(destination)
  }

  // MARK: - Restore

  /// Replaces the data with the database in `source`.
  ///
  /// Order: copy the file into the data directory (so it cannot change underneath), validate
  /// the copy (SQLite header, length, integrity check, `schema_versions` present, no module
  /// unknown or newer than the current data's), make a safety copy of the current data, then
  /// copy the pages in with one transaction. Any failure before the last step changes
  /// nothing; a failure during it rolls back, and the safety copy remains.
  public func restore(from source: URL) throws -> RestoreReport {
    try store.requireWritable()
    let staging = store.directory.appendingPathComponent(
      ".restore-\(UUID().uuidString).sqlite")
    defer {
      for suffix in ["", "-wal", "-shm", "-journal"] {
        try? FileManager.default.removeItem(atPath: staging.path + suffix)
      }
    }
    try Self.validateHeader(source)
    do {
      try FileManager.default.copyItem(at: source, to: staging)
    } catch {
      throw LogCenterError.unreadable(path: source.path, reason: error.localizedDescription)
    }
    let versions = try validate(staging, reportedAs: source.path)
    let safetyCopy = try safetyCopyURL()
    do {
      try store.database.backup(to: safetyCopy)
    } catch {
      throw LogCenterError.unwritable(path: safetyCopy.path, reason: error.message)
    }
    do {
      try store.database.restore(from: staging)
    } catch {
      throw LogCenterError.restoreFailed(reason: error.message, safetyCopy: safetyCopy.path)
    }
    return RestoreReport(
      source: source.path, safetyCopy: safetyCopy.path, schemaVersions: versions)
  }

  /// Refuses a file that is missing, unreadable, not SQLite, or shorter than its header says.
  static func validateHeader(_ url: URL) throws(LogCenterError) {
    let path = url.path
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw .unreadable(path: path, reason: "no such file, or no permission to read it")
    }
    defer { try? handle.close() }
    let header = handle.readData(ofLength: 100)
    guard header.count == 100, header.prefix(16) == Data("SQLite format 3\u{0}".utf8) else {
      throw .notADatabase(path: path)
    }
    let bytes = [UInt8](header)
    var pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
    if pageSize == 1 { pageSize = 65_536 }
    let pageCount =
      Int(bytes[28]) << 24 | Int(bytes[29]) << 16 | Int(bytes[30]) << 8 | Int(bytes[31])
    let changeCounter = bytes[24..<28]
    let validFor = bytes[92..<96]
    let actual = Int(fileBytes(url))
    // The in-header size is trustworthy only when "version-valid-for" equals the counter.
    if changeCounter.elementsEqual(validFor), pageCount > 0, actual < pageCount * pageSize {
      throw .truncated(path: path, expected: pageCount * pageSize, actual: actual)
    }
    if actual < pageSize || actual % max(pageSize, 1) != 0 {
      throw .truncated(path: path, expected: max(pageCount, 1) * pageSize, actual: actual)
    }
  }

  /// Opens the staged copy read-only and checks its content; returns its schema versions.
  private func validate(_ staging: URL, reportedAs path: String) throws -> [String: Int] {
    let candidate: SQLiteDatabase
    do {
      candidate = try SQLiteDatabase(url: staging, mode: .readOnly)
    } catch {
      throw LogCenterError.notADatabase(path: path)
    }
    defer { candidate.close() }
    let problems: [String]
    do {
      problems = try candidate.integrityCheck()
    } catch {
      throw LogCenterError.integrityFailed(path: path, problems: [error.message])
    }
    guard problems.isEmpty else {
      throw LogCenterError.integrityFailed(path: path, problems: problems)
    }
    let hasTable = try? candidate.queryOne(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_versions'")
    guard hasTable != nil else { throw LogCenterError.missingSchemaVersions(path: path) }
    var versions: [String: Int] = [:]
    do {
      for row in try candidate.query("SELECT module, version FROM schema_versions") {
        versions[try row.string("module")] = try row.int("version")
      }
    } catch {
      throw LogCenterError.missingSchemaVersions(path: path)
    }
    let current = try store.schemaVersions()
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

  /// `msa.before-restore.<stamp>.sqlite` in the data directory, unique.
  private func safetyCopyURL() throws -> URL {
    let stamp = LogTime.stamp(clock.now())
    var candidate = store.directory.appendingPathComponent("msa.before-restore.\(stamp).sqlite")
    var counter = 2
    while FileManager.default.fileExists(atPath: candidate.path) {
      candidate = store.directory.appendingPathComponent(
        "msa.before-restore.\(stamp)-\(counter).sqlite")
      counter += 1
    }
    return candidate
  }

  // MARK: - Sizes

  private func logicalBytes() throws -> Int64 {
    let pages = try store.database.queryOne("PRAGMA page_count")?.values.first
    let size = try store.database.queryOne("PRAGMA page_size")?.values.first
    return (pages.flatMap(Int64.fromSQLite) ?? 0) * (size.flatMap(Int64.fromSQLite) ?? 0)
  }

  static func fileBytes(_ url: URL) -> Int64 {
    let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
  }
}

extension Error {
  /// A short, secret-free explanation for messages.
  var message: String {
    if let failure = self as? any LocalizedFailure { return failure.localizedMessage(.english) }
    return Redactor.redact(text: String(describing: self))
  }
}
