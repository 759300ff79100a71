import Foundation

#if canImport(SQLite3)
  import SQLite3
#else
  import LogCenterSQLite
#endif

/// Copies a whole database into a live one with SQLite's online backup API.
///
/// The copy runs as one write transaction on the destination: other connections wait (busy
/// timeout) and then see either the old or the new content, never a mix, and a failure rolls
/// the destination back. This is how a restore replaces the data while the app holds the
/// database open; swapping files under open WAL connections could corrupt them.
enum DatabaseCopier {
  /// Copies `source` (opened read-only) over `destination`'s main database.
  static func copy(from source: URL, into destination: URL) throws(LogCenterError) {
    var sourceHandle: OpaquePointer?
    var destinationHandle: OpaquePointer?
    defer {
      sqlite3_close_v2(sourceHandle)
      sqlite3_close_v2(destinationHandle)
    }
    guard sqlite3_open_v2(source.path, &sourceHandle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK,
      let sourceHandle
    else {
      throw .unreadable(path: source.path, reason: message(sourceHandle))
    }
    guard
      sqlite3_open_v2(destination.path, &destinationHandle, SQLITE_OPEN_READWRITE, nil)
        == SQLITE_OK, let destinationHandle
    else {
      throw .unwritable(path: destination.path, reason: message(destinationHandle))
    }
    sqlite3_busy_timeout(sourceHandle, 5000)
    sqlite3_busy_timeout(destinationHandle, 5000)
    guard let backup = sqlite3_backup_init(destinationHandle, "main", sourceHandle, "main") else {
      throw .unwritable(path: destination.path, reason: message(destinationHandle))
    }
    var code: Int32
    var attempts = 0
    repeat {
      code = sqlite3_backup_step(backup, -1)
      if code == SQLITE_BUSY || code == SQLITE_LOCKED {
        attempts += 1
        sqlite3_sleep(20)
      }
    } while (code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED) && attempts < 500
    let finish = sqlite3_backup_finish(backup)
    guard code == SQLITE_DONE, finish == SQLITE_OK else {
      let failed = code == SQLITE_DONE ? finish : code
      throw .unwritable(path: destination.path, reason: String(cString: sqlite3_errstr(failed)))
    }
  }

  private static func message(_ handle: OpaquePointer?) -> String {
    handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
  }
}
