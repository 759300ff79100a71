import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one way msa writes a file: a temporary file in the destination's folder, created with
/// its final mode before any byte is written (so a secret is never readable by others, not
/// even for a moment), synced, then renamed into place. A failure, Ctrl-C or SIGTERM leaves
/// nothing behind; a kill -9 leaves a temporary file with the ``temporaryPrefix`` that
/// `msa data check` reports and `--fix` removes.
///
/// An existing destination is never replaced unless the caller says so (``Existing/replace``,
/// the commands' `--force`), and even then only a regular file: a directory, a symbolic link,
/// a device node or a pipe at the path is refused.
public enum AtomicFile {
  /// What every temporary file msa creates starts with: `.msa-tmp-<pid>-<random>-<name>`.
  public static let temporaryPrefix = ".msa-tmp-"

  /// What to do when the destination exists.
  public enum Existing: Sendable, Equatable {
    /// Refuse (nothing is written).
    case refuse
    /// Replace it, if it is a regular file (`--force`).
    case replace
    /// Write beside it instead, adding ` -2`, `-3`… before the extension (default names).
    case number
  }

  /// Why a file was not written. Nothing was left behind, and an existing file is unchanged.
  public enum Failure: Error, Equatable, LocalizedStoreError {
    /// The file exists and replacing it was not allowed.
    case destinationExists(path: String)
    /// Something other than a regular file is at the path (`kind`: directory, symbolic
    /// link, device, pipe, socket); it is never replaced.
    case notARegularFile(path: String, kind: String)
    /// The system refused; `reason` is its message.
    case unwritable(path: String, reason: String)

    /// What went wrong, in the system's words.
    public var reason: String {
      switch self {
      case .destinationExists: "the file already exists"
      case .notARegularFile(_, let kind): "it is a \(kind), not a regular file"
      case .unwritable(_, let reason): reason
      }
    }

    /// The path concerned.
    public var path: String {
      switch self {
      case .destinationExists(let path), .notARegularFile(let path, _), .unwritable(let path, _):
        path
      }
    }

    /// The message in `language`, naming the file and the fix.
    public func localizedMessage(_ language: AppLanguage) -> String {
      switch self {
      case .destinationExists(let path):
        LocalStoreStrings.text("file.error.exists", language, ["path": path])
      case .notARegularFile(let path, let kind):
        LocalStoreStrings.text(
          "file.error.notRegular", language,
          ["path": path, "kind": LocalStoreStrings.text("file.kind.\(kind)", language)])
      case .unwritable(let path, let reason):
        LocalStoreStrings.text("file.error.unwritable", language, ["path": path, "reason": reason])
      }
    }
  }

  // MARK: - Writing

  /// Writes `data` to `url` with `mode`; returns where it went (another name only with
  /// ``Existing/number``).
  @discardableResult
  public static func write(
    _ data: Data, to url: URL, mode: mode_t = 0o600, existing: Existing
  ) throws(Failure) -> URL {
    do {
      return try write(to: url, mode: mode, existing: existing) { sink in try sink.write(data) }
    } catch let failure as Failure {
      throw failure
    } catch {
      throw .unwritable(path: url.path, reason: String(describing: error))
    }
  }

  /// Streams a file: `body` writes to the sink; returns where the file went. An error thrown
  /// by `body` is rethrown as it is, after the temporary file is removed.
  @discardableResult
  public static func write(
    to url: URL, mode: mode_t = 0o600, existing: Existing,
    _ body: (FileSink) throws -> Void
  ) throws -> URL {
    try produce(at: url, mode: mode, existing: existing) { temporary in
      let descriptor = open(temporary.path, O_WRONLY | O_TRUNC | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw Failure.unwritable(path: url.path, reason: errorText(errno))
      }
      let sink = FileSink(descriptor: descriptor, path: url.path)
      defer { close(descriptor) }
      try body(sink)
    }
  }

  /// For files another library writes by path (SQLite's backup API): `body` fills the empty
  /// temporary file at the URL it is given (created with `mode`); the result is synced and
  /// renamed into place. Returns where the file went.
  @discardableResult
  public static func produce(
    at url: URL, mode: mode_t = 0o600, existing: Existing, _ body: (URL) throws -> Void
  ) throws -> URL {
    try checkDestination(url, existing: existing)
    let temporary = try createTemporary(beside: url, mode: mode)
    defer { TemporaryFiles.remove(temporary.path) }
    try body(temporary)
    // The producer may have recreated the file with its own mode: set it again, then sync.
    let descriptor = open(temporary.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw Failure.unwritable(path: url.path, reason: errorText(errno))
    }
    var failure: String?
    if fchmod(descriptor, mode) != 0 || fsync(descriptor) != 0 { failure = errorText(errno) }
    close(descriptor)
    if let failure { throw Failure.unwritable(path: url.path, reason: failure) }
    return try commit(temporary, to: url, existing: existing)
  }

  // MARK: - Destinations

  /// Refuses a destination that may not be written: an existing file unless replacing, and
  /// anything that is not a regular file even then.
  public static func checkDestination(_ url: URL, existing: Existing) throws(Failure) {
    let path = url.path
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return }
      throw .unwritable(path: path, reason: errorText(errno))
    }
    if let kind = kind(of: info.st_mode) { throw .notARegularFile(path: path, kind: kind) }
    if existing == .refuse { throw .destinationExists(path: path) }
  }

  /// `stem.ext` in `directory`, or `stem-2.ext`, `stem-3.ext`… when taken.
  public static func numbered(_ url: URL, _ counter: Int) -> URL {
    guard counter > 1 else { return url }
    let folder = url.deletingLastPathComponent()
    let ext = url.pathExtension
    let stem = url.deletingPathExtension().lastPathComponent
    return folder.appendingPathComponent(
      ext.isEmpty ? "\(stem)-\(counter)" : "\(stem)-\(counter).\(ext)")
  }

  /// The first of `url`, `url-2`, `url-3`… that does not exist yet.
  public static func unusedName(_ url: URL) -> URL {
    var counter = 1
    var candidate = url
    while FileManager.default.fileExists(atPath: candidate.path) || isSymbolicLink(candidate.path) {
      counter += 1
      candidate = numbered(url, counter)
    }
    return candidate
  }

  /// Whether `name` is one of msa's temporary files.
  public static func isTemporaryName(_ name: String) -> Bool {
    name.hasPrefix(temporaryPrefix)
  }

  /// The process that created the temporary file `name`, when the name says.
  public static func creator(ofTemporaryName name: String) -> Int32? {
    guard isTemporaryName(name) else { return nil }
    let rest = name.dropFirst(temporaryPrefix.count)
    guard let dash = rest.firstIndex(of: "-") else { return nil }
    return Int32(rest[..<dash])
  }

  /// An empty temporary file beside `url` (mode `mode`), for work that ends elsewhere (a
  /// restore's staging copy). The caller removes it with ``TemporaryFiles/remove(_:)``.
  public static func temporaryFile(beside url: URL, mode: mode_t = 0o600) throws(Failure) -> URL {
    try createTemporary(beside: url, mode: mode)
  }

  /// Copies the bytes of `source` into the existing file `destination` (replacing what it
  /// held) and syncs it.
  public static func copyContents(of source: URL, into destination: URL) throws(Failure) {
    let input = open(source.path, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw .unwritable(path: source.path, reason: errorText(errno)) }
    defer { close(input) }
    let output = open(destination.path, O_WRONLY | O_TRUNC | O_CLOEXEC)
    guard output >= 0 else { throw .unwritable(path: destination.path, reason: errorText(errno)) }
    defer { close(output) }
    let sink = FileSink(descriptor: output, path: destination.path)
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .unwritable(path: source.path, reason: errorText(errno))
      }
      if count == 0 { break }
      try sink.write(Data(buffer[0..<count]))
    }
    if fsync(output) != 0 { throw .unwritable(path: destination.path, reason: errorText(errno)) }
  }

  // MARK: - Internals

  /// Creates `.msa-tmp-<pid>-<random>-<name>` beside `url` with `mode`, registered for
  /// removal on failure and on SIGINT/SIGTERM.
  static func createTemporary(beside url: URL, mode: mode_t) throws(Failure) -> URL {
    let folder = url.deletingLastPathComponent()
    let name = String(url.lastPathComponent.prefix(120))
    for _ in 0..<8 {
      let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
      let temporary = folder.appendingPathComponent(
        "\(temporaryPrefix)\(getpid())-\(random)-\(name)")
      TemporaryFiles.register(temporary.path)
      let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
      if descriptor < 0 {
        let code = errno
        TemporaryFiles.forget(temporary.path)
        if code == EEXIST { continue }
        throw .unwritable(path: url.path, reason: errorText(code))
      }
      // The umask may have narrowed or the mode been widened: set it exactly.
      let failed = fchmod(descriptor, mode) != 0
      let code = errno
      close(descriptor)
      if failed {
        TemporaryFiles.remove(temporary.path)
        throw .unwritable(path: url.path, reason: errorText(code))
      }
      return temporary
    }
    throw .unwritable(path: url.path, reason: "cannot create a temporary file")
  }

  /// Moves the finished temporary file to `url` (or a numbered name beside it).
  private static func commit(_ temporary: URL, to url: URL, existing: Existing) throws(Failure)
    -> URL
  {
    if existing == .replace {
      try checkDestination(url, existing: .replace)
      guard rename(temporary.path, url.path) == 0 else {
        throw .unwritable(path: url.path, reason: errorText(errno))
      }
      syncFolder(url)
      return url
    }
    // A hard link fails when the name is taken, atomically: no window in which another
    // process's file could be replaced.
    var counter = 1
    while true {
      let candidate = numbered(url, counter)
      if link(temporary.path, candidate.path) == 0 {
        unlink(temporary.path)
        syncFolder(candidate)
        return candidate
      }
      let code = errno
      if code == EEXIST {
        if existing == .number {
          counter += 1
          continue
        }
        throw .destinationExists(path: url.path)
      }
      // Some file systems have no hard links: check, then rename.
      if code == EPERM || code == ENOTSUP || code == EOPNOTSUPP || code == EMLINK {
        try checkDestination(candidate, existing: .refuse)
        guard rename(temporary.path, candidate.path) == 0 else {
          throw .unwritable(path: candidate.path, reason: errorText(errno))
        }
        syncFolder(candidate)
        return candidate
      }
      throw .unwritable(path: candidate.path, reason: errorText(code))
    }
  }

  private static func syncFolder(_ url: URL) {
    let descriptor = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    close(descriptor)
  }

  /// `nil` for a regular file, else what it is.
  static func kind(of mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: nil
    case S_IFDIR: "directory"
    case S_IFLNK: "symlink"
    case S_IFCHR, S_IFBLK: "device"
    case S_IFIFO: "pipe"
    case S_IFSOCK: "socket"
    default: "special"
    }
  }

  private static func isSymbolicLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
  }

  static func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

/// The open temporary file of ``AtomicFile/write(to:mode:existing:_:)``.
public final class FileSink {
  private let descriptor: Int32
  private let path: String

  init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  /// Appends `data`.
  public func write(_ data: Data) throws(AtomicFile.Failure) {
    let failure = data.withUnsafeBytes { ProcessOutput.writeAll($0, to: descriptor) }
    if let failure { throw .unwritable(path: path, reason: AtomicFile.errorText(failure)) }
  }

  /// Appends `text` as UTF-8.
  public func write(_ text: String) throws(AtomicFile.Failure) {
    try write(Data(text.utf8))
  }
}

/// The temporary files this process has made and not yet renamed or removed: removed on
/// failure, and by ``removeAll()`` when a signal ends the process.
public enum TemporaryFiles {
  private static let paths = Locked<Set<String>>([])

  /// The suffixes SQLite may add beside a database file it writes.
  static let companions = ["", "-journal", "-wal", "-shm"]

  /// Notes `path` as one to remove if the process is interrupted.
  public static func register(_ path: String) {
    paths.withLock { _ = $0.insert(path) }
  }

  /// Stops tracking `path` (it was renamed into place).
  public static func forget(_ path: String) {
    paths.withLock { _ = $0.remove(path) }
  }

  /// Removes `path` (and SQLite's companions of it) and stops tracking it.
  public static func remove(_ path: String) {
    forget(path)
    for suffix in companions { unlink(path + suffix) }
  }

  /// Removes every tracked file (called on SIGINT/SIGTERM and before a quiet exit).
  public static func removeAll() {
    let all = paths.withLock { paths -> Set<String> in
      let all = paths
      paths.removeAll()
      return all
    }
    for path in all {
      for suffix in companions { unlink(path + suffix) }
    }
  }

  /// How many files are tracked (for tests).
  public static var count: Int { paths.withLock { $0.count } }
}
