import Essentials
import EssentialsTesting
import Foundation
import LocalStore
import LocalStoreTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 35 point 2: msa marks its databases (`PRAGMA application_id`) and never writes into
/// another program's SQLite file at `msa.sqlite` (before, it created about 40 tables in it
/// and exited 0).
@Suite struct ForeignDatabaseTests {
  let clock = TestClock()

  /// Another program's database: a rollback-journal file with a table of its own.
  func foreignHome(applicationID: Int32 = 0, wal: Bool = false) throws -> (
    TemporaryDirectory, URL, Data
  ) {
    let home = try TemporaryDirectory(prefix: "foreign")
    chmod(home.url.path, 0o700)
    let url = home.file(Store.databaseFileName)
    let other = try SQLiteDatabase(url: url, mode: .readWrite)
    if !wal { _ = try other.query("PRAGMA journal_mode = DELETE") }
    try other.execute(
      """
      CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);
      INSERT INTO notes (text) VALUES ('keep me');
      PRAGMA application_id = \(applicationID);
      """)
    if wal { _ = try other.query("PRAGMA wal_checkpoint(TRUNCATE)") }
    other.close()
    return (home, url, try Data(contentsOf: url))
  }

  func names(_ home: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: home.url.path).sorted()
  }

  @Test(arguments: [Int32(0), 0x0F00_0001])
  func anotherProgramsFileIsRefusedAndLeftByteForByte(applicationID: Int32) throws {
    let (home, url, before) = try foreignHome(applicationID: applicationID)
    let namesBefore = try names(home)
    for readOnly in [false, true] {
      #expect {
        try Store.open(directory: home.url, modules: [], clock: clock.clock, readOnly: readOnly)
      } throws: { error in
        guard case .foreign(let path, let tables)? = error as? StoreError else { return false }
        let english = (error as? StoreError)?.localizedMessage(.english) ?? ""
        let chinese = (error as? StoreError)?.localizedMessage(.simplifiedChinese) ?? ""
        return path == url.path && tables == 1 && english.contains(url.path)
          && english.contains("another program's SQLite database") && chinese.contains(url.path)
          && chinese.contains("其他程序")
      }
      #expect(try Data(contentsOf: url) == before, "byte for byte unchanged")
      #expect(try names(home) == namesBefore, "no WAL, marker or other file made")
    }
  }

  @Test func aForeignFileInWALModeIsRefusedToo() throws {
    let (home, url, before) = try foreignHome(wal: true)
    #expect(throws: StoreError.foreign(path: url.path, tables: 1)) {
      try Store.open(directory: home.url, modules: [], clock: clock.clock)
    }
    #expect(try Data(contentsOf: url) == before)
    #expect(!FileManager.default.fileExists(atPath: home.file(Store.markerFileName).path))
  }

  @Test func aNewDatabaseIsMarked() throws {
    let store = try TestStore()
    #expect(try DatabaseOwner.verdict(of: store.store.database) == .marked)
    let mark = try store.store.database.queryOne("PRAGMA application_id")?.int("application_id")
    #expect(mark == Int(DatabaseOwner.applicationID))
  }

  /// A home from before the mark has msa's `schema_versions` with `core`: it opens, and the
  /// first opening marks it; its data is untouched.
  @Test func aHomeFromBeforeTheMarkIsMarkedOnItsNextOpening() throws {
    let home = try TemporaryDirectory(prefix: "unmarked")
    let first = try Store.open(directory: home.url, modules: [], clock: clock.clock)
    _ = try InstanceRepository(store: first).add(
      name: "Shop", origin: try InstanceOrigin(parsing: "http://10.0.0.1:3000"))
    try first.database.execute("PRAGMA application_id = 0")
    #expect(try DatabaseOwner.verdict(of: first.database) == .unmarked)
    first.database.close()
    let again = try Store.open(directory: home.url, modules: [], clock: clock.clock)
    #expect(!again.isReadOnly)
    #expect(try DatabaseOwner.verdict(of: again.database) == .marked)
    #expect(try InstanceRepository(store: again).list().map(\.name) == ["Shop"])
    #expect(again.migrationReport.safetyCopies.isEmpty, "no copy of the archive for the mark")
  }

  /// `schema_versions` alone, or with modules other than `core`, is not msa's.
  @Test func aLookAlikeWithoutCoreIsForeign() throws {
    let home = try TemporaryDirectory(prefix: "lookalike")
    let url = home.file(Store.databaseFileName)
    let other = try SQLiteDatabase(url: url, mode: .readWrite)
    try other.execute(
      """
      CREATE TABLE schema_versions (module TEXT PRIMARY KEY, version INTEGER, updated_at INTEGER);
      INSERT INTO schema_versions VALUES ('wiki', 3, 0);
      """)
    #expect(try DatabaseOwner.verdict(of: other) == .foreign(applicationID: 0, tables: 1))
    other.close()
    #expect(throws: StoreError.foreign(path: url.path, tables: 1)) {
      try Store.open(directory: home.url, modules: [], clock: clock.clock)
    }
  }

  @Test func anEmptySQLiteFileIsAFirstRun() throws {
    let home = try TemporaryDirectory(prefix: "emptysqlite")
    let url = home.file(Store.databaseFileName)
    let other = try SQLiteDatabase(url: url, mode: .readWrite)
    #expect(try DatabaseOwner.verdict(of: other) == .empty)
    other.close()
    let store = try Store.open(directory: home.url, modules: [], clock: clock.clock)
    #expect(try DatabaseOwner.verdict(of: store.database) == .marked)
  }
}
