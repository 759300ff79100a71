import Foundation
import LocalStore
import LocalStoreTesting
import Testing

/// What the shells' Tab key reads: names, without leaving anything beside the database.
@Suite struct RegistryNamesTests {
  static func writer(_ url: URL) throws -> SQLiteDatabase {
    let database = try SQLiteDatabase(url: url, mode: .readWrite)
    try database.execute(
      "CREATE TABLE IF NOT EXISTS instances (id TEXT, name TEXT, origin TEXT, tags TEXT)")
    return database
  }

  @Test func aTabPressCreatesNoFileAndStillSeesNamesNotYetCheckpointed() throws {
    let directory = try TemporaryDirectory(prefix: "msa-names")
    let url = directory.url.appendingPathComponent(Store.databaseFileName)
    let first = try Self.writer(url)
    try first.execute(
      "INSERT INTO instances VALUES ('a1', 'Office', 'http://127.0.0.1:3001', '[\"5g\"]')")
    first.close()  // the last connection: SQLite folds the log back and removes it
    let before = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    #expect(before == [Store.databaseFileName])

    #expect(RegistryNames.instances(in: directory.url).map(\.name) == ["Office"])
    #expect(RegistryNames.tags(in: directory.url) == ["5g"])
    // A read-only open in WAL mode would have made msa.sqlite-wal and -shm (and left them).
    let after = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    #expect(after == before)

    // Another msa is running and has written: its rows wait in the log, and are offered.
    let running = try Self.writer(url)
    defer { running.close() }
    try running.execute(
      "INSERT INTO instances VALUES ('b2', 'Shop', 'http://127.0.0.1:3002', '[]')")
    #expect(RegistryNames.instances(in: directory.url).map(\.name) == ["Office", "Shop"])
  }
}
