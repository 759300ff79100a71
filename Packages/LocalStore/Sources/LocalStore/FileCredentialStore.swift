import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Passwords in `credentials.json` in the data directory, readable by the owner only.
///
/// The file is `{"version": 1, "passwords": {"<instance id>": "<password>"}}`, plus
/// `"refused": {"<instance id>": {"origin": …, "at": …}}` for passwords a device refused. Every write
/// goes to a temporary file in the same directory, created with mode 0600 before any byte is
/// written, then renamed over the old file, so a crash never leaves a half-written or
/// readable file. A file whose mode allows group or other access is refused (with the
/// `chmod 600` fix in the message); a malformed file is refused and never overwritten.
///
/// Every read-modify-write holds an exclusive `flock` on `credentials.json.lock` beside the
/// file (readers a shared one), so concurrent msa processes never lose each other's
/// passwords. In a home msa may not write (read-only), reads go ahead without the lock.
public final class FileCredentialStore: CredentialStore {
  /// The usual file name.
  public static let fileName = "credentials.json"

  /// The credentials file.
  public let fileURL: URL
  /// The lock file beside it.
  public var lockURL: URL { URL(fileURLWithPath: fileURL.path + ".lock") }
  private let lock = Locked(())

  /// A store for `credentials.json` in `directory`.
  public convenience init(directory: URL) {
    self.init(fileURL: directory.appendingPathComponent(Self.fileName))
  }

  /// A store for an explicit file.
  public init(fileURL: URL) {
    self.fileURL = fileURL
  }

  private struct FileContents: Codable {
    var version: Int
    var passwords: [String: String]
    /// Refused passwords, by instance id (absent in files written before refusals were kept).
    var refused: [String: PasswordRefusal]?
  }

  // MARK: - CredentialStore

  /// The stored password of an instance, or `nil`.
  public func password(for instanceID: String) throws(CredentialError) -> String? {
    try withLock(exclusive: false) { () throws(CredentialError) in
      try load().passwords[instanceID]
    }
  }

  /// Stores (or replaces) an instance's password, forgetting a refusal of the old one.
  public func setPassword(_ password: String, for instanceID: String) throws(CredentialError) {
    try withLock(exclusive: true) { () throws(CredentialError) in
      var contents = try load()
      contents.passwords[instanceID] = password
      contents.refused?[instanceID] = nil
      try save(contents)
    }
  }

  /// Forgets an instance's password (and its refusal).
  public func removePassword(for instanceID: String) throws(CredentialError) {
    try withLock(exclusive: true) { () throws(CredentialError) in
      var contents = try load()
      let refused = contents.refused?.removeValue(forKey: instanceID) != nil
      guard contents.passwords.removeValue(forKey: instanceID) != nil || refused else { return }
      try save(contents)
    }
  }

  /// The ids of instances that have a stored password, sorted.
  public func instanceIDsWithPasswords() throws(CredentialError) -> [String] {
    try withLock(exclusive: false) { () throws(CredentialError) in
      try load().passwords.keys.sorted()
    }
  }

  /// When and where a device refused the stored password of an instance.
  public func refusal(for instanceID: String) throws(CredentialError) -> PasswordRefusal? {
    try withLock(exclusive: false) { () throws(CredentialError) in
      try load().refused?[instanceID]
    }
  }

  /// Remembers that `password`, if still the stored one, was refused at `origin`.
  public func recordRefusal(of password: String, for instanceID: String, origin: String, at: Date)
    throws(CredentialError)
  {
    try withLock(exclusive: true) { () throws(CredentialError) in
      var contents = try load()
      guard contents.passwords[instanceID] == password else { return }
      var refused = contents.refused ?? [:]
      refused[instanceID] = PasswordRefusal(origin: origin, at: at)
      contents.refused = refused
      try save(contents)
    }
  }

  // MARK: - Checking

  /// What keeps the file from being read (not JSON, not a credentials file, unreadable, or
  /// open to others), read under the shared lock; nil when it reads or is not there.
  public func problem() -> CredentialError? {
    do {
      _ = try instanceIDsWithPasswords()
      return nil
    } catch {
      return error
    }
  }

  /// Moves a file that cannot be read as a credentials file (``CredentialError/malformed``
  /// or ``CredentialError/unreadable``) to `aside`, never replacing anything there and never
  /// deleting it, under the exclusive lock; returns its bytes (to tell which instances had a
  /// password). Nil, and nothing moved, when the file reads now or is not there.
  public func setAside(to aside: URL) throws(CredentialError) -> Data? {
    try withLock(exclusive: true) { () throws(CredentialError) -> Data? in
      do throws(CredentialError) {
        _ = try load()
        return nil
      } catch {
        switch error {
        case .malformed, .unreadable: break
        default: return nil
        }
      }
      let bytes = (try? Data(contentsOf: fileURL)) ?? Data()
      // A hard link fails if `aside` exists: nothing is ever replaced.
      guard link(fileURL.path, aside.path) == 0, unlink(fileURL.path) == 0 else {
        throw .unwritable(path: fileURL.path, reason: String(cString: strerror(errno)))
      }
      return bytes
    }
  }

  // MARK: - File

  /// Runs `body` holding this process's lock and the file lock shared by every process.
  private func withLock<T>(exclusive: Bool, _ body: () throws(CredentialError) -> T)
    throws(CredentialError) -> T
  {
    let result: Result<T, CredentialError> = lock.withLock { _ in
      do throws(CredentialError) {
        let descriptor = try openLockFile(forWriting: exclusive)
        defer { if descriptor >= 0 { close(descriptor) } }
        if descriptor >= 0 {
          while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else {
              throw CredentialError.unwritable(
                path: lockURL.path, reason: String(cString: strerror(errno)))
            }
          }
        }
        return .success(try body())
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// The lock file, created 0600 when missing; -1 when a reader cannot create it (a
  /// read-only home, or no folder yet: nothing to read then either).
  private func openLockFile(forWriting: Bool) throws(CredentialError) -> Int32 {
    let descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    if descriptor >= 0 { return descriptor }
    let code = errno
    let readOnly = open(lockURL.path, O_RDONLY | O_CLOEXEC)
    if readOnly >= 0 { return readOnly }
    if !forWriting { return -1 }
    throw .unwritable(path: lockURL.path, reason: String(cString: strerror(code)))
  }

  private func load() throws(CredentialError) -> FileContents {
    let path = fileURL.path
    var info = stat()
    if stat(path, &info) != 0 {
      if errno == ENOENT { return FileContents(version: 1, passwords: [:]) }
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    let mode = Int(info.st_mode) & 0o777
    if mode & 0o077 != 0 {
      throw .insecurePermissions(path: path, mode: "0" + String(mode, radix: 8))
    }
    let data: Data
    do {
      data = try Data(contentsOf: fileURL)
    } catch {
      throw .unreadable(path: path, reason: error.localizedDescription)
    }
    do {
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .iso8601
      return try decoder.decode(FileContents.self, from: data)
    } catch let error as DecodingError {
      // Describe the structure only: the values may be passwords.
      switch error {
      case .dataCorrupted: throw .malformed(path: path, detail: "not valid JSON")
      case .keyNotFound(let key, _):
        throw .malformed(path: path, detail: "missing \"\(key.stringValue)\"")
      default: throw .malformed(path: path, detail: "expected {\"version\": 1, \"passwords\": {…}}")
      }
    } catch {
      throw .malformed(path: path, detail: "not valid JSON")
    }
  }

  private func save(_ contents: FileContents) throws(CredentialError) {
    let path = fileURL.path
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    var contents = contents
    contents.version = 1
    if contents.refused?.isEmpty == true { contents.refused = nil }
    let data: Data
    do {
      data = try encoder.encode(contents)
    } catch {
      throw .unwritable(path: path, reason: "cannot encode")
    }
    do {
      try AtomicFile.write(data, to: fileURL, mode: 0o600, existing: .replace)
    } catch {
      throw .unwritable(path: path, reason: error.reason)
    }
  }
}
