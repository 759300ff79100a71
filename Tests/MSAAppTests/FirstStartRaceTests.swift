import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 29 point 10: twenty `msa fleet add … --password-stdin` started at once on a new data
/// directory, each its own process (the real `msa` executable). Every one must succeed, every
/// instance must keep its password, and no safety copy may be left behind. Before the
/// migration took the write lock, most failed with "table … already exists" and one or two
/// passwords survived.
@Suite struct FirstStartRaceTests {
  @Test func twentyConcurrentAddsOnANewHomeAllKeepTheirPasswords() throws {
    let msa = try ArchiveKillTests.executable()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-first-start-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let home = folder.appendingPathComponent("home")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // Every process waits on a gate (a FIFO each opens for reading) and starts msa when the
    // test writes a line for it, so the twenty first starts really overlap.
    let gate = folder.appendingPathComponent("gate")
    #expect(mkfifo(gate.path, 0o600) == 0)
    var running: [(Process, Pipe)] = []
    for index in 1...20 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = [
        "-c", #"read go < "$0"; exec "$@""#, gate.path, msa.path,
        "--home", home.path, "fleet", "add", "--name", "dev\(index)",
        "--url", "http://127.0.0.1:\(20_000 + index)", "--password-stdin",
      ]
      process.environment = ["LANG": "en_US.UTF-8", "NO_COLOR": "1"]
      let input = Pipe()
      let errors = Pipe()
      process.standardInput = input
      process.standardOutput = FileHandle.nullDevice
      process.standardError = errors
      try process.run()
      input.fileHandleForWriting.write(Data("secret-\(index)\n".utf8))
      try input.fileHandleForWriting.close()
      running.append((process, errors))
    }
    // Opening the gate for writing waits for the readers; then one line each.
    Thread.sleep(forTimeInterval: 0.3)
    let opener = try FileHandle(forWritingTo: gate)
    opener.write(Data(String(repeating: "go\n", count: 20).utf8))
    try opener.close()
    var failures: [String] = []
    for (process, errors) in running {
      let said = errors.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      if process.terminationStatus != 0 {
        failures.append(
          "exit \(process.terminationStatus): " + String(decoding: said, as: UTF8.self))
      }
    }
    #expect(failures.isEmpty, "\(failures.count) of 20 failed; first: \(failures.first ?? "")")
    let credentials = try JSONSerialization.jsonObject(
      with: Data(contentsOf: home.appendingPathComponent("credentials.json")))
    let passwords = (credentials as? [String: Any])?["passwords"] as? [String: String] ?? [:]
    #expect(passwords.count == 20)
    #expect(Set(passwords.values) == Set((1...20).map { "secret-\($0)" }))
    let files = try FileManager.default.contentsOfDirectory(atPath: home.path)
    #expect(files.filter { $0.contains(".before-") }.isEmpty, "\(files)")
  }
}
