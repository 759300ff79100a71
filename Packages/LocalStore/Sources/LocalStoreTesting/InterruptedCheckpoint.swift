import Foundation
import LocalStore

/// The state a kill in the middle of a checkpoint leaves, built by hand (issue 35 point 1): a
/// main file shorter than its header says, with the rest in the write-ahead log. SQLite reads
/// it whole; msa must never call it damaged.
public enum InterruptedCheckpoint {
  /// Why the state could not be built (the source had no log, or no first page in it).
  public struct Unbuildable: Error, CustomStringConvertible {
    /// What was missing.
    public let description: String
  }

  /// Copies the database in `source` (its store still open, every commit since its last
  /// `wal_checkpoint(TRUNCATE)` still in the log) into `home` as a kill -9 would leave it
  /// (main file, log and marker; no shared memory), then does a checkpoint's first writes:
  /// the newest page 1 from the log (its header now counts every page) and the pages after
  /// it up to half of the original file, while the file has not grown yet.
  ///
  /// Returns the database in `home` and the size its header now claims, in bytes.
  public static func leave(from source: URL, in home: URL) throws -> (database: URL, claimed: Int) {
    for name in [Store.databaseFileName, Store.databaseFileName + "-wal", Store.markerFileName] {
      try FileManager.default.copyItem(
        at: source.appendingPathComponent(name), to: home.appendingPathComponent(name))
    }
    let database = home.appendingPathComponent(Store.databaseFileName)
    let wal = try Data(contentsOf: URL(fileURLWithPath: database.path + "-wal"))
    guard wal.count > 32 else { throw Unbuildable(description: "the log is empty") }
    let pageSize = integer(wal, at: 8)
    // The newest frame of each page (frames: a 24-byte header, then the page).
    var newest: [Int: Data] = [:]
    var offset = 32
    while offset + 24 + pageSize <= wal.count {
      let start = wal.startIndex + offset
      newest[integer(wal, at: offset)] = wal.subdata(in: (start + 24)..<(start + 24 + pageSize))
      offset += 24 + pageSize
    }
    guard let header = newest[1] else {
      throw Unbuildable(description: "the log holds no first page")
    }
    let pagesBefore = Int(DatabaseFile.size(database)) / pageSize
    let handle = try FileHandle(forUpdating: database)
    defer { try? handle.close() }
    for page in 1...max(1, pagesBefore / 2) {
      guard let content = newest[page] else { continue }
      try handle.seek(toOffset: UInt64((page - 1) * pageSize))
      try handle.write(contentsOf: content)
    }
    return (database, integer(header, at: 28) * pageSize)
  }

  /// The big-endian 32-bit integer at `offset`.
  private static func integer(_ data: Data, at offset: Int) -> Int {
    let start = data.startIndex + offset
    return Int(data[start]) << 24 | Int(data[start + 1]) << 16 | Int(data[start + 2]) << 8
      | Int(data[start + 3])
  }
}
