import Essentials
import Foundation
import SimAdminSimulator
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 17: Ctrl-C (SIGINT) ends `msa code --wait` and `msa messages watch` in the real
/// process — the app's own SIGINT handler hands the signal to the follow loop, which ends it
/// and says so (a second handler would silence the first on Linux: Ctrl-C did nothing).
@Suite struct FollowInterruptTests {
  struct Ended {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs `msa arguments`, sends SIGINT once it has started following, and waits for its end
  /// (nil: still running 60 s after the signal, when it is killed).
  func interrupted(_ msa: URL, _ arguments: [String]) async throws -> Ended? {
    let process = Process()
    process.executableURL = msa
    process.arguments = arguments
    process.environment = ["LANG": "en_US.UTF-8", "NO_COLOR": "1"]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    try await Task.sleep(for: .seconds(3))
    kill(process.processIdentifier, SIGINT)
    for _ in 0..<600 where process.isRunning {
      try await Task.sleep(for: .milliseconds(100))
    }
    guard !process.isRunning else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    process.waitUntilExit()
    return Ended(
      status: process.terminationStatus,
      stdout: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
      stderr: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
  }

  @Test func ctrlCEndsCodeWaitAndWatch() async throws {
    let msa = try ArchiveKillTests.executable()
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-interrupt-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "quiet", smsCount: 3, seed: 5)])
    defer { Task { await fleet.stop() } }
    let origin = try #require(fleet.devices.first?.origin.absoluteString)
    #expect(
      try ArchiveKillTests.run(
        msa, ["--home", home.path, "fleet", "add", "--name", "quiet", "--url", origin]) == nil)

    let code = try #require(
      try await interrupted(msa, ["--home", home.path, "code", "--wait", "10m"]),
      "msa code --wait kept running after Ctrl-C")
    #expect(code.status == 1)
    #expect(code.stdout.isEmpty)
    #expect(code.stderr.contains("Stopped (Ctrl-C) before a new verification code arrived."))

    let watch = try #require(
      try await interrupted(msa, ["--home", home.path, "messages", "watch", "--interval", "1s"]),
      "msa messages watch kept running after Ctrl-C")
    #expect(watch.status == 0)
    #expect(watch.stderr.contains("Stopped watching"))
    // The log center has the watch's end.
    let logs = Process()
    logs.executableURL = msa
    logs.arguments = ["--home", home.path, "logs", "--json"]
    logs.environment = ["LANG": "en_US.UTF-8"]
    let pipe = Pipe()
    logs.standardOutput = pipe
    try logs.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    logs.waitUntilExit()
    #expect(text.contains("Watch ended"))
  }
}
