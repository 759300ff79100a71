import Essentials
import EssentialsTesting
import Foundation
import LocalStore
import LocalStoreTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The mode bits of `path` (without the file type).
func mode(_ path: String) -> Int {
  var info = stat()
  guard lstat(path, &info) == 0 else { return -1 }
  return Int(info.st_mode) & 0o777
}

/// Runs `body` with the process umask set to `mask`.
func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
  let previous = umask(mask)
  defer { umask(previous) }
  return try body()
}

@Suite(.serialized) struct AtomicFileTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory(prefix: "atomic")
  }

  /// Every name in the folder (temporary files included).
  func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
  }

  @Test func writesWithTheModeWhateverTheUmask() throws {
    let url = directory.file("out.txt")
    try withUmask(0o022) { try AtomicFile.write(Data("hello".utf8), to: url, existing: .refuse) }
    #expect(try String(contentsOf: url, encoding: .utf8) == "hello")
    #expect(mode(url.path) == 0o600)
    #expect(try names() == ["out.txt"])
  }

  @Test func anExistingFileIsLeftByteIdenticalWithoutReplace() throws {
    let url = directory.file("keep.csv")
    let original = Data("precious\u{0}bytes".utf8)
    try original.write(to: url)
    #expect(throws: AtomicFile.Failure.destinationExists(path: url.path)) {
      try AtomicFile.write(Data("new".utf8), to: url, existing: .refuse)
    }
    #expect(try Data(contentsOf: url) == original)
    #expect(try names() == ["keep.csv"], "no temporary file is left behind")
  }

  @Test func replaceReplacesOnlyARegularFile() throws {
    let url = directory.file("old.txt")
    try Data("old".utf8).write(to: url)
    try AtomicFile.write(Data("new".utf8), to: url, existing: .replace)
    #expect(try String(contentsOf: url, encoding: .utf8) == "new")

    let folder = directory.file("folder")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    #expect(throws: AtomicFile.Failure.notARegularFile(path: folder.path, kind: "directory")) {
      try AtomicFile.write(Data("x".utf8), to: folder, existing: .replace)
    }

    let target = directory.file("target.txt")
    try Data("target".utf8).write(to: target)
    let link = directory.file("link.txt")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    #expect(throws: AtomicFile.Failure.notARegularFile(path: link.path, kind: "symlink")) {
      try AtomicFile.write(Data("x".utf8), to: link, existing: .replace)
    }
    #expect(try String(contentsOf: target, encoding: .utf8) == "target")

    let device = URL(fileURLWithPath: "/dev/null")
    #expect(throws: AtomicFile.Failure.notARegularFile(path: "/dev/null", kind: "device")) {
      try AtomicFile.write(Data("x".utf8), to: device, existing: .replace)
    }
  }

  @Test func numberedNamesNeverCollide() throws {
    let url = directory.file("messages-2026.csv")
    var written: [String] = []
    for index in 0..<4 {
      written.append(
        try AtomicFile.write(Data("\(index)".utf8), to: url, existing: .number).lastPathComponent)
    }
    #expect(
      written == [
        "messages-2026.csv", "messages-2026-2.csv", "messages-2026-3.csv", "messages-2026-4.csv",
      ])
    for (index, name) in written.enumerated() {
      #expect(try String(contentsOf: directory.file(name), encoding: .utf8) == "\(index)")
    }
  }

  @Test func aFailingWriterLeavesNothing() throws {
    struct Stop: Error {}
    let url = directory.file("partial.jsonl")
    #expect(throws: Stop.self) {
      try AtomicFile.write(to: url, existing: .refuse) { sink in
        try sink.write("first line\n")
        #expect(TemporaryFiles.count >= 1)
        throw Stop()
      }
    }
    #expect(try names().isEmpty)
  }

  @Test func temporaryNamesCarryThePrefixAndTheirCreator() throws {
    let temporary = try AtomicFile.temporaryFile(beside: directory.file("x.sqlite"))
    defer { TemporaryFiles.remove(temporary.path) }
    let name = temporary.lastPathComponent
    #expect(name.hasPrefix(AtomicFile.temporaryPrefix))
    #expect(AtomicFile.creator(ofTemporaryName: name) == getpid())
    #expect(mode(temporary.path) == 0o600)
  }
}

@Suite struct HomeSafetyTests {
  let clock = TestClock()

  @Test func aNewHomeIsPrivateWhateverTheUmask() throws {
    let parent = try TemporaryDirectory(prefix: "home")
    let home = parent.file("nested/msa")
    let store = try withUmask(0o022) {
      try Store.open(directory: home, modules: [], clock: clock.clock)
    }
    _ = try InstanceRepository(store: store).add(
      name: "Shop", origin: try InstanceOrigin(parsing: "http://10.0.0.1:3000"))
    #expect(mode(home.path) == 0o700)
    for suffix in ["", "-wal", "-shm"] {
      #expect(mode(store.databaseURL.path + suffix) == 0o600, "msa.sqlite\(suffix)")
    }
    try withUmask(0o022) { try store.credentials.setPassword("pw", for: "abc") }
    #expect(mode(home.appendingPathComponent("credentials.json").path) == 0o600)
    #expect(mode(home.appendingPathComponent("credentials.json.lock").path) == 0o600)
    let copy = try withUmask(0o022) {
      try store.database.backup(to: parent.file("copy.sqlite"))
    }
    #expect(mode(copy.path) == 0o600)
  }

  @Test func looseModesAndLeftoversAreFoundAndFixed() throws {
    let home = try TemporaryDirectory(prefix: "home")
    let store = try Store.open(directory: home.url, modules: [], clock: clock.clock)
    chmod(home.url.path, 0o755)
    chmod(store.databaseURL.path, 0o644)
    // A killed run's copy (pid 1 is never msa) and an older version's restore copy.
    let killed = home.file("\(AtomicFile.temporaryPrefix)999999-1a2b-msa.sqlite")
    try Data(repeating: 7, count: 4096).write(to: killed)
    let legacy = home.file(".restore-0000.sqlite")
    try Data(repeating: 7, count: 10).write(to: legacy)
    try store.credentials.setPassword("gone", for: "zzzzzz")

    let findings = HomeInspection.findings(
      in: home.url, credentials: store.credentials, instanceIDs: [])
    #expect(
      Set(findings.filter { $0.kind == .leftover }.map(\.path)) == [killed.path, legacy.path])
    #expect(findings.contains(HomeFinding(kind: .looseMode, path: home.url.path, detail: "0755")))
    #expect(
      findings.contains(
        HomeFinding(kind: .looseMode, path: store.databaseURL.path, detail: "0644")))
    #expect(findings.contains(HomeFinding(kind: .orphanPassword, path: "zzzzzz", detail: "")))
    #expect(findings.first { $0.kind == .leftover }?.describe(.english).contains("--fix") == true)

    let fixed = HomeInspection.fix(findings, credentials: store.credentials)
    #expect(fixed.count == findings.count)
    #expect(!FileManager.default.fileExists(atPath: killed.path))
    #expect(!FileManager.default.fileExists(atPath: legacy.path))
    #expect(mode(home.url.path) == 0o700)
    #expect(mode(store.databaseURL.path) == 0o600)
    #expect(try store.credentials.password(for: "zzzzzz") == nil)
    #expect(
      HomeInspection.findings(in: home.url, credentials: store.credentials, instanceIDs: [])
        .isEmpty)
  }

  @Test func aLiveProcessTemporaryFileIsInUseNotALeftover() throws {
    let home = try TemporaryDirectory(prefix: "home")
    // pid 1 is alive in every container and machine.
    let live = home.file("\(AtomicFile.temporaryPrefix)1-abcd-msa.sqlite")
    try Data("x".utf8).write(to: live)
    chmod(home.url.path, 0o700)
    chmod(live.path, 0o600)
    let findings = HomeInspection.findings(in: home.url, credentials: nil, instanceIDs: nil)
    #expect(findings == [HomeFinding(kind: .inUse, path: live.path, detail: "1")])
    #expect(HomeInspection.fix(findings, credentials: nil).isEmpty)
    #expect(FileManager.default.fileExists(atPath: live.path))
  }
}

@Suite struct DamagedStoreTests {
  let clock = TestClock()

  func usedHome() throws -> (TemporaryDirectory, URL) {
    let home = try TemporaryDirectory(prefix: "damaged")
    let store = try Store.open(directory: home.url, modules: [], clock: clock.clock)
    _ = try InstanceRepository(store: store).add(
      name: "Shop", origin: try InstanceOrigin(parsing: "http://10.0.0.1:3000"))
    store.database.close()
    #expect(FileManager.default.fileExists(atPath: home.file(Store.markerFileName).path))
    return (home, store.databaseURL)
  }

  @Test func anEmptyDatabaseInAUsedHomeIsReportedNotRecreated() throws {
    let (home, database) = try usedHome()
    for suffix in ["-wal", "-shm"] { unlink(database.path + suffix) }
    try Data().write(to: database)
    #expect {
      try Store.open(directory: home.url, modules: [], clock: clock.clock)
    } throws: { error in
      guard let error = error as? StoreError, case .damaged(let path, .header(.empty), _) = error
      else { return false }
      let message = error.localizedMessage(.english)
      return path == database.path && message.contains("msa data restore BACKUP")
        && message.contains(database.path) && message.contains("empty")
    }
    #expect(DatabaseFile.size(database) == 0, "the file is left as it was")
  }

  /// A used home (its marker is there) whose database is gone is refused, not silently given
  /// a new empty archive; the message names the file, the marker and both ways out, and
  /// deleting the marker starts afresh on purpose.
  @Test func aMissingDatabaseInAUsedHomeIsReportedNotRecreated() throws {
    let (home, database) = try usedHome()
    for suffix in ["", "-wal", "-shm"] { unlink(database.path + suffix) }
    let marker = home.file(Store.markerFileName).path
    for language in [AppLanguage.english, .simplifiedChinese] {
      #expect {
        try Store.open(directory: home.url, modules: [], clock: clock.clock)
      } throws: { error in
        guard let error = error as? StoreError,
          case .damaged(let path, .header(.missing), _) = error
        else { return false }
        let message = error.localizedMessage(language)
        return path == database.path && message.contains(database.path)
          && message.contains(marker) && message.contains("msa data restore BACKUP")
      }
    }
    #expect(!FileManager.default.fileExists(atPath: database.path), "nothing was created")
    // Starting afresh on purpose: delete the marker.
    unlink(marker)
    let store = try Store.open(directory: home.url, modules: [], clock: clock.clock)
    #expect(try InstanceRepository(store: store).list().isEmpty)
    #expect(FileManager.default.fileExists(atPath: marker), "a new marker is written")
  }

  @Test func anEmptyDatabaseInAFreshHomeIsAFirstRun() throws {
    let home = try TemporaryDirectory(prefix: "fresh")
    try Data().write(to: home.file(Store.databaseFileName))
    let store = try Store.open(directory: home.url, modules: [], clock: clock.clock)
    #expect(!store.isReadOnly)
  }

  @Test func garbageAndTruncatedFilesNameTheProblemAndTheFix() throws {
    let (home, database) = try usedHome()
    for suffix in ["-wal", "-shm"] { unlink(database.path + suffix) }
    let whole = try Data(contentsOf: database)
    try whole.prefix(whole.count / 2 + 100).write(to: database)
    #expect {
      try Store.open(directory: home.url, modules: [], clock: clock.clock)
    } throws: { error in
      guard case .damaged(_, .header(.truncated), _)? = error as? StoreError else { return false }
      return true
    }
    try Data("this is not a database at all, not even close to one".utf8).write(to: database)
    #expect {
      try Store.open(directory: home.url, modules: [], clock: clock.clock)
    } throws: { error in
      guard let error = error as? StoreError, case .damaged(_, .header(.notSQLite), _) = error
      else { return false }
      return error.localizedMessage(.simplifiedChinese).contains("msa data restore BACKUP")
    }
  }

  @Test func pageCorruptionIsFoundByTheQuickCheck() throws {
    let (home, database) = try usedHome()
    let store = try Store.open(directory: home.url, modules: [], clock: clock.clock)
    for index in 0..<300 {
      _ = try InstanceRepository(store: store).add(
        name: "Device \(index)",
        origin: try InstanceOrigin(parsing: "http://10.0.1.\(index % 250):\(3000 + index)"))
    }
    _ = try store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
    #expect(store.database.quickCheck().isEmpty)
    store.database.close()
    // Scribble over a page in the middle of the file.
    let handle = try FileHandle(forUpdating: database)
    try handle.seek(toOffset: UInt64(DatabaseFile.size(database) / 2))
    try handle.write(contentsOf: Data(repeating: 0xA5, count: 3000))
    try handle.close()
    let reopened = try SQLiteDatabase(url: database, mode: .readOnly)
    #expect(!reopened.quickCheck().isEmpty)
  }
}

@Suite struct CredentialLockTests {
  @Test func concurrentWritersInSeparateStoresKeepEveryPassword() async throws {
    let home = try TemporaryDirectory(prefix: "creds")
    let count = 40
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<count {
        group.addTask {
          // A store of its own per writer: the same as separate processes, one file lock.
          let store = FileCredentialStore(directory: home.url)
          try? store.setPassword("pw-\(index)", for: "id\(index)")
        }
      }
    }
    let store = FileCredentialStore(directory: home.url)
    #expect(try store.instanceIDsWithPasswords().count == count)
    for index in 0..<count {
      #expect(try store.password(for: "id\(index)") == "pw-\(index)")
    }
  }
}
