import Foundation
import LocalStore
import LocalStoreTesting
import Testing

@Suite struct SQLiteDatabaseTests {
  let directory: TemporaryDirectory
  let database: SQLiteDatabase

  init() throws {
    directory = try TemporaryDirectory()
    database = try SQLiteDatabase(url: directory.file("test.sqlite"))
    try database.execute(
      "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, i INTEGER, r REAL, b BLOB, d INTEGER, f INTEGER)"
    )
  }

  @Test func typedBindingRoundTripsUnicodeAndNull() throws {
    let date = Date(timeIntervalSince1970: 1_767_225_600.123)
    let text = "验证码 4821 🚀 O'Brien \"quoted\"\u{0}tail"
    let blob = Data([0, 1, 2, 255])
    try database.run(
      "INSERT INTO t (s, i, r, b, d, f) VALUES (?, ?, ?, ?, ?, ?)",
      [text, Int64.max, 2.5, blob, date, true])
    let emptyID: Int64 = 99
    try database.run(
      "INSERT INTO t (id, s, i, r, b, d, f) VALUES (?, ?, ?, ?, ?, ?, ?)",
      [emptyID, String?.none, Int?.none, "", Data(), Date?.none, false])
    let row = try #require(try database.queryOne("SELECT * FROM t WHERE id = ?", [1]))
    #expect(try row.string("s") == text)
    #expect(try row.int64("i") == Int64.max)
    #expect(try row.double("r") == 2.5)
    #expect(try row.data("b") == blob)
    #expect(try row.date("d") == Date(timeIntervalSince1970: 1_767_225_600.123))
    #expect(try row.bool("f"))
    #expect(try row["s", as: String.self] == text)
    #expect(row.value("d") == .integer(1_767_225_600_123))

    let nulls = try #require(try database.queryOne("SELECT * FROM t WHERE id = ?", [emptyID]))
    #expect(try nulls.optionalString("s") == nil)
    #expect(try nulls.optionalInt("i") == nil)
    #expect(try nulls.optionalDate("d") == nil)
    #expect(try nulls.data("b") == Data())
    #expect(try nulls.string("r") == "")
    #expect(try !nulls.bool("f"))
    #expect(throws: SQLiteError.self) { try nulls.string("s") }
    #expect(throws: SQLiteError.self) { try nulls.string("missing") }
    #expect(database.lastInsertRowID == emptyID)
  }

  /// A date past what an Int64 of milliseconds holds trapped when bound (`--since` of 10^29
  /// days did): it is stored at the limit.
  @Test func datesBeyondMillisecondsAreBoundAtTheLimit() throws {
    #expect(Date(timeIntervalSince1970: 1e300).sqliteValue == .integer(.max))
    #expect(Date(timeIntervalSince1970: -1e300).sqliteValue == .integer(.min))
    #expect(Date(timeIntervalSince1970: .infinity).sqliteValue == .integer(.max))
    #expect(Date(timeIntervalSince1970: .nan).sqliteValue == .integer(0))
    #expect(Date(timeIntervalSince1970: 1.5).sqliteValue == .integer(1_500))
    try database.run(
      "INSERT INTO t (id, d) VALUES (?, ?)", [7, Date(timeIntervalSince1970: -1e300)])
    #expect(try database.queryOne("SELECT d FROM t WHERE id = 7")?.value("d") == .integer(.min))
  }

  @Test func transactionRollsBackOnThrow() throws {
    struct Boom: Error {}
    #expect(throws: Boom.self) {
      try database.transaction { db in
        try db.run("INSERT INTO t (s) VALUES (?)", ["inside"])
        #expect(try db.query("SELECT * FROM t").count == 1)
        throw Boom()
      }
    }
    #expect(try database.query("SELECT * FROM t").isEmpty)
    #expect(!database.isInTransaction)
    try database.transaction { db in try db.run("INSERT INTO t (s) VALUES (?)", ["kept"]) }
    #expect(try database.query("SELECT s FROM t").map { try $0.string("s") } == ["kept"])
  }

  @Test func nestedSavepointsRollBackOnlyTheirOwnWork() throws {
    struct Boom: Error {}
    try database.transaction { db in
      try db.run("INSERT INTO t (s) VALUES ('outer')")
      try db.savepoint("level1") {
        try db.run("INSERT INTO t (s) VALUES ('level1')")
        try? db.savepoint("level2") {
          try db.run("INSERT INTO t (s) VALUES ('level2')")
          throw Boom()
        }
      }
      try? db.transaction { nested in
        try nested.run("INSERT INTO t (s) VALUES ('nested transaction')")
        throw Boom()
      }
    }
    let values = try database.query("SELECT s FROM t ORDER BY id").map { try $0.string("s") }
    #expect(values == ["outer", "level1"])
  }

  /// Transaction control runs through the statement cache: the same cached `BEGIN`,
  /// `SAVEPOINT`, `RELEASE`, `ROLLBACK` and `COMMIT` serve round after round, after a rollback
  /// and after a `COMMIT` that failed (a deferred foreign key) as they did when parsed anew.
  @Test func transactionControlIsReusedRoundAfterRound() throws {
    struct Boom: Error {}
    try database.execute(
      """
      CREATE TABLE parent (id TEXT PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY,
        parent_id TEXT REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
      """)
    for round in 0..<3 {
      try database.savepoint("read") { try database.run("INSERT INTO t (i) VALUES (?)", [round]) }
      try? database.savepoint("read") {
        try database.run("INSERT INTO t (i) VALUES (-1)")
        throw Boom()
      }
      try database.transaction { db in try db.run("INSERT INTO t (i) VALUES (?)", [10 + round]) }
      let failed = #expect(throws: SQLiteError.self) {
        try database.transaction { db in
          try db.run("INSERT INTO t (i) VALUES (-2)")
          try db.run("INSERT INTO child (parent_id) VALUES ('nobody')")
        }
      }
      #expect(failed?.isConstraint == true, "the COMMIT itself fails on the deferred key")
      #expect(!database.isInTransaction)
    }
    let values = try database.query("SELECT i FROM t ORDER BY id").map { try $0.int("i") }
    #expect(values == [0, 10, 1, 11, 2, 12])
    #expect(try database.query("SELECT * FROM child").isEmpty)
  }

  @Test func pragmasAreSet() throws {
    #expect(try database.journalMode() == "wal")
    #expect(try database.queryOne("PRAGMA foreign_keys")?.values.first == .integer(1))
    #expect(try database.queryOne("PRAGMA busy_timeout")?.values.first == .integer(5000))
    #expect(try database.queryOne("PRAGMA synchronous")?.values.first == .integer(1))
  }

  @Test func foreignKeysAreEnforced() throws {
    try database.execute(
      """
      CREATE TABLE parent (id TEXT PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id TEXT REFERENCES parent(id));
      """)
    let error = try #require(throws: SQLiteError.self) {
      try database.run("INSERT INTO child (parent_id) VALUES (?)", ["nobody"])
    }
    #expect(error.isConstraint)
    #expect(error.extendedCode == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
  }

  @Test func errorsCarrySQLButNeverBoundValues() throws {
    try database.execute("CREATE TABLE u (v TEXT UNIQUE)")
    try database.run("INSERT INTO u VALUES (?)", ["hunter2-secret"])
    let error = try #require(throws: SQLiteError.self) {
      try database.run("INSERT INTO u VALUES (?)", ["hunter2-secret"])
    }
    #expect(error.sql == "INSERT INTO u VALUES (?)")
    #expect(error.message.contains("UNIQUE"))
    #expect(!error.description.contains("hunter2"))
    #expect(!error.localizedMessage(.simplifiedChinese).contains("hunter2"))
    let syntax = try #require(throws: SQLiteError.self) { try database.query("SELEC 1") }
    #expect(syntax.message.contains("syntax error"))
  }

  @Test func fts5TrigramFindsChineseSubstringAndDigits() throws {
    try database.execute(
      "CREATE VIRTUAL TABLE sms_fts USING fts5(body, tokenize = 'trigram')")
    try database.run("INSERT INTO sms_fts (body) VALUES (?)", ["【银行】您的验证码是4821，5分钟内有效"])
    try database.run("INSERT INTO sms_fts (body) VALUES (?)", ["Your parcel has arrived"])
    let byChinese = try database.query(
      "SELECT body FROM sms_fts WHERE sms_fts MATCH ?", ["\"验证码\""])
    #expect(byChinese.count == 1)
    let byDigits = try database.query(
      "SELECT body FROM sms_fts WHERE sms_fts MATCH ?", ["\"4821\""])
    #expect(try byDigits.map { try $0.string("body") } == ["【银行】您的验证码是4821，5分钟内有效"])
    let none = try database.query("SELECT body FROM sms_fts WHERE sms_fts MATCH ?", ["\"9999\""])
    #expect(none.isEmpty)
  }

  @Test func restoreReplacesTheContentSeenByEveryConnection() throws {
    try database.execute("CREATE TABLE notes (text TEXT NOT NULL)")
    try database.run("INSERT INTO notes VALUES (?)", ["old"])
    let sourceURL = directory.file("source.sqlite")
    let source = try SQLiteDatabase(url: sourceURL)
    try source.execute("CREATE TABLE notes (text TEXT NOT NULL)")
    try source.run("INSERT INTO notes VALUES (?), (?)", ["new 1", "新 2"])
    source.close()
    let other = try SQLiteDatabase(url: database.url)
    #expect(try other.query("SELECT text FROM notes").map { try $0.string("text") } == ["old"])

    try database.restore(from: sourceURL)

    for connection in [database, other] {
      let texts = try connection.query("SELECT text FROM notes ORDER BY rowid").map {
        try $0.string("text")
      }
      #expect(texts == ["new 1", "新 2"])
    }
    #expect(try database.integrityCheck().isEmpty)
    #expect(throws: SQLiteError.self) {
      try database.restore(from: directory.file("missing.sqlite"))
    }
    #expect(try database.query("SELECT count(*) AS c FROM notes").first?.int("c") == 2)
  }

  @Test func backupIsConsistentWhileAnotherConnectionWrites() async throws {
    try database.execute("CREATE TABLE batch (n INTEGER NOT NULL, filler TEXT NOT NULL)")
    let filler = String(repeating: "x", count: 500)
    for _ in 0..<20 {
      try database.transaction { db in
        for n in 0..<50 { try db.run("INSERT INTO batch VALUES (?, ?)", [n, filler]) }
      }
    }
    let writer = try SQLiteDatabase(url: database.url)
    let writing = Task.detached {
      for _ in 0..<40 {
        try writer.transaction { db in
          for n in 0..<50 { try db.run("INSERT INTO batch VALUES (?, ?)", [n, filler]) }
        }
      }
    }
    var copies: [URL] = []
    for index in 0..<3 {
      let copy = directory.file("copy-\(index).sqlite")
      try database.backup(to: copy)
      copies.append(copy)
    }
    try await writing.value
    for copy in copies {
      let restored = try SQLiteDatabase(url: copy, mode: .readOnly)
      #expect(try restored.integrityCheck().isEmpty)
      let count = try #require(try restored.queryOne("SELECT count(*) AS c FROM batch")).int("c")
      #expect(count >= 1000 && count <= 3000)
      #expect(count % 50 == 0, "a backup must never contain half a transaction")
    }
    let before = try Data(contentsOf: copies[0])
    #expect(throws: AtomicFile.Failure.destinationExists(path: copies[0].path)) {
      try database.backup(to: copies[0])
    }
    #expect(try Data(contentsOf: copies[0]) == before)
  }

  @Test func integrityCheckAndVacuum() throws {
    for n in 0..<200 { try database.run("INSERT INTO t (s) VALUES (?)", ["row \(n)"]) }
    try database.run("DELETE FROM t")
    #expect(try database.integrityCheck().isEmpty)
    try database.vacuum()
    #expect(try database.query("SELECT * FROM t").isEmpty)
  }

  @Test func readOnlyConnectionRefusesWrites() throws {
    try database.run("INSERT INTO t (s) VALUES ('x')")
    let reader = try SQLiteDatabase(url: database.url, mode: .readOnly)
    #expect(try reader.query("SELECT s FROM t").count == 1)
    let error = try #require(throws: SQLiteError.self) {
      try reader.run("INSERT INTO t (s) VALUES ('y')")
    }
    #expect(error.isReadOnly)
  }

  @Test func parameterCountMismatchIsReported() throws {
    #expect(throws: SQLiteError.self) { try database.run("INSERT INTO t (s) VALUES (?)", []) }
    database.close()
    #expect(throws: SQLiteError.self) { try database.query("SELECT 1") }
  }
}
