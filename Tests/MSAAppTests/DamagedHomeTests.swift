import Foundation
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

  func msa(_ arguments: [String], environment: [String: String] = [:]) throws -> MSARun {
    try MSARun.run(["--home", home.path] + arguments, directory: base, environment: environment)
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
}
