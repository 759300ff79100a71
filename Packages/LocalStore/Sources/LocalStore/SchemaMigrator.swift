import Essentials
import Foundation

/// What opening the store did to the schema.
public struct MigrationReport: Sendable, Equatable {
  /// One applied migration.
  public struct Step: Sendable, Equatable {
    /// The module it belongs to.
    public let module: String
    /// The version reached.
    public let version: Int
    /// The migration's name.
    public let name: String
  }

  /// Migrations applied, in order.
  public var applied: [Step] = []
  /// Safety copies made before migrating a database that held data.
  public var safetyCopies: [URL] = []
  /// Problems found; any problem means the store must be opened read-only.
  public var issues: [StoreIssue] = []
}

/// Brings each ``SchemaModule`` up to date, one transaction per migration.
///
/// Rules: a module whose stored version is newer than the code stops everything (nothing is
/// migrated); a database with data gets a safety copy (online backup) next to it before a
/// module's first pending migration; a failing migration is rolled back and stops the rest.
/// Nothing is ever deleted.
struct SchemaMigrator {
  let database: SQLiteDatabase
  let clock: AppClock

  static let versionTableSQL = """
    CREATE TABLE IF NOT EXISTS schema_versions (
      module TEXT PRIMARY KEY,
      version INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    )
    """

  /// The stored version of every module (0 when absent or when the table does not exist).
  static func storedVersions(_ database: SQLiteDatabase) throws -> [String: Int] {
    let hasTable = try database.queryOne(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_versions'")
    guard hasTable != nil else { return [:] }
    var versions: [String: Int] = [:]
    for row in try database.query("SELECT module, version FROM schema_versions") {
      versions[try row.string("module")] = try row.int("version")
    }
    return versions
  }

  /// Issues for a database opened read-only without migrating.
  static func inspect(_ database: SQLiteDatabase, modules: [SchemaModule]) throws -> [StoreIssue] {
    let stored = try storedVersions(database)
    return modules.compactMap { module in
      let found = stored[module.name] ?? 0
      if found > module.latestVersion {
        return .newerSchema(module: module.name, found: found, supported: module.latestVersion)
      }
      if found < module.latestVersion {
        return .pendingMigrations(
          module: module.name, found: found, supported: module.latestVersion)
      }
      return nil
    }
  }

  /// Applies every pending migration.
  ///
  /// Each module is migrated under the database's write lock (`BEGIN IMMEDIATE`), and its
  /// stored version is read again inside that lock: when several processes start at once on
  /// a new data directory (twenty `msa fleet add` in a script), the first to get the lock
  /// migrates and every other one finds the work done, instead of running `CREATE TABLE` a
  /// second time. The safety copy is made inside the lock too, so only the process that
  /// really migrates makes one. A module's pending steps commit together: a failing step rolls
  /// the module back to its stored version (issue 29 point 10).
  func migrate(_ modules: [SchemaModule]) throws -> MigrationReport {
    var report = MigrationReport()
    // A first look without the lock: nothing pending (every later start) costs no write lock.
    let glance = try Self.storedVersions(database)
    for module in modules {
      let found = glance[module.name] ?? 0
      if found > module.latestVersion {
        report.issues.append(
          .newerSchema(module: module.name, found: found, supported: module.latestVersion))
      }
    }
    guard report.issues.isEmpty else { return report }
    guard modules.contains(where: { (glance[$0.name] ?? 0) < $0.latestVersion }) else {
      return report
    }
    for module in modules {
      var failure: StoreIssue?
      do {
        try migrate(module, report: &report, failure: &failure)
      } catch is MigrationStopped {
        // Rolled back; `failure` says why.
      }
      if let failure {
        report.issues.append(failure)
        return report
      }
    }
    return report
  }

  /// Migrates one module under the write lock (see ``migrate(_:)``).
  private func migrate(
    _ module: SchemaModule, report: inout MigrationReport, failure: inout StoreIssue?
  ) throws {
    try database.transaction { database in
      try database.execute(Self.versionTableSQL)
      // Read again under the write lock: another process may have migrated meanwhile.
      let found = try Self.storedVersions(database)[module.name] ?? 0
      if found > module.latestVersion {
        failure = .newerSchema(
          module: module.name, found: found, supported: module.latestVersion)
        return
      }
      let steps = module.migrations.filter { $0.version > found }
        .sorted { $0.version < $1.version }
      guard let first = steps.first else { return }
      var safetyCopy: URL?
      if try hasData() {
        // Copied through a second, reading connection: this one holds the write lock, and
        // SQLite's backup refuses a source connection that is writing. In WAL mode the
        // reader sees the last committed state, the one before this migration.
        let reader = try SQLiteDatabase(url: database.url, mode: .readOnly)
        defer { reader.close() }
        let copy = try reader.backup(
          to: try safetyCopyURL(module: module.name, version: first.version), existing: .number)
        safetyCopy = copy
        report.safetyCopies.append(copy)
      }
      var applied: [MigrationReport.Step] = []
      for step in steps {
        do {
          try database.savepoint("migration_step") {
            try step.apply(database)
            try database.run(
              """
              INSERT INTO schema_versions (module, version, updated_at) VALUES (?, ?, ?)
              ON CONFLICT(module) DO UPDATE SET version = excluded.version,
                updated_at = excluded.updated_at
              """, [module.name, step.version, clock.now()])
          }
          applied.append(.init(module: module.name, version: step.version, name: step.name))
        } catch {
          let message = (error as? SQLiteError)?.message ?? String(describing: error)
          failure = .migrationFailed(
            module: module.name, version: step.version, name: step.name, message: message,
            safetyCopy: safetyCopy)
          throw MigrationStopped()
        }
      }
      report.applied += applied
    }
  }

  /// Ends a module's transaction when a step failed (rolled back; the issue says why).
  private struct MigrationStopped: Error {}

  /// Whether any table other than `schema_versions` holds at least one row.
  private func hasData() throws -> Bool {
    let tables = try database.query(
      """
      SELECT name FROM sqlite_master WHERE type = 'table'
        AND name NOT LIKE 'sqlite_%' AND name != 'schema_versions'
        AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'
      """)
    for table in tables {
      let name = try table.string("name").replacingOccurrences(of: "\"", with: "\"\"")
      if try database.queryOne("SELECT 1 FROM \"\(name)\" LIMIT 1") != nil { return true }
    }
    return false
  }

  /// `<dbname>.before-<module>-v<N>.<timestamp>.sqlite` next to the database, made unique
  /// with a counter when a copy with that name exists.
  private func safetyCopyURL(module: String, version: Int) throws -> URL {
    let directory = database.url.deletingLastPathComponent()
    let base = database.url.deletingPathExtension().lastPathComponent
    let stamp = Self.timestamp(clock.now())
    var candidate = directory.appendingPathComponent(
      "\(base).before-\(module)-v\(version).\(stamp).sqlite")
    var counter = 2
    while FileManager.default.fileExists(atPath: candidate.path) {
      candidate = directory.appendingPathComponent(
        "\(base).before-\(module)-v\(version).\(stamp)-\(counter).sqlite")
      counter += 1
    }
    return candidate
  }

  /// `20260101T000000Z` in UTC.
  static func timestamp(_ date: Date) -> String {
    let text = CivilTime(date, offsetSeconds: 0).text()
    return text.filter { $0 != "-" && $0 != ":" }.replacingOccurrences(of: " ", with: "T") + "Z"
  }
}
