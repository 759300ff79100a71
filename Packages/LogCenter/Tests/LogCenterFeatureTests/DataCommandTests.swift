import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import LocalStoreTesting
import Testing

@testable import LogCenterFeature

@Suite struct DataCommandTests {
  func instanceNames(_ database: SQLiteDatabase) throws -> [String] {
    try database.query("SELECT name FROM instances ORDER BY name").map { try $0.string("name") }
  }

  @Test func infoCountsTablesAndSchemaVersions() async throws {
    let harness = try FeatureHarness(.logCenter)
    _ = try harness.addInstance("Router A", "http://10.0.0.1:3000")
    harness.storeLogger().info("hello")
    let result = try await harness.run(["data", "info"])
    let object = try result.jsonData()
    #expect(object["schemaVersions"] as? [String: Int] == ["core": 2])
    let tables = try #require(object["tables"] as? [[String: Any]])
    let counts = Dictionary(
      uniqueKeysWithValues: tables.map { ($0["table"] as? String ?? "", $0["rows"] as? Int ?? -1) })
    #expect(counts["instances"] == 1)
    #expect(counts["runtime_log"] == 1)
    #expect(counts["connection_log"] == 0)
    #expect((object["databaseBytes"] as? Int ?? 0) > 0)
    #expect(object["dataDirectory"] as? String == harness.directory.path)
  }

  /// A contentless full-text index (Messages' bigram index is one) cannot be scanned: `data
  /// info` leaves it out and counts its shadow tables, instead of failing.
  @Test func infoSkipsAVirtualTableThatCannotBeScanned() async throws {
    let harness = try FeatureHarness(.logCenter)
    try harness.store.database.execute(
      "CREATE VIRTUAL TABLE grams USING fts5(text, content='', detail='none', columnsize=0)")
    _ = try harness.store.database.run("INSERT INTO grams (rowid, text) VALUES (1, 'hello')")
    let result = try await harness.run(["data", "info"])
    let tables = try #require(try result.jsonData()["tables"] as? [[String: Any]])
    let names = tables.compactMap { $0["table"] as? String }
    #expect(!names.contains("grams"))
    #expect(names.contains("grams_data"))
    #expect(names.contains("instances"))
  }

  @Test func checkAndCompact() async throws {
    let harness = try FeatureHarness(.logCenter)
    let logger = harness.storeLogger()
    for index in 0..<300 { logger.info("record \(index) " + String(repeating: "x", count: 200)) }
    let check = try await harness.run(["data", "check"])
    #expect(try check.jsonData()["ok"] as? Bool == true)
    #expect(check.exitCode == .success)
    _ = try await harness.run(["logs", "clear", "--yes"])
    let compact = try await harness.run(["data", "compact"])
    let object = try compact.jsonData()
    let before = try #require(object["bytesBefore"] as? Int)
    let after = try #require(object["bytesAfter"] as? Int)
    #expect(after < before)
  }

  // MARK: - Backup and restore

  @Test func backupThenRestoreWhileAnotherConnectionHoldsTheDatabase() async throws {
    let harness = try FeatureHarness(.logCenter)
    _ = try harness.addInstance("Kept", "http://10.0.0.1:3000")
    let backup = harness.directory.appendingPathComponent("backups-keep.sqlite")
    let other = try SQLiteDatabase(url: harness.store.databaseURL)
    defer { other.close() }
    #expect(try instanceNames(other) == ["Kept"])

    let made = try await harness.run(["data", "backup", backup.path])
    #expect(try made.jsonData()["path"] as? String == backup.path)
    // Backing up over an existing file needs --force.
    let again = await harness.outcome(["data", "backup", backup.path])
    #expect(again.error as? AtomicFile.Failure == .destinationExists(path: backup.path))
    _ = try await harness.run(["data", "backup", backup.path, "--force"])

    _ = try harness.addInstance("Added later", "http://10.0.0.2:3000")
    #expect(try instanceNames(other) == ["Added later", "Kept"])

    // Without --yes: refused, nothing changed.
    let unconfirmed = await harness.outcome(["data", "restore", backup.path])
    #expect(unconfirmed.message.contains("--yes"))
    #expect(unconfirmed.message.contains(harness.store.databaseURL.path))
    #expect(try instanceNames(other) == ["Added later", "Kept"])

    let restored = try await harness.run(["data", "restore", backup.path, "--yes"])
    let report = try restored.jsonData()
    let safety = try #require(report["safetyCopy"] as? String)
    #expect(restored.text(width: 120).contains(safety))
    // Both the store's connection and the other connection see the restored data.
    #expect(try instanceNames(other) == ["Kept"])
    #expect(try instanceNames(harness.store.database) == ["Kept"])
    #expect(try harness.store.database.integrityCheck().isEmpty)
    // The safety copy holds the data as it was before.
    let copy = try SQLiteDatabase(url: URL(fileURLWithPath: safety), mode: .readOnly)
    defer { copy.close() }
    #expect(try instanceNames(copy) == ["Added later", "Kept"])
    // The store keeps working after the swap.
    _ = try harness.addInstance("After restore", "http://10.0.0.3:3000")
    #expect(try instanceNames(other) == ["After restore", "Kept"])
    #expect(harness.fileNames().allSatisfy { !$0.hasPrefix(".restore-") })
  }

  @Test func backupThenRestoreWhileAnotherProcessHoldsTheDatabase() async throws {
    let harness = try FeatureHarness(.logCenter)
    _ = try harness.addInstance("Kept", "http://10.0.0.1:3000")
    let backup = harness.directory.appendingPathComponent("process-backup.sqlite")
    // Another process: the sqlite3 shell with the live database open, as a second msa or a
    // curious operator would have it.
    let shell = try SQLiteShell(database: harness.store.databaseURL)
    defer { shell.quit() }
    #expect(try shell.query("SELECT name FROM instances ORDER BY name;") == ["Kept"])

    _ = try await harness.run(["data", "backup", backup.path])
    _ = try harness.addInstance("Added later", "http://10.0.0.2:3000")
    #expect(
      try shell.query("SELECT name FROM instances ORDER BY name;") == ["Added later", "Kept"])

    _ = try await harness.run(["data", "restore", backup.path, "--yes"])
    // The other process sees the restored data through its still-open connection.
    #expect(try shell.query("SELECT name FROM instances ORDER BY name;") == ["Kept"])
    #expect(try shell.query("PRAGMA integrity_check;") == ["ok"])
    #expect(try instanceNames(harness.store.database) == ["Kept"])
  }

  /// Makes a backup, then lets `damage` spoil it; the restore must be refused and change nothing.
  func refusal(_ damage: (URL) throws -> Void) async throws -> (LogCenterError?, String) {
    let harness = try FeatureHarness(.logCenter)
    _ = try harness.addInstance("Current", "http://10.0.0.1:3000")
    let file = harness.directory.appendingPathComponent("candidate.sqlite")
    _ = try await harness.run(["data", "backup", file.path])
    try damage(file)
    let before = harness.fileNames()
    let failure = await harness.outcome(["data", "restore", file.path, "--yes"])
    #expect(try instanceNames(harness.store.database) == ["Current"])
    #expect(harness.fileNames() == before)
    return (failure.error as? LogCenterError, failure.message)
  }

  @Test func restoreRefusesAFileThatIsNotADatabase() async throws {
    let (error, message) = try await refusal { url in
      try Data("name,origin\nRouter,http://10.0.0.1\n".utf8).write(to: url)
    }
    guard case .notADatabase? = error else {
      Issue.record("expected notADatabase, got \(String(describing: error))")
      return
    }
    #expect(message.contains("SQLite"))
  }

  @Test func restoreRefusesATruncatedFile() async throws {
    let (error, message) = try await refusal { url in
      let data = try Data(contentsOf: url)
      try data.prefix(data.count / 2).write(to: url)
    }
    guard case .truncated? = error else {
      Issue.record("expected truncated, got \(String(describing: error))")
      return
    }
    #expect(message.contains("truncated"))
  }

  @Test func restoreRefusesANewerSchema() async throws {
    let (error, message) = try await refusal { url in
      let database = try SQLiteDatabase(url: url)
      try database.run("UPDATE schema_versions SET version = 99 WHERE module = 'core'")
      try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
      database.close()
    }
    guard case .newerSchema(_, let module, let found, let supported)? = error else {
      Issue.record("expected newerSchema, got \(String(describing: error))")
      return
    }
    #expect(module == "core" && found == 99 && supported == 2)
    #expect(message.contains("99"))
  }

  @Test func restoreRefusesADatabaseWithoutSchemaVersions() async throws {
    let (error, _) = try await refusal { url in
      try FileManager.default.removeItem(at: url)
      let database = try SQLiteDatabase(url: url)
      try database.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')")
      try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
      database.close()
    }
    // The store's own check (issue 35): another program's file, named as such.
    guard case .foreignDatabase(_, let tables)? = error else {
      Issue.record("expected foreignDatabase, got \(String(describing: error))")
      return
    }
    #expect(tables == 1)
  }

  @Test func restoreRefusesAnEmptyDatabase() async throws {
    let (error, _) = try await refusal { url in
      try FileManager.default.removeItem(at: url)
      let database = try SQLiteDatabase(url: url)
      database.close()
    }
    guard case .missingSchemaVersions? = error else {
      Issue.record("expected missingSchemaVersions, got \(String(describing: error))")
      return
    }
  }

  /// A backup made before msa marked its databases restores, and the next opening marks it.
  @Test func restoreTakesABackupFromBeforeTheMark() async throws {
    let harness = try FeatureHarness(.logCenter)
    _ = try harness.addInstance("Backed up", "http://10.0.0.1:3000")
    let file = harness.directory.appendingPathComponent("old.sqlite")
    _ = try await harness.run(["data", "backup", file.path])
    let old = try SQLiteDatabase(url: file)
    try old.execute("PRAGMA application_id = 0")
    try old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    #expect(try DatabaseOwner.verdict(of: old) == .unmarked)
    old.close()
    _ = try harness.addInstance("Later", "http://10.0.0.2:3000")
    _ = try await harness.run(["data", "restore", file.path, "--yes"])
    #expect(try instanceNames(harness.store.database) == ["Backed up"])
  }

  @Test func restoreRefusesAMissingFile() async throws {
    let harness = try FeatureHarness(.logCenter)
    let failure = await harness.outcome(["data", "restore", "/nonexistent/backup.sqlite", "--yes"])
    guard case .unreadable? = failure.error as? LogCenterError else {
      Issue.record("expected unreadable, got \(String(describing: failure.error))")
      return
    }
  }
}

/// The `sqlite3` shell in a child process, holding a database open between queries.
final class SQLiteShell {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var buffer = ""

  init(database: URL) throws {
    let path = try #require(
      ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
      }, "the sqlite3 shell is needed (.ci/run installs it)")
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-batch", "-noheader", database.path]
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    try send(".timeout 5000")
  }

  private func send(_ line: String) throws {
    try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
  }

  /// Runs `sql` and returns its output lines (waits for a marker printed after it).
  func query(_ sql: String) throws -> [String] {
    let marker = "--done-\(UUID().uuidString)--"
    try send(sql)
    try send("SELECT '\(marker)';")
    while !buffer.contains(marker) {
      let data = output.fileHandleForReading.availableData
      guard !data.isEmpty else { throw CocoaError(.fileReadUnknown) }
      buffer += String(decoding: data, as: UTF8.self)
    }
    let lines = buffer.components(separatedBy: "\n")
    let end = lines.firstIndex { $0.contains(marker) } ?? lines.count
    buffer = lines[(end + 1)...].joined(separator: "\n")
    return Array(lines[..<end])
  }

  func quit() {
    try? send(".quit")
    process.waitUntilExit()
  }
}
