import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What can be told about a database file from outside.
///
/// Only SQLite decides whether a database is damaged (``Store`` opens it and reads it; `msa
/// data check` runs `integrity_check`): a file SQLite opens is healthy whatever its size says.
/// The header read here is a hint that words the problem of a file SQLite refused.
public enum DatabaseFile {
  /// Why a file is not a usable SQLite database.
  public enum Problem: Sendable, Equatable {
    /// The file is there but holds nothing.
    case empty
    /// It does not start with SQLite's header.
    case notSQLite
    /// It is shorter than its header says.
    case truncated(expected: Int, actual: Int)
    /// There is no file, although msa created one in this directory before (its marker,
    /// ``Store/markerFileName``, is there). Never returned by ``headerProblem(_:)``.
    case missing
  }

  /// Reads the header of `url`: nil when it looks like a whole SQLite file, else the
  /// problem. Throws nothing: a file that cannot be read is for SQLite to report.
  ///
  /// Only a hint for a file SQLite refused: a main file shorter than its header says is
  /// healthy when the write-ahead log holds the rest (a checkpoint under way, or a kill
  /// during one), and this function does not read the log.
  public static func headerProblem(_ url: URL) -> Problem? {
    guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
    defer { try? handle.close() }
    // `read(upToCount:)` throws where `readData(ofLength:)` would crash (a directory).
    guard let header = try? handle.read(upToCount: 100) ?? Data() else { return .notSQLite }
    let actual = Int(size(url))
    if header.isEmpty && actual == 0 { return .empty }
    guard header.count == 100, header.prefix(16) == Data("SQLite format 3\u{0}".utf8) else {
      return .notSQLite
    }
    let bytes = [UInt8](header)
    var pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
    if pageSize == 1 { pageSize = 65_536 }
    guard pageSize >= 512 else { return .notSQLite }
    let pageCount =
      Int(bytes[28]) << 24 | Int(bytes[29]) << 16 | Int(bytes[30]) << 8 | Int(bytes[31])
    // The in-header size is trustworthy only when "version-valid-for" equals the counter.
    if bytes[24..<28].elementsEqual(bytes[92..<96]), pageCount > 0, actual < pageCount * pageSize {
      return .truncated(expected: pageCount * pageSize, actual: actual)
    }
    if actual < pageSize || actual % pageSize != 0 {
      return .truncated(expected: max(pageCount, 1) * pageSize, actual: actual)
    }
    return nil
  }

  /// The size of `url` in bytes (0 when missing).
  public static func size(_ url: URL) -> Int64 {
    var info = stat()
    guard stat(url.path, &info) == 0 else { return 0 }
    return Int64(info.st_size)
  }

  /// Whether `directory` shows that msa used it before: its marker, a credentials file,
  /// safety copies or exports.
  public static func homeShowsEarlierUse(_ directory: URL) -> Bool {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.contains { name in
      name == Store.markerFileName || name == FileCredentialStore.fileName || name == "exports"
        || (name.hasPrefix("msa.before-") && name.hasSuffix(".sqlite"))
    }
  }

  /// The safety copies and backups msa left in `directory`, newest first.
  public static func safetyCopies(in directory: URL) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return
      names
      .filter { $0.hasPrefix("msa.before-") && $0.hasSuffix(".sqlite") }
      .map { directory.appendingPathComponent($0) }
      .sorted { modified($0) > modified($1) }
  }

  private static func modified(_ url: URL) -> Int {
    var info = stat()
    guard stat(url.path, &info) == 0 else { return 0 }
    #if canImport(Darwin)
      return Int(info.st_mtimespec.tv_sec)
    #else
      return Int(info.st_mtim.tv_sec)
    #endif
  }

  /// The problem in plain words (English and Chinese from the catalogue).
  public static func describe(_ problem: Problem, _ language: AppLanguage) -> String {
    switch problem {
    case .empty: LocalStoreStrings.text("database.problem.empty", language)
    case .notSQLite: LocalStoreStrings.text("database.problem.notSQLite", language)
    case .missing: LocalStoreStrings.text("database.problem.missing", language)
    case .truncated(let expected, let actual):
      LocalStoreStrings.text(
        "database.problem.truncated", language,
        ["expected": String(expected), "actual": String(actual)])
    }
  }
}
