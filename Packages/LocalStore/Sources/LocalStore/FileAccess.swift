import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether this user may write the files msa writes, and who else owns them.
public enum FileAccess {
  /// A file that is there and may not be written by this user.
  public struct Unwritable: Sendable, Equatable {
    /// The file.
    public var path: String
    /// Its mode, `0444`-style.
    public var mode: String
    /// Its owner's user name, or uid when the name is unknown.
    public var owner: String
    /// Whether this user owns it (and may so change its mode).
    public var isOwn: Bool
  }

  /// The write-ahead log and shared-memory file of `databaseURL` that exist and this user may
  /// not write (`access(W_OK)`): SQLite then refuses every write with `SQLITE_READONLY`.
  public static func unwritableCompanions(of databaseURL: URL) -> [Unwritable] {
    ["-wal", "-shm"].compactMap { unwritable(databaseURL.path + $0) }
  }

  /// `path` when it is a file that exists and this user may not write; nil otherwise.
  public static func unwritable(_ path: String) -> Unwritable? {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(path, W_OK) != 0
    else { return nil }
    return Unwritable(
      path: path, mode: "0" + String(Int(info.st_mode) & 0o777, radix: 8),
      owner: userName(info.st_uid), isOwn: info.st_uid == geteuid())
  }

  /// `path` when it is a file (not a link) this user owns, and so may change the mode of.
  public static func ownFile(_ path: String) -> String? {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid()
    else { return nil }
    return path
  }

  /// The user name of `uid`, or the number.
  static func userName(_ uid: uid_t) -> String {
    guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return String(uid) }
    return String(cString: name)
  }
}
