import Foundation
import LocalStore
import LocalStoreTesting
import Testing

/// `Store.finish()` leaves the next process no large write-ahead log to read again, and a
/// small one as it is.
@Suite struct StoreFinishTests {
  /// The size of `store`'s write-ahead log file, nil when there is none.
  static func logSize(_ store: Store) -> Int? {
    let path = store.databaseURL.path + "-wal"
    return (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
  }

  /// Writes `blobs` rows of 100 KiB, each in its own commit, with the automatic checkpoint at
  /// 64 MiB as `messages sync` and `fleet test` set it.
  static func write(_ blobs: Int, into store: Store) throws {
    try store.database.execute(
      "PRAGMA wal_autocheckpoint = 16384; CREATE TABLE IF NOT EXISTS bulk (b BLOB)")
    for _ in 0..<blobs {
      try store.database.run("INSERT INTO bulk (b) VALUES (zeroblob(102400))")
    }
  }

  @Test func aLargeLogIsCheckpointedAndRemoved() throws {
    let home = try TestStore()
    try Self.write(60, into: home.store)
    let before = try #require(Self.logSize(home.store))
    #expect(before > Store.logLeftBehind)
    home.store.finish()
    #expect(Self.logSize(home.store) == nil, "closing the last connection removes the log")
    let reopened = try Store.open(
      directory: home.directory.url, modules: [], clock: home.clock.clock)
    #expect(try reopened.database.queryOne("SELECT count(*) AS n FROM bulk")?.int("n") == 60)
  }

  @Test func aSmallLogStaysAndTheStoreStaysOpen() throws {
    let home = try TestStore()
    try Self.write(3, into: home.store)
    let before = try #require(Self.logSize(home.store))
    #expect(before <= Store.logLeftBehind)
    home.store.finish()
    #expect(Self.logSize(home.store) == before)
    #expect(try home.store.database.queryOne("SELECT count(*) AS n FROM bulk")?.int("n") == 3)
  }

  @Test func anotherConnectionKeepsTheLog() throws {
    let home = try TestStore()
    let other = try SQLiteDatabase(url: home.store.databaseURL)
    _ = try other.query("SELECT count(*) FROM sqlite_master")
    try Self.write(60, into: home.store)
    let before = try #require(Self.logSize(home.store))
    home.store.finish()
    // SQLite checkpoints on close only as the last connection: the other's reads stay whole.
    #expect(Self.logSize(home.store) == before)
    #expect(try other.queryOne("SELECT count(*) AS n FROM bulk")?.int("n") == 60)
  }
}
