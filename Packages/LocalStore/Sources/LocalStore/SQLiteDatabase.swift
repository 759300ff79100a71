import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// One connection to a SQLite database file, safe to share between tasks.
///
/// Every call is serialised by a recursive lock, so a ``transaction(_:)`` body runs its
/// statements without another task's statements in between. Connections opened
/// ``Mode/readWrite`` use `journal_mode=WAL` and `synchronous=NORMAL`; every connection uses
/// `busy_timeout=5000` and `foreign_keys=ON`. Prepared statements are cached by SQL text.
public final class SQLiteDatabase: @unchecked Sendable {
  /// How the file is opened.
  public enum Mode: Sendable, Equatable {
    /// Read and write, creating the file when missing.
    case readWrite
    /// Read only; every write fails with `SQLITE_READONLY`.
    case readOnly
    /// Read only, for a file in a folder msa may not write (no `-shm` can be made there):
    /// SQLite's `immutable` mode, which assumes nobody changes the file meanwhile.
    case immutable
  }

  /// The database file.
  public let url: URL
  /// How it was opened.
  public let mode: Mode

  private let lock = NSRecursiveLock()
  private var handle: OpaquePointer?
  private var statements: [String: OpaquePointer] = [:]

  /// The busy timeout every connection uses, in milliseconds.
  public static let busyTimeoutMilliseconds: Int32 = 5000

  /// Opens (and for ``Mode/readWrite`` creates) the database at `url`.
  public init(url: URL, mode: Mode = .readWrite) throws(SQLiteError) {
    self.url = url
    self.mode = mode
    var connection: OpaquePointer?
    let flags: Int32
    var name = url.path
    switch mode {
    case .readWrite: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    case .readOnly: flags = SQLITE_OPEN_READONLY
    case .immutable:
      flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
      name = "file:" + Self.uriPath(url.path) + "?immutable=1"
    }
    let code = sqlite3_open_v2(name, &connection, flags, nil)
    guard code == SQLITE_OK, let connection else {
      let message =
        connection.map { String(cString: sqlite3_errmsg($0)) }
        ?? String(cString: sqlite3_errstr(code))
      sqlite3_close_v2(connection)
      throw SQLiteError(code: code, message: "\(message) (\(url.path))", path: url.path)
    }
    handle = connection
    sqlite3_busy_timeout(connection, Self.busyTimeoutMilliseconds)
    sqlite3_extended_result_codes(connection, 1)
    do {
      try execute("PRAGMA foreign_keys = ON")
      if mode == .readWrite {
        _ = try query("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
      } else {
        // Reading must not fail on an unfinished schema: the file may be from another version.
        _ = try query("SELECT count(*) FROM sqlite_master")
      }
    } catch {
      close()
      throw error
    }
  }

  deinit {
    close()
  }

  /// `path` percent-encoded for a `file:` URI (every character outside the URL path set, and
  /// `?`, `#` and `%`). A path of letters, digits and `/._-` (nearly every data directory) is
  /// its own encoding and skips Foundation's `CharacterSet`, whose first use costs a Tab press
  /// more than the rest of its open.
  static func uriPath(_ path: String) -> String {
    let plain = path.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "-"):
        return true
      default: return false
      }
    }
    if plain { return path }
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%")
    return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
  }

  /// Finalizes cached statements and closes the connection; later calls fail with
  /// `SQLITE_MISUSE`. Called automatically when the object goes away.
  public func close() {
    lock.withLock {
      for statement in statements.values { sqlite3_finalize(statement) }
      statements.removeAll()
      if let handle { sqlite3_close_v2(handle) }
      handle = nil
    }
  }

  // MARK: - Statements

  /// Runs one or more statements with no parameters and no results (schema, pragmas).
  public func execute(_ sql: String) throws(SQLiteError) {
    try withConnection { (connection) throws(SQLiteError) in
      var errorMessage: UnsafeMutablePointer<CChar>?
      let code = sqlite3_exec(connection, sql, nil, nil, &errorMessage)
      if code != SQLITE_OK {
        let message =
          errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        sqlite3_free(errorMessage)
        var error = SQLiteError(
          code: code & 0xff, extendedCode: sqlite3_extended_errcode(connection), message: message,
          sql: sql, path: url.path)
        error.systemErrno = Self.systemErrno(connection, code, url)
        throw error
      }
    }
  }

  /// Runs one statement with `values` bound to its `?` parameters; returns the number of
  /// rows it changed.
  @discardableResult
  public func run(_ sql: String, _ values: [any SQLiteBindable] = []) throws(SQLiteError) -> Int {
    try withStatement(sql, values) { (connection, statement) throws(SQLiteError) in
      while true {
        let code = sqlite3_step(statement)
        if code == SQLITE_DONE { break }
        if code != SQLITE_ROW { throw failure(connection, code, sql) }
      }
      return Int(sqlite3_changes(connection))
    }
  }

  /// Runs one statement and returns all its rows.
  public func query(_ sql: String, _ values: [any SQLiteBindable] = []) throws(SQLiteError) -> [Row]
  {
    try withStatement(sql, values) { (connection, statement) throws(SQLiteError) in
      let count = sqlite3_column_count(statement)
      let columns = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
      var rows: [Row] = []
      while true {
        let code = sqlite3_step(statement)
        if code == SQLITE_DONE { break }
        guard code == SQLITE_ROW else { throw failure(connection, code, sql) }
        let values = (0..<count).map { Self.columnValue(statement, $0) }
        rows.append(Row(columns: columns, values: values))
      }
      return rows
    }
  }

  /// Runs one statement and hands `body` each of its rows as the statement itself, to read
  /// with `sqlite3_column_*` before the next step: no ``Row`` is made (the shells' Tab key
  /// reads a thousand names this way). An error stops the walk and is thrown.
  func eachRow(_ sql: String, _ body: (OpaquePointer) -> Void) throws(SQLiteError) {
    try withStatement(sql, []) { (connection, statement) throws(SQLiteError) in
      while true {
        let code = sqlite3_step(statement)
        if code == SQLITE_DONE { break }
        guard code == SQLITE_ROW else { throw failure(connection, code, sql) }
        body(statement)
      }
    }
  }

  /// ``eachRow(_:_:)`` with `values` bound, stopping after the row for which `body` returns
  /// `false`: a Tab press that needs the first thousand distinct peers of a window reads no
  /// row past them.
  func eachRow(
    _ sql: String, _ values: [any SQLiteBindable], while body: (OpaquePointer) -> Bool
  ) throws(SQLiteError) {
    try withStatement(sql, values) { (connection, statement) throws(SQLiteError) in
      while true {
        let code = sqlite3_step(statement)
        if code == SQLITE_DONE { break }
        guard code == SQLITE_ROW else { throw failure(connection, code, sql) }
        guard body(statement) else { break }
      }
    }
  }

  /// The first row of the statement's result, or `nil`.
  public func queryOne(_ sql: String, _ values: [any SQLiteBindable] = []) throws(SQLiteError)
    -> Row?
  {
    try query(sql, values).first
  }

  /// The row id of the last successful `INSERT` on this connection.
  public var lastInsertRowID: Int64 {
    lock.withLock { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }
  }

  /// Whether a transaction is open on this connection.
  public var isInTransaction: Bool {
    lock.withLock { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }
  }

  // MARK: - Transactions

  /// Runs `body` in `BEGIN IMMEDIATE … COMMIT`; any error thrown rolls everything back and is
  /// rethrown. Called inside another transaction, it becomes a savepoint.
  @discardableResult
  public func transaction<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    if isInTransaction {
      return try savepoint("nested_transaction") { try body(self) }
    }
    try control("BEGIN IMMEDIATE")
    do {
      let result = try body(self)
      try control("COMMIT")
      return result
    } catch {
      if isInTransaction { try? control("ROLLBACK") }
      throw error
    }
  }

  /// Runs `body` inside `SAVEPOINT name`: released on success, rolled back to on error (which
  /// is rethrown). Savepoints nest. `name` must be letters, digits and `_`.
  @discardableResult
  public func savepoint<T>(_ name: String, _ body: () throws -> T) throws -> T {
    guard !name.isEmpty,
      name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
    else {
      throw SQLiteError(code: SQLiteError.misuseCode, message: "invalid savepoint name \(name)")
    }
    lock.lock()
    defer { lock.unlock() }
    try control("SAVEPOINT \(name)")
    do {
      let result = try body()
      try control("RELEASE \(name)")
      return result
    } catch {
      try? control("ROLLBACK TO \(name)")
      try? control("RELEASE \(name)")
      throw error
    }
  }

  /// Runs one transaction-control statement (`BEGIN`, `COMMIT`, `SAVEPOINT`, …) through the
  /// statement cache: prepared once per connection, where `execute` would parse it at every
  /// call (a search's savepoint is two such statements around a read of a few rows).
  private func control(_ sql: String) throws(SQLiteError) {
    try withStatement(sql, []) { (connection, statement) throws(SQLiteError) in
      let code = sqlite3_step(statement)
      if code != SQLITE_DONE && code != SQLITE_ROW { throw failure(connection, code, sql) }
    }
  }

  // MARK: - Maintenance

  /// Writes a consistent copy of the database to `destination` with SQLite's online backup
  /// API, while other connections keep reading and writing.
  ///
  /// The copy is written with ``AtomicFile`` (a temporary file next to `destination`, mode
  /// 0600, renamed into place); an existing `destination` is refused unless `existing` says
  /// otherwise, and never anything but a regular file. Returns where the copy went.
  @discardableResult
  public func backup(to destination: URL, existing: AtomicFile.Existing = .refuse) throws
    -> URL
  {
    try AtomicFile.produce(at: destination, mode: 0o600, existing: existing) { partial in
      try withConnection { (source) throws(SQLiteError) in
        var target: OpaquePointer?
        let openCode = sqlite3_open_v2(partial.path, &target, SQLITE_OPEN_READWRITE, nil)
        defer { sqlite3_close_v2(target) }
        guard openCode == SQLITE_OK, let target else {
          throw SQLiteError(code: openCode, message: "cannot create \(partial.path)")
        }
        do throws(SQLiteError) {
          try Self.copyAll(from: source, into: target)
        } catch {
          // The copy's own file ran out of room: say so in words (the copy is removed).
          // The backup API answers extended codes (778 for a write that failed).
          var failure = SQLiteError(
            code: error.code & 0xff, extendedCode: error.extendedCode, message: error.message)
          failure.systemErrno = Self.systemErrno(target, failure.code, partial)
          if failure.isFull {
            throw SQLiteError(
              code: SQLiteError.fullCode,
              message: String(cString: strerror(failure.systemErrno)))
          }
          throw failure
        }
      }
    }
  }

  /// Replaces this database's whole content with the database file at `source`, through the
  /// online backup API on this very connection.
  ///
  /// The copy is one write transaction: other connections wait (busy timeout) and then see
  /// either the old or the new content, never a mix, and a failure leaves the old content.
  /// This is how a restore replaces data while the app holds the database open; swapping
  /// files under open WAL connections could corrupt them.
  public func restore(from source: URL) throws(SQLiteError) {
    var handle: OpaquePointer?
    let openCode = sqlite3_open_v2(source.path, &handle, SQLITE_OPEN_READONLY, nil)
    defer { sqlite3_close_v2(handle) }
    guard openCode == SQLITE_OK, let handle else {
      throw SQLiteError(code: openCode, message: "cannot open \(source.path)")
    }
    sqlite3_busy_timeout(handle, 5000)
    try withConnection { (target) throws(SQLiteError) in
      try Self.copyAll(from: handle, into: target)
    }
  }

  /// Copies every page of `source`'s main database into `target`'s, waiting out locks held
  /// by other connections (up to about ten seconds).
  private static func copyAll(from source: OpaquePointer, into target: OpaquePointer)
    throws(SQLiteError)
  {
    guard let backup = sqlite3_backup_init(target, "main", source, "main") else {
      throw SQLiteError(
        code: sqlite3_errcode(target), message: String(cString: sqlite3_errmsg(target)))
    }
    var code: Int32
    var waits = 0
    repeat {
      code = sqlite3_backup_step(backup, -1)
      if code == SQLITE_BUSY || code == SQLITE_LOCKED {
        waits += 1
        sqlite3_sleep(20)
      }
    } while (code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED) && waits < 500
    let finish = sqlite3_backup_finish(backup)
    guard code == SQLITE_DONE, finish == SQLITE_OK else {
      let failed = code == SQLITE_DONE ? finish : code
      throw SQLiteError(code: failed, message: String(cString: sqlite3_errstr(failed)))
    }
  }

  /// Runs `PRAGMA integrity_check`; returns the problems found, empty when the file is sound.
  public func integrityCheck() throws(SQLiteError) -> [String] {
    let lines = try query("PRAGMA integrity_check").compactMap { row in
      row.values.first.flatMap { String.fromSQLite($0) }
    }
    return lines == ["ok"] ? [] : lines
  }

  /// Runs `PRAGMA quick_check` (the fast form, without index cross-checks); returns the
  /// problems found, empty when sound. A file too damaged to be read gives its error as the
  /// one problem.
  public func quickCheck() -> [String] {
    do throws(SQLiteError) {
      let lines = try query("PRAGMA quick_check").compactMap { row in
        row.values.first.flatMap { String.fromSQLite($0) }
      }
      return lines == ["ok"] ? [] : lines
    } catch {
      return [error.message]
    }
  }

  /// Rebuilds the file to reclaim free space (`VACUUM`). Cannot run inside a transaction.
  public func vacuum() throws(SQLiteError) {
    try execute("VACUUM")
  }

  /// The current `journal_mode` (`wal` for read-write connections).
  public func journalMode() throws(SQLiteError) -> String {
    try queryOne("PRAGMA journal_mode").flatMap { $0.values.first }.flatMap(String.fromSQLite)
      ?? ""
  }

  // MARK: - Internals

  private func withConnection<T>(_ body: (OpaquePointer) throws(SQLiteError) -> T)
    throws(SQLiteError) -> T
  {
    lock.lock()
    defer { lock.unlock() }
    guard let handle else {
      throw SQLiteError(code: SQLiteError.misuseCode, message: "the database is closed")
    }
    return try body(handle)
  }

  private func withStatement<T>(
    _ sql: String, _ values: [any SQLiteBindable],
    _ body: (OpaquePointer, OpaquePointer) throws(SQLiteError) -> T
  ) throws(SQLiteError) -> T {
    try withConnection { (connection) throws(SQLiteError) in
      let statement = try prepared(connection, sql)
      defer {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
      }
      let expected = Int(sqlite3_bind_parameter_count(statement))
      guard expected == values.count else {
        throw SQLiteError(
          code: SQLiteError.misuseCode,
          message: "statement has \(expected) parameters but \(values.count) values were given",
          sql: sql)
      }
      for (offset, value) in values.enumerated() {
        let code = Self.bind(value.sqliteValue, to: statement, at: Int32(offset + 1))
        if code != SQLITE_OK { throw failure(connection, code, sql) }
      }
      return try body(connection, statement)
    }
  }

  private func prepared(_ connection: OpaquePointer, _ sql: String) throws(SQLiteError)
    -> OpaquePointer
  {
    if let cached = statements[sql] { return cached }
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(
      connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard code == SQLITE_OK, let statement else {
      throw failure(connection, code, sql)
    }
    statements[sql] = statement
    return statement
  }

  private func failure(_ connection: OpaquePointer, _ code: Int32, _ sql: String) -> SQLiteError {
    var error = SQLiteError(
      code: code & 0xff, extendedCode: sqlite3_extended_errcode(connection),
      message: String(cString: sqlite3_errmsg(connection)), sql: sql, path: url.path)
    error.systemErrno = Self.systemErrno(connection, code, url)
    return error
  }

  /// The `errno` behind an I/O failure. SQLite's own (`sqlite3_system_errno`) is often 0 by
  /// then: a write cut short by the file size limit (`ulimit -f`) or a full disk then shows
  /// as a bare `SQLITE_IOERR_WRITE`, so the room left is looked at too: `EFBIG` when the
  /// database or its log reached the limit, `ENOSPC` when the disk has less than 1 MiB free.
  static func systemErrno(_ connection: OpaquePointer, _ code: Int32, _ url: URL) -> Int32 {
    let known = sqlite3_system_errno(connection)
    guard known == 0, code & 0xff == SQLITE_IOERR else { return known }
    var limit = rlimit()
    #if canImport(Glibc)
      let fileSize = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
    #else
      let fileSize = RLIMIT_FSIZE
    #endif
    if getrlimit(fileSize, &limit) == 0, limit.rlim_cur != rlim_t.max {
      let largest = max(
        DatabaseFile.size(url), DatabaseFile.size(URL(fileURLWithPath: url.path + "-wal")))
      if UInt64(largest) + 65_536 >= UInt64(limit.rlim_cur) { return EFBIG }
    }
    var volume = statvfs()
    if statvfs(url.deletingLastPathComponent().path, &volume) == 0,
      UInt64(volume.f_bavail) * UInt64(volume.f_frsize) < 1_048_576
    {
      return ENOSPC
    }
    return 0
  }

  /// SQLite copies bound text and blobs when given `SQLITE_TRANSIENT` (-1 as a destructor).
  private static var transient: sqlite3_destructor_type {
    unsafeBitCast(-1, to: sqlite3_destructor_type.self)
  }

  private static func bind(_ value: SQLiteValue, to statement: OpaquePointer, at index: Int32)
    -> Int32
  {
    switch value {
    case .null:
      return sqlite3_bind_null(statement, index)
    case .integer(let number):
      return sqlite3_bind_int64(statement, index, number)
    case .real(let number):
      return sqlite3_bind_double(statement, index, number)
    case .text(let text):
      let length = Int32(text.utf8.count)
      return text.withCString { chars in
        sqlite3_bind_text(statement, index, chars, length, transient)
      }
    case .blob(let data):
      if data.isEmpty { return sqlite3_bind_zeroblob(statement, index, 0) }
      return data.withUnsafeBytes { bytes in
        sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), transient)
      }
    }
  }

  private static func columnValue(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER:
      return .integer(sqlite3_column_int64(statement, index))
    case SQLITE_FLOAT:
      return .real(sqlite3_column_double(statement, index))
    case SQLITE_TEXT:
      guard let pointer = sqlite3_column_text(statement, index) else { return .text("") }
      let count = Int(sqlite3_column_bytes(statement, index))
      return .text(
        String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard count > 0, let pointer = sqlite3_column_blob(statement, index) else {
        return .blob(Data())
      }
      return .blob(Data(bytes: pointer, count: count))
    default:
      return .null
    }
  }
}
