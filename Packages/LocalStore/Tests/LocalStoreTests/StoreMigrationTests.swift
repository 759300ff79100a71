import Essentials
import EssentialsTesting
import Foundation
import LocalStore
import LocalStoreTesting
import Testing

@Suite struct StoreMigrationTests {
  let directory: TemporaryDirectory
  let clock = TestClock()

  init() throws {
    directory = try TemporaryDirectory()
  }

  static let notesV1 = SchemaModule(
    name: "notes",
    migrations: [
      Migration(version: 1, name: "create notes", sql: "CREATE TABLE notes (body TEXT NOT NULL)")
    ])

  static let notesV2 = SchemaModule(
    name: "notes",
    migrations: notesV1.migrations + [
      Migration(version: 2, name: "add pinned") { database in
        try database.execute("ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")
        try database.run("UPDATE notes SET pinned = 1 WHERE body LIKE ?", ["%!"])
      }
    ])

  static let notesBroken = SchemaModule(
    name: "notes",
    migrations: notesV1.migrations + [
      Migration(
        version: 2, name: "broken",
        sql: "DELETE FROM notes; ALTER TABLE notes ADD COLUMN x INTEGER; CREATE TABLE (")
    ])

  func open(_ modules: [SchemaModule], readOnly: Bool = false) throws -> Store {
    try Store.open(
      directory: directory.url, modules: modules, clock: clock.clock, readOnly: readOnly)
  }

  func safetyCopies() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
      .filter { $0.contains(".before-") }.sorted()
  }

  @Test func migrationsApplyOnceAndReopenIsIdempotent() throws {
    do {
      let store = try open([Self.notesV1])
      #expect(store.issues.isEmpty)
      #expect(!store.isReadOnly)
      #expect(store.databaseURL.lastPathComponent == "msa.sqlite")
      #expect(try store.schemaVersions() == ["core": 2, "notes": 1])
      #expect(store.migrationReport.applied.map(\.module) == ["core", "core", "notes"])
      #expect(store.migrationReport.safetyCopies.isEmpty)
      let row = try #require(
        try store.database.queryOne(
          "SELECT updated_at FROM schema_versions WHERE module = 'notes'"))
      #expect(try row.date("updated_at") == clock.clock.now())
    }
    let again = try open([Self.notesV1])
    #expect(again.migrationReport.applied.isEmpty)
    #expect(again.issues.isEmpty)
    #expect(try again.schemaVersions() == ["core": 2, "notes": 1])
  }

  @Test func safetyCopyIsMadeBeforeMigratingADatabaseWithData() throws {
    do {
      let store = try open([Self.notesV1])
      try store.database.run("INSERT INTO notes (body) VALUES (?)", ["remember!"])
    }
    clock.advance(by: 60)
    let store = try open([Self.notesV2])
    #expect(store.issues.isEmpty)
    #expect(try store.schemaVersions()["notes"] == 2)
    let copy = try #require(store.migrationReport.safetyCopies.first)
    #expect(copy.lastPathComponent == "msa.before-notes-v2.20260101T000100Z.sqlite")
    #expect(try safetyCopies() == [copy.lastPathComponent])
    let old = try SQLiteDatabase(url: copy, mode: .readOnly)
    #expect(try old.query("SELECT * FROM notes").first?.columns == ["body"])
    let pinned = try #require(try store.database.queryOne("SELECT pinned FROM notes"))
    #expect(try pinned.int("pinned") == 1)
  }

  @Test func newerSchemaIsRefusedAndOpenedReadOnly() throws {
    do {
      let store = try open([Self.notesV1])
      try store.database.run("UPDATE schema_versions SET version = 7 WHERE module = 'notes'")
      try InstanceRepository(store: store).add(
        name: "kept", origin: InstanceOrigin(parsing: "http://10.0.0.1"))
    }
    let store = try open([Self.notesV1])
    #expect(store.isReadOnly)
    #expect(store.issues == [.newerSchema(module: "notes", found: 7, supported: 1)])
    #expect(store.issues[0].description.contains("Upgrade msa"))
    #expect(store.issues[0].localizedMessage(.simplifiedChinese).contains("升级 msa"))
    let repository = InstanceRepository(store: store)
    #expect(try repository.list().map(\.name) == ["kept"])
    let error = try #require(throws: RegistryError.self) {
      try repository.add(name: "new", origin: InstanceOrigin(parsing: "http://10.0.0.2"))
    }
    #expect(error == .readOnly(reason: store.issues.first))
    let raw = try #require(throws: SQLiteError.self) {
      try store.database.run("DELETE FROM instances")
    }
    #expect(raw.isReadOnly)
    #expect(try safetyCopies().isEmpty)
  }

  @Test func failedMigrationLeavesDataUntouchedAndSaysWhereTheCopyIs() throws {
    do {
      let store = try open([Self.notesV1])
      try store.database.run("INSERT INTO notes (body) VALUES (?)", ["precious"])
    }
    let store = try open([Self.notesBroken])
    #expect(store.isReadOnly)
    let issue = try #require(store.issues.first)
    guard case .migrationFailed(let module, let version, _, _, let copy?) = issue else {
      Issue.record("expected a migration failure with a safety copy, got \(issue)")
      return
    }
    #expect(module == "notes" && version == 2)
    #expect(FileManager.default.fileExists(atPath: copy.path))
    #expect(issue.description.contains(copy.path))
    #expect(try store.schemaVersions()["notes"] == 1)
    let rows = try store.database.query("SELECT * FROM notes")
    #expect(try rows.map { try $0.string("body") } == ["precious"])
    #expect(rows.first?.columns == ["body"])
    #expect(throws: RegistryError.self) {
      try InstanceRepository(store: store).createGroup(name: "x")
    }
  }

  @Test func failedMigrationOfAnEmptyDatabaseSaysNoCopyWasNeeded() throws {
    let store = try open([Self.notesBroken])
    #expect(store.isReadOnly)
    guard case .migrationFailed(_, _, _, _, nil)? = store.issues.first else {
      Issue.record("expected a failure without a copy")
      return
    }
    #expect(store.issues[0].description.contains("no safety copy"))
  }

  @Test func readOnlyOpeningReportsPendingMigrationsAndNeedsAnExistingFile() throws {
    #expect(throws: StoreError.self) { try open([], readOnly: true) }
    _ = try open([])
    let store = try open([Self.notesV1], readOnly: true)
    #expect(store.isReadOnly)
    #expect(store.issues == [.pendingMigrations(module: "notes", found: 0, supported: 1)])
  }

  @Test func invalidModulesAreRefused() throws {
    let gap = SchemaModule(
      name: "gap", migrations: [Migration(version: 2, name: "two", sql: "SELECT 1")])
    #expect(throws: StoreError.invalidMigrationVersions(module: "gap")) { try open([gap]) }
    #expect(throws: StoreError.duplicateModule("notes")) {
      try open([Self.notesV1, Self.notesV2])
    }
  }
}
