import Essentials
import Foundation
import SimAdminSimulator
import Testing

/// The `[i/N]` lines a command writes to stderr while it works through several instances say
/// what happened, in the chosen language, with every placeholder filled: `fleet test` (status
/// and reason), `messages sync`, `messages delete` (how many, or why not), `fleet remove`
/// (removed or kept, with the Hub release).
@Suite(.serialized) struct ProgressLineTests {
  static func lines(_ run: Run) -> [String] {
    run.error.split(separator: "\n").map(String.init).filter { $0.hasPrefix("[") }
  }

  @Test(arguments: [
    (
      "en",
      [
        "Up: Online", "Down: Offline · connection refused", "Up: 0 new", "Down: failed: ",
        "Up: 3 messages deleted", "Down: 2 messages deleted",
        "[1/2] Down: removed (Hub: Hub binding unreadable: ",
        "[2/2] Up: removed (Hub: ",
      ]
    ),
    (
      "zh-Hans",
      [
        "Up：在线", "Down：离线 · 连接被拒绝", "Up：新增 0 条", "Down：失败：", "Up：已删除 3 条",
        "Down：已删除 2 条", "[1/2] Down：已删除（Hub：无法读取 Hub 绑定：",
        "[2/2] Up：已删除（Hub：",
      ]
    ),
  ])
  func progressLinesSayWhatHappened(language: String, expected: [String]) async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "Up", smsCount: 3), DeviceProfile(name: "Down", smsCount: 2),
    ])
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-progress-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    for device in fleet.devices {
      let add = try await JSONSchemaTests.run(
        ["fleet", "add", "--name", device.profile.name, "--url", device.origin.absoluteString],
        home: home)
      #expect(add.status == 0, "\(add.error)")
    }
    // Both synced while up; then Down stops answering.
    #expect(try await JSONSchemaTests.run(["messages", "sync"], home: home).status == 0)
    fleet.devices[1].setFaults([FaultRule(.down)])
    var all: [String] = []
    for line in [
      ["fleet", "test", "--all"], ["messages", "sync"],
      ["messages", "delete", "--all", "--instance", "Up", "--scope", "local", "--yes"],
      ["messages", "delete", "--all", "--instance", "Down", "--scope", "local", "--yes"],
      ["fleet", "remove", "Down", "Up", "--yes", "--force"],
    ] {
      let run = try await JSONSchemaTests.run(line + ["--lang", language], home: home)
      all += Self.lines(run)
    }
    await fleet.stop()
    for text in expected {
      #expect(all.contains { $0.contains(text) }, "\(text) not in \(all)")
    }
    #expect(all.count >= 7, "\(all)")
    #expect(!all.contains { $0.contains("{") || $0.contains("}") }, "\(all)")
    if language == "zh-Hans" {
      for english in ["Online", "Offline", "removed", "deleted", "new"] {
        #expect(!all.contains { $0.contains(english) }, "\(english) in \(all)")
      }
    }
  }
}
