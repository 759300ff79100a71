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

/// A backup restored on the device while its read goes on over several syncs (the ceiling,
/// issue 29 point 5 with issue 36 point 2): the rows that came back under new ids are folded
/// into the messages they were once the read reaches the device's oldest row.
@Suite("Restore across a read split by the ceiling", .serialized)
struct SplitRestoreTests {
  @Test("a restore read over three syncs of a low ceiling leaves the archive as the device")
  func restoreReadOverSeveralSyncs() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 60, seed: 21)],
      devicesOnTestClock: true)
    let device = harness.devices[0]
    _ = try await BoundedSyncTests.sync(harness, ["--page-size", "10"])
    let before = try harness.all()
    #expect(before.count == 60)
    harness.clock.advance(by: 60)
    device.restoreBackup(replacing: true)
    #expect(device.messages().allSatisfy { $0.id > 60 })
    var stopped = 0
    for _ in 0..<6 {
      harness.clock.advance(by: 60)
      let (_, rows) = try await BoundedSyncTests.sync(
        harness, ["--page-size", "10", "--max-per-device", "25"])
      if rows["A"]?["stopped"] != nil { stopped += 1 }
    }
    #expect(stopped >= 2, "the read was not split: \(stopped) stop(s)")
    let after = try harness.all()
    #expect(after.count == 60)
    #expect(Set(after.map(\.id)) == Set(before.map(\.id)))
    #expect(try BoundedSyncTests.archived(harness, "A") == BoundedSyncTests.onDevice(device))
    await harness.stop()
  }

  @Test("the ids a read has seen are kept as few ranges, and a damaged range is refused")
  func seenRanges() throws {
    let ranges = try #require(SyncResume.ranges(adding: [5, 1, 2, 3, 9, 10], to: [[11, 20]]))
    #expect(ranges == [[1, 3], [5, 5], [9, 20]])
    #expect(SyncResume.ids(in: ranges)?.count == 16)
    #expect(SyncResume.ids(in: [[0, Int64.max]]) == nil)
    #expect(SyncResume.ids(in: [[Int64.min, Int64.max]]) == nil)
    #expect(SyncResume.ids(in: [[3, 1], [7]]) == [])
    let scattered = Set((0..<(SyncResume.seenRangeLimit + 1)).map { Int64($0) * 2 })
    #expect(SyncResume.ranges(adding: scattered, to: []) == nil)
  }
}
