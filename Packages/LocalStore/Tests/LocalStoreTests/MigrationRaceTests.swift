import Essentials
import EssentialsTesting
import Foundation
import LocalStore
import LocalStoreTesting
import Testing

/// Issue 29 point 10: many first starts at once on a new data directory. Each opener has its
/// own SQLite connection (as each `msa` process has), all released together; every one must
/// open a writable store, the schema must be applied exactly once, and no safety copy may be
/// left behind (there was never data to protect).
@Suite struct MigrationRaceTests {
  /// A module whose steps fail when run twice: a table, a trigger dropped by the next step,
  /// a column added by the one after.
  static let racing = SchemaModule(
    name: "racing",
    migrations: [
      Migration(
        version: 1, name: "create",
        sql: """
          CREATE TABLE items (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
          CREATE TABLE item_log (body TEXT NOT NULL);
          CREATE TRIGGER items_logged AFTER INSERT ON items BEGIN
            INSERT INTO item_log (body) VALUES (new.body);
          END;
          """),
      Migration(version: 2, name: "drop trigger", sql: "DROP TRIGGER items_logged"),
      Migration(version: 3, name: "add column", sql: "ALTER TABLE items ADD COLUMN pinned INTEGER"),
    ])

  /// Runs `count` openers on their own threads, released at the same moment; returns what
  /// each got (a store's issues and whether it was writable, or the error it threw).
  static func openAtOnce(_ directory: URL, count: Int, modules: [SchemaModule]) -> [String] {
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    let outcomes = Locked([String]())
    for _ in 0..<count {
      group.enter()
      let thread = Thread {
        start.wait()
        let outcome: String
        do {
          let store = try Store.open(directory: directory, modules: modules, clock: .system)
          if store.isReadOnly {
            outcome = "read-only: " + store.issues.map(\.description).joined(separator: "; ")
          } else {
            outcome = "ok"
          }
          store.database.close()
        } catch {
          outcome = "error: \(error)"
        }
        outcomes.withLock { $0.append(outcome) }
        group.leave()
      }
      thread.start()
    }
    for _ in 0..<count { start.signal() }
    group.wait()
    return outcomes.current
  }

  @Test func twentyFirstStartsAtOnceAllSucceed() throws {
    for round in 0..<3 {
      let directory = try TemporaryDirectory()
      let home = directory.url.appendingPathComponent("home")
      let outcomes = Self.openAtOnce(home, count: 20, modules: [Self.racing])
      let failed = outcomes.filter { $0 != "ok" }
      #expect(failed.isEmpty, "round \(round): \(failed.count) of 20 failed: \(failed.first ?? "")")
      let store = try Store.open(directory: home, modules: [Self.racing], clock: .system)
      #expect(!store.isReadOnly)
      #expect(try store.schemaVersions()["racing"] == 3)
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.path)
        .filter { $0.contains(".before-") }
      #expect(leftovers.isEmpty, "round \(round): safety copies left behind: \(leftovers)")
    }
  }

  @Test func aPendingMigrationRacedByManyOpenersRunsOnceWithOneSafetyCopy() throws {
    let directory = try TemporaryDirectory()
    let home = directory.url.appendingPathComponent("home")
    let first = SchemaModule(name: "racing", migrations: [Self.racing.migrations[0]])
    do {
      let store = try Store.open(directory: home, modules: [first], clock: .system)
      try store.database.run("INSERT INTO items (body) VALUES (?)", ["kept"])
      store.database.close()
    }
    let outcomes = Self.openAtOnce(home, count: 20, modules: [Self.racing])
    let failed = outcomes.filter { $0 != "ok" }
    #expect(failed.isEmpty, "\(failed.count) of 20 failed: \(failed.first ?? "")")
    let store = try Store.open(directory: home, modules: [Self.racing], clock: .system)
    #expect(try store.schemaVersions()["racing"] == 3)
    #expect(try store.database.query("SELECT body FROM items").count == 1)
    let copies = try FileManager.default.contentsOfDirectory(atPath: home.path)
      .filter { $0.contains(".before-") }
    #expect(copies.count == 1, "one safety copy, by the opener that migrated: \(copies)")
  }
}
