import Essentials
import Foundation
import SimAdminSimulator
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 14: `msa messages sync` killed with SIGKILL at random moments, over and over, while
/// the devices get live traffic (identical pairs, late messages, bursts during the sync), then
/// synced to the end: the archive holds exactly each device's rows, multiplicity included.
/// The real `msa` executable runs in a child process against the simulator on loopback and
/// its own SQLite file.
@Suite struct ArchiveKillTests {
  /// The `msa` built next to this test bundle.
  static func executable() throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent("msa")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "msa next to the tests"])
  }

  static func start(_ msa: URL, _ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = msa
    process.arguments = arguments
    process.environment = ["LANG": "en_US.UTF-8", "NO_COLOR": "1"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Runs `msa` to its end; a failure comes back with what it said on stderr, so a test
  /// failure names the cause.
  static func run(_ msa: URL, _ arguments: [String]) throws -> String? {
    let process = Process()
    process.executableURL = msa
    process.arguments = arguments
    process.environment = ["LANG": "en_US.UTF-8", "NO_COLOR": "1"]
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let said = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus != 0 else { return nil }
    return "exit \(process.terminationStatus): " + String(decoding: said, as: UTF8.self)
  }

  /// Rows of the archive by instance name, each `direction|number|timestamp|body`, sorted.
  static func archived(_ database: URL) throws -> [String: [String]] {
    let process = Process()
    process.executableURL = try #require(
      ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].map(URL.init(fileURLWithPath:)).first {
        FileManager.default.isExecutableFile(atPath: $0.path)
      }, "the sqlite3 shell is needed (.ci/run installs it)")
    process.arguments = [
      "-json", "-readonly", database.path,
      """
      SELECT i.name AS name, m.direction || '|' || m.peer_raw || '|' || m.device_timestamp
        || '|' || m.body AS row
      FROM messages m JOIN instances i ON i.id = m.instance_id
      """,
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let rows = try JSONSerialization.jsonObject(with: data) as? [[String: String]] ?? []
    return Dictionary(grouping: rows, by: { $0["name"] ?? "" }).mapValues {
      $0.compactMap { $0["row"] }.sorted()
    }
  }

  static func rows(_ device: SimulatedDevice) -> [String] {
    device.messages().map {
      "\($0.direction)|\($0.phoneNumber)|\($0.timestamp)|\($0.content)"
    }.sorted()
  }

  @Test("SIGKILLs at random moments during syncs with live traffic lose and duplicate nothing")
  func killedSyncs() async throws {
    let msa = try Self.executable()
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-kill-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(
        name: "late", smsCount: 2_500, seed: 21, smsCases: [.identical, .late(minutes: 900)]),
      DeviceProfile(name: "burst", smsCount: 1_500, seed: 22, smsCases: [.burst(count: 2)]),
    ])
    for device in fleet.devices {
      #expect(
        try Self.run(
          msa,
          [
            "--home", home.path, "fleet", "add", "--name", device.profile.name, "--url",
            device.origin.absoluteString,
          ]) == nil)
    }
    let running = Locked(true)
    let traffic = Task.detached {
      while running.current {
        for device in fleet.devices { device.receiveLiveTraffic(count: 1) }
        try? await Task.sleep(for: .milliseconds(15))
      }
    }
    var generator = SystemRandomNumberGenerator()
    var killed = 0
    // A fast machine finishes some syncs before the kill lands; each miss halves the longest
    // wait, so enough syncs die mid-way whatever the machine's speed.
    var longestWait = 400
    for round in 0..<24 where killed < 8 {
      // Every third round a complete sync, so later rounds kill cheap and deep ones alike.
      let arguments = ["--home", home.path, "messages", "sync", "--page-size", "97"]
      if round % 3 == 2 {
        #expect(try Self.run(msa, arguments) == nil)
        continue
      }
      let process = try Self.start(msa, arguments)
      try await Task.sleep(
        for: .milliseconds(Int.random(in: 5...longestWait, using: &generator)))
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        killed += 1
      } else {
        longestWait = max(10, longestWait / 2)
      }
      process.waitUntilExit()
    }
    running.withLock { $0 = false }
    await traffic.value
    for device in fleet.devices { device.setSMSCases([]) }
    #expect(try Self.run(msa, ["--home", home.path, "messages", "sync"]) == nil)
    let archive = try Self.archived(home.appendingPathComponent("msa.sqlite"))
    for device in fleet.devices {
      let onDevice = Self.rows(device)
      let inArchive = archive[device.profile.name] ?? []
      #expect(inArchive.count == onDevice.count, "\(device.profile.name)")
      #expect(inArchive == onDevice, "\(device.profile.name)")
    }
    #expect(killed >= 4)
    await fleet.stop()
  }
}
