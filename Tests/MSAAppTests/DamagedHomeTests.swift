import Essentials
import Foundation
import LocalStore
import LocalStoreTesting
import SimAdminSimulator
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 35 in the real program: a damaged, foreign or busy home never locks a user out,
/// never has its data or another program's file written into, and never shows raw SQLite
/// text. Each case is built by hand in a fresh home, as the user's machine would have it.
@Suite struct DamagedHomeTests {
  let base: URL
  let home: URL

  init() throws {
    base = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-damaged-\(UUID().uuidString)")
    home = base.appendingPathComponent("home")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    chmod(home.path, 0o700)
  }

  var database: URL { home.appendingPathComponent("msa.sqlite") }

  func msa(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:]
  ) throws -> MSARun {
    try MSARun.run(
      ["--home", home.path] + arguments, input: input, directory: base, environment: environment)
  }

  /// Runs the sqlite3 shell on `file` (another program, as the user's machine has it).
  @discardableResult
  func sqlite(_ file: URL, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = try #require(
      ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].map(URL.init(fileURLWithPath:)).first {
        FileManager.default.isExecutableFile(atPath: $0.path)
      }, "the sqlite3 shell is needed (.ci/run installs it)")
    process.arguments = [file.path, sql]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  // MARK: - Point 1: a kill during a checkpoint

  /// Point 1: what a kill during a checkpoint leaves (the header counts every page, the file
  /// has not grown yet, the rest is in the log) is a healthy home: every command works on it,
  /// `data backup` and `data check --fix` too, and none calls it damaged or advises a
  /// restore. Before, each refused it as truncated and advised restoring an older backup.
  @Test(arguments: [
    ["fleet", "list", "--json"], ["data", "check"], ["data", "check", "--fix"],
    ["data", "backup"], ["messages", "stats"],
    ["fleet", "add", "--name", "New", "--url", "http://10.9.9.9"],
  ])
  func aHomeKilledDuringACheckpointIsHealthy(command: [String]) throws {
    let source = base.appendingPathComponent("source")
    try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
    let store = try Store.open(directory: source, modules: [], clock: AppClock.system)
    defer { store.database.close() }
    _ = try store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
    _ = try store.database.query("PRAGMA wal_autocheckpoint = 0")
    let repository = InstanceRepository(store: store)
    for index in 0..<300 {
      _ = try repository.add(
        name: "Device \(index)",
        origin: try InstanceOrigin(parsing: "http://10.0.\(index / 200).\(index % 200):3000"))
    }
    let (file, claimed) = try InterruptedCheckpoint.leave(from: source, in: home)
    #expect(Int(DatabaseFile.size(file)) < claimed, "the state under test")

    let backup = base.appendingPathComponent("backup.sqlite")
    let run = try msa(command == ["data", "backup"] ? command + [backup.path] : command)
    #expect(run.status == 0, "\(command): \(run.stderr)")
    let said = (run.output + run.stderr).replacingOccurrences(of: base.path, with: "BASE")
    for word in ["damaged", "truncated", "restore", "Database error"] {
      #expect(!said.contains(word), "\(command): \(said)")
    }
    if command == ["fleet", "list", "--json"] {
      #expect(run.output.contains("Device 299"), "every instance listed")
    }
    if command == ["data", "backup"] {
      #expect(
        try sqlite(backup, "PRAGMA quick_check; SELECT count(*) FROM instances;") == "ok\n300")
    }
    #expect(
      try sqlite(file, "PRAGMA quick_check; SELECT count(*) FROM instances;").hasPrefix("ok\n30"))
  }

  /// Point 2: another program's SQLite file at `msa.sqlite` is refused by every command,
  /// named, and left byte for byte; `data restore` refuses one with the same check.
  @Test func anotherProgramsDatabaseIsNeverWrittenInto() throws {
    try sqlite(
      database,
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('keep');"
    )
    let before = try Data(contentsOf: database)
    for command in [
      ["fleet", "list"], ["fleet", "add", "--name", "A", "--url", "http://10.0.0.1"],
      ["messages", "sync"], ["data", "check"],
      ["data", "backup", base.appendingPathComponent("b.sqlite").path],
    ] {
      let run = try msa(command)
      #expect(run.status == 1, "\(command): \(run.stderr)")
      #expect(run.stderr.contains(database.path), "\(command): \(run.stderr)")
      #expect(run.stderr.contains("another program's SQLite database"), "\(command): \(run.stderr)")
      #expect(try Data(contentsOf: database) == before, "\(command) left the file as it was")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == ["msa.sqlite"])

    // The same check refuses such a file as a backup to restore.
    let other = base.appendingPathComponent("other")
    let candidate = base.appendingPathComponent("notes.sqlite")
    try FileManager.default.copyItem(at: database, to: candidate)
    let restore = try MSARun.run(
      ["--home", other.path, "data", "restore", candidate.path, "--yes"], directory: base)
    #expect(restore.status == 1)
    #expect(restore.stderr.contains("another program's SQLite file"), "\(restore.stderr)")
  }

  // MARK: - Point 3: a read-only -shm or -wal

  /// Runs msa as a user whom file modes bind: this user, or `nobody` when the tests run as
  /// root (root writes whatever the mode). The home is handed to that user first.
  func msaBoundByModes(_ arguments: [String]) throws -> MSARun {
    guard geteuid() == 0 else { return try msa(arguments) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments =
      [
        "--reuid=65534", "--regid=65534", "--clear-groups", "--",
        try ArchiveKillTests.executable().path, "--home", home.path,
      ] + arguments
    process.environment = ["LANG": "en_US.UTF-8", "NO_COLOR": "1"]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let errorData = ReadAll(errors.fileHandleForReading)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return MSARun(
      status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
      stdout: outputData, stderr: String(decoding: errorData.wait(), as: UTF8.self))
  }

  /// A home with one instance, owned by the user `msaBoundByModes` runs as, and a left-behind
  /// shared-memory file (32 KiB, as SQLite makes them) with `mode`, owned by `owner`.
  func homeWithLeftBehindSharedMemory(mode: mode_t, owner: uid_t?) throws -> URL {
    if geteuid() == 0 {
      chown(base.path, 65534, 65534)
      chown(home.path, 65534, 65534)
    }
    #expect(
      try msaBoundByModes(["fleet", "add", "--name", "Shop", "--url", "http://10.0.0.1"]).status
        == 0)
    let shm = URL(fileURLWithPath: database.path + "-shm")
    try Data(count: 32_768).write(to: shm)
    if geteuid() == 0 { chown(shm.path, owner ?? 65534, owner ?? 65534) }
    chmod(shm.path, mode)
    return shm
  }

  /// Point 3: a read-only `-shm` of this user's own is named with its mode by `data check`
  /// (exit 1), repaired by `--fix`, and meanwhile writes are refused in words, reads work.
  @Test func aReadOnlySharedMemoryFileIsNamedAndFixed() throws {
    let shm = try homeWithLeftBehindSharedMemory(mode: 0o444, owner: nil)
    let add = try msaBoundByModes(["fleet", "add", "--name", "Two", "--url", "http://10.0.0.2"])
    #expect(add.status == 1)
    #expect(add.stderr.contains(shm.path) && add.stderr.contains("0444"), "\(add.stderr)")
    #expect(!add.stderr.contains("Database error"), "no raw SQLite text: \(add.stderr)")
    #expect(try msaBoundByModes(["fleet", "list"]).status == 0, "reading works")

    let check = try msaBoundByModes(["data", "check", "--width", "400"])
    #expect(check.status == 1, "\(check.output)")
    #expect(check.output.contains(shm.path) && check.output.contains("0444"), "\(check.output)")
    let fix = try msaBoundByModes(["data", "check", "--fix", "--width", "400"])
    #expect(fix.status == 0, "\(fix.output)")
    #expect(fix.output.contains("Made \(shm.path) writable"), "\(fix.output)")
    let again = try msaBoundByModes(["fleet", "add", "--name", "Two", "--url", "http://10.0.0.2"])
    #expect(again.status == 0, "\(again.stderr)")
  }

  /// Point 3 with another user's file: named with its owner, never deleted or claimed by
  /// `--fix`, and what to do is said.
  @Test(.enabled(if: geteuid() == 0, "making another user's file needs root"))
  func anotherUsersSharedMemoryFileIsNamedWithItsOwner() throws {
    let shm = try homeWithLeftBehindSharedMemory(mode: 0o644, owner: 0)
    let add = try msaBoundByModes(["fleet", "add", "--name", "Two", "--url", "http://10.0.0.2"])
    #expect(add.status == 1)
    #expect(add.stderr.contains("owner root") && add.stderr.contains("sudo chown"), "\(add.stderr)")
    let fix = try msaBoundByModes(["data", "check", "--fix", "--width", "400"])
    #expect(fix.status == 1, "not repaired: \(fix.output)")
    #expect(fix.output.contains(shm.path) && fix.output.contains("root"), "\(fix.output)")
    #expect(!fix.output.contains("sets it to 0600"), "not offered as a loose mode")
    #expect(FileManager.default.fileExists(atPath: shm.path), "never deleted")
  }

  // MARK: - Point 4: a malformed page

  /// Point 4: every command that meets a malformed page says so once, naming the file and
  /// the fix, exits 1 and leaves nothing half-written (an export's file is not made).
  @Test func aMalformedPageIsSaidOnceByEveryCommandThatMeetsIt() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "A", smsCount: 600, seed: 21),
      DeviceProfile(name: "B", smsCount: 600, seed: 22),
    ])
    defer { Task { await fleet.stop() } }
    for (name, device) in zip(["A", "B"], fleet.devices) {
      #expect(
        try msa(["fleet", "add", "--name", name, "--url", device.origin.absoluteString]).status == 0
      )
    }
    #expect(try msa(["messages", "sync"]).status == 0)
    // The messages table's root and the device-id index's: every listing and every sync reads
    // them.
    let roots = try sqlite(
      database,
      "PRAGMA wal_checkpoint(TRUNCATE); SELECT rootpage FROM sqlite_master WHERE name IN ('messages', 'messages_by_upstream');"
    ).split(separator: "\n").filter { !$0.contains("|") }.compactMap { Int($0) }
    #expect(roots.count == 2, "\(roots)")
    let handle = try FileHandle(forUpdating: database)
    for root in roots {
      try handle.seek(toOffset: UInt64((root - 1) * 4096))
      try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
    }
    try handle.close()
    let export = base.appendingPathComponent("export.csv")
    for command in [
      ["messages", "stats"], ["messages", "sync"], ["messages", "list"],
      ["messages", "export", "--format", "csv", "--output", export.path],
      ["code", "--since", "30d"], ["messages", "conversations"],
    ] {
      let run = try msa(command)
      #expect(run.status == 1, "\(command): \(run.stderr)")
      #expect(
        run.stderr.components(separatedBy: database.path).count == 2,
        "\(command): said once: \(run.stderr)")
      #expect(run.stderr.contains("msa data check") && run.stderr.contains("msa data restore"))
      #expect(!run.stderr.contains("Database error") && !run.stderr.contains("SELECT"))
      #expect(run.output.isEmpty, "\(command): nothing half-done on stdout: \(run.output)")
    }
    #expect(!FileManager.default.fileExists(atPath: export.path), "no half-written export")
    let check = try msa(["data", "check"])
    #expect(check.status == 1)
  }

  // MARK: - Point 6: credentials.json

  /// Point 6: `data check` reads `credentials.json`: cut short, it is a finding naming the
  /// file (exit 1); `--fix` keeps it aside, byte for byte, and names the instance whose
  /// password it held; a mode other than 0600 is a finding `--fix` sets right.
  @Test func dataCheckReadsTheCredentialsFile() throws {
    let credentials = home.appendingPathComponent("credentials.json")
    #expect(
      try msa(
        ["fleet", "add", "--name", "Shop", "--url", "http://10.0.0.1", "--password-stdin"],
        input: Data("pw-one\n".utf8)
      ).status == 0)
    let whole = try Data(contentsOf: credentials)
    let cut = whole.prefix(whole.count - 12)
    try cut.write(to: credentials)
    let check = try msa(["data", "check", "--width", "400"])
    #expect(check.status == 1, "\(check.output)")
    #expect(check.output.contains(credentials.path) && check.output.contains("cannot be read"))
    let fix = try msa(["data", "check", "--fix", "--width", "400"])
    #expect(fix.status == 0, "\(fix.output)")
    #expect(fix.output.contains("It held passwords for Shop"), "\(fix.output)")
    let kept = try FileManager.default.contentsOfDirectory(atPath: home.path)
      .filter { $0.hasPrefix("credentials.unreadable.") }
    #expect(kept.count == 1)
    #expect(try Data(contentsOf: home.appendingPathComponent(kept[0])) == cut)

    #expect(
      try msa(["fleet", "edit", "Shop", "--password-stdin"], input: Data("pw-new\n".utf8)).status
        == 0)
    chmod(credentials.path, 0o644)
    let loose = try msa(["data", "check", "--width", "400"])
    #expect(loose.status == 1)
    #expect(loose.output.contains("0644") && loose.output.contains("0600"), "\(loose.output)")
    #expect(try msa(["data", "check", "--fix"]).status == 0)
    #expect(try msa(["data", "check"]).status == 0)
  }

  // MARK: - Point 5: a full disk

  /// Point 5: a disk that fills (here the file size limit, `ulimit -f`) gives one clear
  /// message naming the data directory, exit 1, nothing half-written, and the next command
  /// carries on once there is room.
  @Test func aFullDiskIsSaidClearlyAndTheNextCommandWorks() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "A", smsCount: 5_000, seed: 31)
    ])
    defer { Task { await fleet.stop() } }
    let origin = try #require(fleet.devices.first?.origin.absoluteString)
    #expect(try msa(["fleet", "add", "--name", "A", "--url", origin]).status == 0)
    let full = try MSARun.run(
      ["--home", home.path, "messages", "sync"], directory: base, fileSizeLimitKiB: 1_000)
    #expect(!full.signalled, "not ended by SIGXFSZ")
    #expect(full.status == 1, "\(full.stderr)")
    #expect(full.stderr.contains("data directory \(home.path) is full"), "\(full.stderr)")
    #expect(full.stderr.components(separatedBy: home.path).count == 2, "said once")
    #expect(!full.stderr.contains("Database error") && !full.stderr.contains("disk I/O"))

    let check = try msa(["data", "check"])
    #expect(check.status == 0, "nothing half-written: \(check.output)")
    let again = try msa(["messages", "sync"])
    #expect(again.status == 0, "\(again.stderr)")
    let stats = try msa(["messages", "stats", "--json"])
    #expect(stats.output.contains("\"total\" : 5000"), "\(stats.output)")

    // An export that meets the limit leaves nothing behind.
    let export = base.appendingPathComponent("all.csv")
    let cut = try MSARun.run(
      ["--home", home.path, "messages", "export", "--format", "csv", "-o", export.path],
      directory: base, fileSizeLimitKiB: 64)
    #expect(cut.status == 1)
    #expect(cut.stderr.contains(export.path) && cut.stderr.contains("Nothing was written"))
    #expect(!FileManager.default.fileExists(atPath: export.path))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: base.path).allSatisfy {
        !$0.hasPrefix(".msa-tmp-")
      }, "no temporary file left")
  }
}
