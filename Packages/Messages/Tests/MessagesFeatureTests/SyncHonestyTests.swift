import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import MessagesFeature
import SimAdminSimulator
import Testing

/// What a sync says about a device whose history it never reads through (issue 36 point 1):
/// a first sync is called first only once; the words count what was new, and say what stays
/// unread.
@Suite("Sync honesty", .serialized)
struct SyncHonestyTests {
  @Test("a device that repeats its pages: first sync once, then the last sync unfinished")
  func repeatingDeviceIsNotAFirstSyncForEver() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "Loop", smsCount: 50, seed: 3, smsCases: [.ignoresOffset]),
        DeviceProfile(name: "Down", smsCount: 5, seed: 4, faults: [FaultRule(.down)]),
      ])
    let (_, first) = try await BoundedSyncTests.sync(harness, ["--page-size", "10"])
    #expect(first["Loop"]?["deepRead"] as? String == "first")
    #expect(first["Loop"]?["inserted"] as? Int == 10)
    let reason = try #require(first["Loop"]?["failure"] as? String)
    #expect(reason.contains("10 new of the 20 rows read"), "\(reason)")
    #expect(reason.contains("older messages cannot be read"), "\(reason)")
    #expect(first["Down"]?["failure"] != nil)

    // The device answers again: nothing was archived of it, so this is its first sync.
    harness.devices[1].setFaults([])
    let (_, second) = try await BoundedSyncTests.sync(harness, ["--page-size", "10"])
    #expect(second["Down"]?["deepRead"] as? String == "first")
    #expect(second["Down"]?["completed"] as? Bool == true)
    // The repeating device's history was partly read before: not a first sync again.
    #expect(second["Loop"]?["deepRead"] as? String == "interrupted")
    let again = try #require(second["Loop"]?["failure"] as? String)
    #expect(again.contains("0 new of the 20 rows read"), "\(again)")
    let chinese = try #require(
      try await within(120) {
        await harness.outcome(
          ["messages", "sync", "--page-size", "10"], language: .simplifiedChinese)
      })
    let text = chinese.text(width: 200, language: .simplifiedChinese)
    #expect(text.contains("读取 20 条，其中新增 0 条"), "\(text)")
    await harness.stop()
  }

  @Test("counts of one are grammatical in the watch's and the index's words")
  func countsOfOne() {
    #expect(
      MessagesStrings.text("watch.ended", .english, ["count": "1"])
        == "Stopped watching; 1 new message.")
    #expect(
      MessagesStrings.text("progress.indexing", .english, ["count": "1"]) == "indexing 1 message")
    #expect(
      MessagesStrings.text("stats.indexing", .english, ["count": "2"]) == "indexing 2 messages")
  }
}
