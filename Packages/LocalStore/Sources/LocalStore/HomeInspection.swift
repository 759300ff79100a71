import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One thing `msa data check` found in the data directory outside the database.
public struct HomeFinding: Sendable, Equatable, Codable {
  /// What kind of thing.
  public enum Kind: String, Sendable, Codable {
    /// A temporary file a killed run left (backup, restore, compact or export copy).
    case leftover
    /// A temporary file of a run still going on (kept).
    case inUse
    /// A file or folder others may read (mode wider than 0600 / 0700).
    case looseMode
    /// A password kept for an instance that does not exist (a killed `fleet add`).
    case orphanPassword
    /// A file msa must write that this user may not (the database, its `-wal` or `-shm`, the
    /// credentials): every change is refused until it is writable. `detail` is its mode and
    /// owner. It makes `msa data check` fail.
    case unwritable
    /// `credentials.json` cannot be read as a credentials file (not JSON, cut short, not
    /// `{"version": 1, "passwords": {…}}`): no stored password can be used. `detail` says what
    /// is wrong with its structure (never a value). `--fix` keeps it aside, never deleting or
    /// overwriting it, and names the instances whose passwords must be entered again.
    case unreadableCredentials
    /// `credentials.json` has a mode other than 0600 (`detail`): open to others, it is
    /// refused; without the owner's write bit, no password can be stored.
    case credentialsMode

    /// Whether the finding keeps msa from working (the check fails), not only a warning.
    public var blocks: Bool {
      self == .unwritable || self == .unreadableCredentials || self == .credentialsMode
    }
  }

  /// What it is.
  public var kind: Kind
  /// The file concerned (the instance id for ``Kind/orphanPassword``).
  public var path: String
  /// Bytes for leftovers, `0644`-style mode for loose modes.
  public var detail: String

  /// A finding.
  public init(kind: Kind, path: String, detail: String) {
    self.kind = kind
    self.path = path
    self.detail = detail
  }

  /// One line in `language`.
  public func describe(_ language: AppLanguage) -> String {
    LocalStoreStrings.text(
      "home.finding.\(kind.rawValue)", language, ["path": path, "detail": detail])
  }

  /// What `--fix` did about it, in `language`.
  public func describeFix(_ language: AppLanguage) -> String {
    var key = "home.fixed.\(kind.rawValue)"
    if kind == .unreadableCredentials && detail.isEmpty { key += ".unknown" }
    return LocalStoreStrings.text(key, language, ["path": path, "detail": detail])
  }
}

/// Looks at the data directory around the database: leftovers of killed runs, modes looser
/// than msa's own (0700 for folders, 0600 for files), passwords of instances that are gone.
public enum HomeInspection {
  /// Everything found in `directory`; `instanceIDs` (when the database could be read) are
  /// the registered instances, to find orphaned passwords.
  public static func findings(
    in directory: URL, credentials: (any CredentialStore)?, instanceIDs: Set<String>?
  ) -> [HomeFinding] {
    var found: [HomeFinding] = []
    for folder in [directory, directory.appendingPathComponent("exports")] {
      found += leftovers(in: folder)
    }
    // A file msa may not write is named as such; its mode, another user's to change, is not
    // offered for --fix as a loose one.
    let blocked = unwritable(in: directory)
    found += looseModes(in: directory).filter { loose in !blocked.contains { $0.path == loose.path }
    }
    found += blocked
    found += credentialsProblems(in: directory, credentials: credentials)
    if let credentials, let instanceIDs,
      let stored = try? credentials.instanceIDsWithPasswords()
    {
      for id in stored where !instanceIDs.contains(id) {
        found.append(HomeFinding(kind: .orphanPassword, path: id, detail: ""))
      }
    }
    return found
  }

  /// Repairs what can be repaired: removes leftovers, tightens modes, forgets orphaned
  /// passwords, keeps an unreadable credentials file aside (`instanceNames`, id → name, name
  /// the instances whose passwords it held; `now` stamps the name it is kept under). Returns
  /// what was fixed; a failure to fix one is left in the next check.
  public static func fix(
    _ findings: [HomeFinding], credentials: (any CredentialStore)?,
    instanceNames: [String: String] = [:], now: Date? = nil
  ) -> [HomeFinding] {
    var fixed: [HomeFinding] = []
    for finding in findings {
      switch finding.kind {
      case .unreadableCredentials:
        guard let store = credentials as? FileCredentialStore else { continue }
        let stamp = now.map { "." + SchemaMigrator.timestamp($0) } ?? ""
        let aside = AtomicFile.unusedName(
          store.fileURL.deletingLastPathComponent().appendingPathComponent(
            "credentials.unreadable\(stamp).json"))
        guard let bytes = try? store.setAside(to: aside) else { continue }
        // The instances whose ids the kept file still holds had a password there.
        let text = String(decoding: bytes, as: UTF8.self)
        let names = instanceNames.filter { text.contains("\"\($0.key)\"") }.values.sorted()
        fixed.append(
          HomeFinding(
            kind: .unreadableCredentials, path: aside.path, detail: names.joined(separator: ", ")))
      case .credentialsMode:
        guard let file = FileAccess.ownFile(finding.path) else { continue }
        if chmod(file, DataDirectory.fileMode) == 0 { fixed.append(finding) }
      case .leftover:
        for suffix in TemporaryFiles.companions { unlink(finding.path + suffix) }
        if !FileManager.default.fileExists(atPath: finding.path) { fixed.append(finding) }
      case .looseMode:
        var info = stat()
        guard lstat(finding.path, &info) == 0 else { continue }
        let mode: mode_t =
          info.st_mode & S_IFMT == S_IFDIR ? DataDirectory.directoryMode : DataDirectory.fileMode
        if chmod(finding.path, mode) == 0 { fixed.append(finding) }
      case .orphanPassword:
        if (try? credentials?.removePassword(for: finding.path)) != nil { fixed.append(finding) }
      case .unwritable:
        // Only a file of this user's own can be given its mode back; another user's is left
        // to its owner (its message says how), and never deleted: a -wal holds data.
        guard let file = FileAccess.unwritable(finding.path), file.isOwn else { continue }
        if chmod(finding.path, DataDirectory.fileMode) == 0,
          FileAccess.unwritable(finding.path) == nil
        {
          fixed.append(finding)
        }
      case .inUse:
        continue
      }
    }
    return fixed
  }

  /// msa's temporary files in `folder`: those of dead processes are leftovers, those of
  /// live ones in use. Older versions' names (`.restore-…`, `.….partial`) count too.
  static func leftovers(in folder: URL) -> [HomeFinding] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    var found: [HomeFinding] = []
    let all = Set(names)
    for name in names.sorted() {
      // SQLite's journal of a temporary file goes with it.
      if let companion = ["-journal", "-wal", "-shm"].first(where: { name.hasSuffix($0) }),
        all.contains(String(name.dropLast(companion.count)))
      {
        continue
      }
      let path = folder.appendingPathComponent(name).path
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
      let bytes = String(info.st_size)
      if AtomicFile.isTemporaryName(name) {
        if let pid = AtomicFile.creator(ofTemporaryName: name), pid != getpid(),
          kill(pid, 0) == 0 || errno == EPERM
        {
          found.append(HomeFinding(kind: .inUse, path: path, detail: bytes))
        } else if AtomicFile.creator(ofTemporaryName: name) != getpid() {
          found.append(HomeFinding(kind: .leftover, path: path, detail: bytes))
        }
      } else if isLegacyLeftover(name) {
        found.append(HomeFinding(kind: .leftover, path: path, detail: bytes))
      }
    }
    return found
  }

  private static func isLegacyLeftover(_ name: String) -> Bool {
    guard name.hasPrefix(".") else { return false }
    if name.hasPrefix(".restore-") && name.hasSuffix(".sqlite") { return true }
    return [".partial", ".backup", ".tmp"].contains { name.hasSuffix($0) }
  }

  /// `credentials.json` with a mode other than 0600, or that cannot be read as a credentials
  /// file.
  static func credentialsProblems(in directory: URL, credentials: (any CredentialStore)?)
    -> [HomeFinding]
  {
    let path = directory.appendingPathComponent(FileCredentialStore.fileName).path
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return [] }
    var found: [HomeFinding] = []
    let mode = Int(info.st_mode) & 0o777
    if mode != Int(DataDirectory.fileMode) {
      found.append(
        HomeFinding(kind: .credentialsMode, path: path, detail: "0" + String(mode, radix: 8)))
    }
    let store = credentials as? FileCredentialStore ?? FileCredentialStore(directory: directory)
    switch store.problem() {
    case .malformed(_, let detail)?:
      found.append(HomeFinding(kind: .unreadableCredentials, path: path, detail: detail))
    case .unreadable(_, let reason)?:
      found.append(HomeFinding(kind: .unreadableCredentials, path: path, detail: reason))
    default: break
    }
    return found
  }

  /// The files msa must write in `directory` that this user may not write.
  static func unwritable(in directory: URL) -> [HomeFinding] {
    let database = directory.appendingPathComponent(Store.databaseFileName).path
    let names = [
      database, database + "-wal", database + "-shm",
      directory.appendingPathComponent(FileCredentialStore.fileName).path,
    ]
    return names.compactMap(FileAccess.unwritable).map {
      HomeFinding(kind: .unwritable, path: $0.path, detail: "\($0.mode), \($0.owner)")
    }
  }

  /// The data directory, its files and the exports folder with modes wider than msa's.
  static func looseModes(in directory: URL) -> [HomeFinding] {
    var found: [HomeFinding] = []
    func check(_ path: String) {
      var info = stat()
      guard lstat(path, &info) == 0 else { return }
      let type = info.st_mode & S_IFMT
      guard type == S_IFREG || type == S_IFDIR else { return }
      let mode = Int(info.st_mode) & 0o777
      guard mode & 0o077 != 0 else { return }
      found.append(
        HomeFinding(kind: .looseMode, path: path, detail: "0" + String(mode, radix: 8)))
    }
    check(directory.path)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    // Leftovers are reported (and removed) as such.
    // credentials.json's mode is its own finding (any mode but 0600).
    for name in names.sorted()
    where !AtomicFile.isTemporaryName(name) && !isLegacyLeftover(name)
      && name != FileCredentialStore.fileName
    {
      let path = directory.appendingPathComponent(name).path
      check(path)
      if name == "exports" {
        let exports = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for export in exports.sorted() where !AtomicFile.isTemporaryName(export) {
          check(path + "/" + export)
        }
      }
    }
    return found
  }
}
