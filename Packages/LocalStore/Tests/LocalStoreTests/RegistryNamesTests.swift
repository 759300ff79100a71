import Foundation
import LocalStoreTesting
import Testing

@testable import LocalStore

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

  /// The names read off the statement's columns are the names the general `Row` read gives:
  /// the same rows in the same order, and the same rows left out (an id, name or origin that
  /// is NULL or a blob), for text of every kind (empty, Chinese, emoji, escapes,
  /// invalid UTF-8 repaired the same way).
  @Test func instancesReadAsRowsRead() throws {
    let directory = try TemporaryDirectory(prefix: "msa-names")
    let url = directory.url.appendingPathComponent(Store.databaseFileName)
    let database = try Self.writer(url)
    try database.execute(
      """
      INSERT INTO instances VALUES
        ('a1', 'office', 'http://127.0.0.1:3001', '[]'),
        ('a2', 'Office', 'http://127.0.0.1:3002', '[]'),
        ('a3', '', 'http://127.0.0.1:3003', '[]'),
        ('a4', '北京 机房', 'http://127.0.0.1:3004', '[]'),
        ('a5', 'shop 🛒 é', 'http://127.0.0.1:3005', '[]'),
        ('a6', 'evil' || char(27) || '[31m' || char(10) || 'x', 'http://h:1', '[]'),
        ('a7', CAST(x'ff6162' AS TEXT), 'http://127.0.0.1:3007', '[]'),
        ('a8', NULL, 'http://127.0.0.1:3008', '[]'),
        ('a9', 'numbered', 42, '[]'),
        (x'0102', 'blob id', 'http://127.0.0.1:3010', '[]'),
        (7, 'number id', 'http://127.0.0.1:3011', '[]'),
        ('a12', 'zeta', '', '[]'),
        ('a13', 'Alpha', 'http://127.0.0.1:3013', '[]')
      """)
    for index in 0..<300 {
      try database.run(
        "INSERT INTO instances VALUES (?, ?, ?, '[]')",
        ["g\(index)", "node-\((index * 7919) % 1000)", "http://127.0.0.1:\(20000 + index)"])
    }
    database.close()

    let read = RegistryNames.instances(in: directory.url).map { [$0.id, $0.name, $0.origin] }
    let general = RegistryNames.rows(in: directory.url, RegistryNames.instancesSQL) {
      [try $0.string("id"), try $0.string("name"), try $0.string("origin")]
    }
    #expect(read == general)
    #expect(read.count == 311)  // 313 rows, less the NULL name and the blob id
    #expect(read.prefix(3).map { $0[0] } == ["a3", "a13", "a6"])
    #expect(!read.contains { $0[0] == "a8" || $0[1] == "blob id" })
    #expect(read.contains { $0 == ["7", "number id", "http://127.0.0.1:3011"] })  // TEXT affinity
    #expect(read.contains { $0[1] == String(decoding: [0xFF, 0x61, 0x62], as: UTF8.self) })
  }

  /// No database, or a file that is not one: no names, and nothing created.
  @Test func noDatabaseOrAnUnreadableOneGivesNoNames() throws {
    let directory = try TemporaryDirectory(prefix: "msa-names")
    #expect(RegistryNames.instances(in: directory.url).isEmpty)
    let url = directory.url.appendingPathComponent(Store.databaseFileName)
    try Data(String(repeating: "not a database at all. ", count: 300).utf8).write(to: url)
    #expect(RegistryNames.instances(in: directory.url).isEmpty)
    #expect(RegistryNames.groups(in: directory.url).isEmpty)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(files == [Store.databaseFileName])
  }

  /// A path of letters, digits and `/._-` is its own `file:` URI path; every other path is
  /// encoded as Foundation encodes it.
  @Test func uriPathsAreFoundationsEncoding() {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%")
    let paths = [
      "/tmp/msa-home/msa.sqlite", "/home/u/.local/share/msa/msa.sqlite", "/a b/msa.sqlite",
      "/数据/msa.sqlite", "/x?y#z%/msa.sqlite", "/a;b=c&d+e,f:g@h!$'()*~/msa.sqlite", "",
      "/tab\t/nl\n/msa.sqlite", "relative/Path_1-2.3", "/Z/z/0/9/_/-/./..",
    ]
    for path in paths {
      #expect(
        SQLiteDatabase.uriPath(path) == path.addingPercentEncoding(withAllowedCharacters: allowed))
    }
  }
}
