import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import MessagesFeature
import SimAdminClient
import SimAdminSimulator
import Testing

/// `body`'s value, or nil when it is still running after `seconds` (it is cancelled then): a
/// test of something that must end fails instead of hanging.
func within<T: Sendable>(
  _ seconds: Double, _ body: @escaping @Sendable () async throws -> T
) async throws -> T? {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try? await Task.sleep(for: .seconds(seconds))
      return nil
    }
    let first = try await group.next() ?? nil
    group.cancelAll()
    return first
  }
}

/// A device's answers are untrusted (PRODUCT §3, issue 36 points 1–5 and 9): a read ends when
/// a page brings nothing new, stops at a per-device ceiling and reads on next time, halves its
/// page size when a page is too large, and counts the rows it cannot read. Each misbehaviour
/// is the simulator's (``SMSCase``), over real HTTP.
@Suite("Bounded sync", .serialized)
struct BoundedSyncTests {
  /// `messages sync ARGUMENTS` and its `--json` rows by instance name; it must end within
  /// `seconds`.
  static func sync(
    _ harness: FeatureHarness, _ arguments: [String] = [], within seconds: Double = 120
  ) async throws -> (outcome: FeatureHarness.Outcome, rows: [String: [String: Any]]) {
    let ran = try await within(seconds) {
      await harness.outcome(["messages", "sync"] + arguments)
    }
    let outcome = try #require(ran, "messages sync did not end within \(seconds) s")
    let result = try #require(outcome.result, "\(String(describing: outcome.error))")
    let data = try result.jsonData()
    var rows: [String: [String: Any]] = [:]
    for row in data["instances"] as? [[String: Any]] ?? [] {
      rows[row["instanceName"] as? String ?? ""] = row
    }
    return (outcome, rows)
  }

  /// The archived messages of `instance` as comparable strings, and the device's own.
  static func archived(_ harness: FeatureHarness, _ instance: String) throws -> [String] {
    try harness.all().filter { $0.instanceName == instance }.map(messageIdentity).sorted()
  }

  static func onDevice(_ device: SimulatedDevice, skipping: (SimulatedSMS) -> Bool = { _ in false })
    -> [String]
  {
    device.messages().filter { !skipping($0) }.map(messageIdentity).sorted()
  }

  // MARK: - 1. Pagination that never ends

  @Test("a device that ignores offset: its read ends, its row says the device repeats pages")
  func ignoringOffset() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "Loop", smsCount: 50, seed: 3, smsCases: [.ignoresOffset]),
        DeviceProfile(name: "B", smsCount: 30, seed: 4),
        DeviceProfile(name: "C", smsCount: 25, seed: 5),
      ])
    let (outcome, rows) = try await Self.sync(harness, ["--page-size", "10"], within: 120)
    #expect(outcome.exitCode == .failure)
    let loop = try #require(rows["Loop"])
    #expect(loop["completed"] as? Bool == false)
    #expect((loop["reason"] as? [String: Any])?["code"] as? String == "repeatsPages")
    #expect((loop["pages"] as? Int ?? 99) <= 3)
    for (name, count) in [("B", 30), ("C", 25)] {
      #expect(rows[name]?["completed"] as? Bool == true)
      #expect(rows[name]?["inserted"] as? Int == count)
      #expect(rows[name]?["reason"] == nil)
    }
    #expect(try Self.archived(harness, "Loop").count == 10)
    // In words, on the device's row.
    let text = try #require(
      try await within(120) { await harness.outcome(["messages", "sync", "--page-size", "10"]) })
    #expect(text.text(width: 120).contains("repeats the same page"), "\(text.text(width: 120))")
    let chinese = try #require(
      try await within(120) {
        await harness.outcome(
          ["messages", "sync", "--page-size", "10"], language: .simplifiedChinese)
      })
    #expect(chinese.text(width: 120).contains("重复"), "\(chinese.text(width: 120))")
    await harness.stop()
  }

  @Test("a device inventing rows forever stops at the ceiling and says so; the others complete")
  func endlessRows() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "Endless", smsCount: 20, seed: 6, smsCases: [.endless]),
        DeviceProfile(name: "Fine", smsCount: 30, seed: 7),
      ])
    let (outcome, rows) = try await Self.sync(
      harness, ["--page-size", "50", "--max-per-device", "500"], within: 120)
    let endless = try #require(rows["Endless"])
    #expect(endless["read"] as? Int == 500)
    // Pages of 50 re-read 5 rows of the one before.
    #expect(endless["inserted"] as? Int == 500 - 9 * 5)
    #expect(endless["completed"] as? Bool == false)
    #expect((endless["stopped"] as? [String: Any])?["code"] as? String == "ceiling")
    #expect(endless["reason"] == nil)
    #expect(rows["Fine"]?["completed"] as? Bool == true)
    #expect(rows["Fine"]?["inserted"] as? Int == 30)
    // The ceiling is the user's setting, not a device failure.
    #expect(outcome.exitCode == .success)
    let text = try #require(
      try await within(120) {
        await harness.outcome(["messages", "sync", "--page-size", "50", "--max-per-device", "500"])
      })
    #expect(text.text(width: 120).contains("ceiling"), "\(text.text(width: 120))")
    await harness.stop()
  }

  @Test("the ceiling is checked: a bad --max-per-device is a usage error")
  func ceilingOption() async throws {
    let harness = try FeatureHarness(.messages)
    for bad in ["0", "-3", "many"] {
      let outcome = await harness.outcome(["messages", "sync", "--max-per-device", bad])
      #expect(outcome.exitCode == .usage, "\(bad)")
    }
    #expect(
      await harness.outcome(["messages", "sync", "--max-per-device", "5"]).exitCode == .success)
  }

  @Test("the console's R asks for the ceiling, the default filled in, and syncs with it")
  func consoleCeiling() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [DeviceProfile(name: "Endless", smsCount: 20, seed: 17, smsCases: [.endless])])
    for pattern in ["messages", "messages/conversations"] {
      let route = try #require(Messages.module.routes.first { $0.pattern.description == pattern })
      let action = try #require(route.actions.first { $0.key == "R" }, "\(pattern)")
      let field = try #require(action.inputs.first)
      #expect(field.option == "max-per-device")
      #expect(field.prefill.flatMap(Int.init) ?? 0 >= 200_000)
      #expect(action.arguments.starts(with: ["messages", "sync"]))
    }
    let route = try #require(Messages.module.routes.first { $0.pattern.description == "messages" })
    let action = try #require(route.actions.first { $0.key == "R" })
    let line = action.arguments + (action.inputs.first?.arguments("300") ?? [])
    let (_, rows) = try await Self.sync(harness, Array(line.dropFirst(2)))
    #expect(rows["Endless"]?["read"] as? Int == 300)
    #expect((rows["Endless"]?["stopped"] as? [String: Any])?["code"] as? String == "ceiling")
    await harness.stop()
  }

  @Test("code --wait keeps its deadline whatever a device does")
  func waitDeadline() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "Endless", smsCount: 20, seed: 8, smsCases: [.endless]),
        DeviceProfile(name: "Loop", smsCount: 1_500, seed: 9, smsCases: [.ignoresOffset]),
      ])
    let started = ContinuousClock.now
    let outcome = try #require(
      try await within(120) { await harness.outcome(["code", "--wait", "2s"]) },
      "code --wait 2s did not end")
    let took = ContinuousClock.now - started
    // Not a speed target: the old code never ended. The slack is for a loaded machine.
    #expect(took < .seconds(30), "code --wait 2s took \(took)")
    _ = outcome
    await harness.stop()
  }

  // MARK: - 2. A ceiling, and reading on where it stopped

  @Test("three syncs of 10,000 read a 25,000-message device whole, nothing twice")
  func readingOn() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "Big", smsCount: 25_000, seed: 10)])
    let device = harness.devices[0]
    var reads: [Int] = []
    var inserted = 0
    for round in 1...3 {
      let (_, rows) = try await Self.sync(harness, ["--max-per-device", "10000"], within: 300)
      let big = try #require(rows["Big"])
      reads.append(big["read"] as? Int ?? 0)
      inserted += big["inserted"] as? Int ?? 0
      #expect((big["read"] as? Int ?? .max) <= 10_000)
      #expect(big["reason"] == nil)
      if round < 3 {
        #expect(big["completed"] as? Bool == false)
        #expect((big["stopped"] as? [String: Any])?["code"] as? String == "ceiling")
        // New messages between the syncs come too.
        device.receiveSMS(from: "10690\(round)", content: "between syncs \(round)")
      } else {
        #expect(big["completed"] as? Bool == true)
        #expect(big["stopped"] == nil)
      }
    }
    let archived = try Self.archived(harness, "Big")
    #expect(archived.count == 25_002)
    #expect(archived == Self.onDevice(device))
    #expect(inserted == 25_002)
    // Only the pages' overlap and the check of the newest page are read twice.
    #expect(reads.reduce(0, +) < 25_002 + 600, "\(reads)")
    // Then an ordinary later sync.
    let (_, later) = try await Self.sync(harness)
    #expect(later["Big"]?["reason"] == nil)
    #expect(later["Big"]?["deepRead"] == nil)
    #expect((later["Big"]?["pages"] as? Int ?? 99) <= 2)
    #expect(later["Big"]?["inserted"] as? Int == 0)
    await harness.stop()
  }

  // MARK: - 4. Rows that cannot be read

  @Test("unreadable rows: counted on the row, one warning naming the device, cheap later syncs")
  func unreadableRows() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "Odd", smsCount: 100, seed: 11, smsCases: [.unreadable(every: 7)]),
        DeviceProfile(name: "Fine", smsCount: 10, seed: 12),
      ])
    let device = harness.devices[0]
    let unreadable: (SimulatedSMS) -> Bool = { $0.id % 7 == 0 }
    let (outcome, rows) = try await Self.sync(harness, ["--page-size", "10"])
    let odd = try #require(rows["Odd"])
    #expect(odd["inserted"] as? Int == 86)
    #expect(odd["unreadable"] as? Int == 14)
    #expect(odd["completed"] as? Bool == true)
    #expect(rows["Fine"]?["unreadable"] as? Int == 0)
    #expect(outcome.exitCode == .success)
    #expect(try Self.archived(harness, "Odd") == Self.onDevice(device, skipping: unreadable))
    let warnings = harness.logs.records.filter { $0.message == "messages.unreadable" }
    #expect(warnings.count == 1)
    #expect(warnings.first?.metadata["instance_name"] == "Odd")
    #expect(warnings.first?.metadata["count"] == "14")
    #expect(warnings.first?.level == .warning)
    let text = try #require(
      try await within(120) { await harness.outcome(["messages", "sync", "--page-size", "10"]) })
    #expect(text.text(width: 120).contains("unreadable"), "\(text.text(width: 120))")

    // Later syncs stay cheap: the first page, no deep read.
    let (_, later) = try await Self.sync(harness, ["--page-size", "10"])
    #expect(later["Odd"]?["deepRead"] == nil)
    #expect(later["Odd"]?["pages"] as? Int == 1)
    // New messages, one of them unreadable (ids 101…107; 105 is).
    for index in 0..<7 { device.receiveSMS(from: "1069\(index)", content: "new \(index)") }
    let (_, after) = try await Self.sync(harness, ["--page-size", "10"])
    #expect(after["Odd"]?["inserted"] as? Int == 6)
    #expect(after["Odd"]?["deepRead"] == nil)
    #expect((after["Odd"]?["unreadable"] as? Int ?? 0) >= 1)
    #expect(try Self.archived(harness, "Odd") == Self.onDevice(device, skipping: unreadable))
    let (_, quiet) = try await Self.sync(harness, ["--page-size", "10"])
    #expect(quiet["Odd"]?["deepRead"] == nil)
    #expect(quiet["Odd"]?["pages"] as? Int == 1)
    await harness.stop()
  }

  // MARK: - 5. Ids repeated across pages

  @Test("ids repeated across pages: every row archived once, then ordinary later syncs")
  func repeatedIDs() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "Rep", smsCount: 60, seed: 13, smsCases: [.repeatedIDs(modulus: 10)])
      ])
    let device = harness.devices[0]
    let (_, first) = try await Self.sync(harness, ["--page-size", "10"])
    #expect(first["Rep"]?["inserted"] as? Int == 60)
    #expect(first["Rep"]?["completed"] as? Bool == true)
    let (_, second) = try await Self.sync(harness, ["--page-size", "10"])
    #expect(second["Rep"]?["deepRead"] == nil)
    #expect(second["Rep"]?["pages"] as? Int == 1)
    #expect(second["Rep"]?["inserted"] as? Int == 0)
    let text = try #require(
      try await within(120) { await harness.outcome(["messages", "sync", "--page-size", "10"]) })
    #expect(!text.text(width: 120).contains("first sync"), "\(text.text(width: 120))")
    for index in 0..<3 { device.receiveSMS(from: "95588", content: "repeat \(index)") }
    let (_, third) = try await Self.sync(harness, ["--page-size", "10"])
    #expect(third["Rep"]?["inserted"] as? Int == 3)
    #expect(third["Rep"]?["deepRead"] == nil)
    #expect(try Self.archived(harness, "Rep") == Self.onDevice(device))
    await harness.stop()
  }

  // MARK: - 9. An oversized page

  @Test("a page over the 8 MiB limit is halved until it fits; the size that works is kept")
  func oversizedPage() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(
          name: "Huge", smsCount: 200, seed: 14, smsCases: [.hugeBodies(characters: 17_000)]),
        DeviceProfile(name: "Fine", smsCount: 10, seed: 15),
      ], timeout: 30)
    let device = harness.devices[0]
    // A --full first (the issue's way in), then a routine sync: neither stays broken.
    let (full, rows) = try await Self.sync(harness, ["--full"], within: 120)
    #expect(full.exitCode == .success, "\(rows["Huge"] ?? [:])")
    #expect(rows["Huge"]?["inserted"] as? Int == 200)
    #expect(rows["Huge"]?["completed"] as? Bool == true)
    device.clearRequests()
    let (_, again) = try await Self.sync(harness, ["--full"], within: 120)
    #expect(again["Huge"]?["completed"] as? Bool == true)
    #expect(again["Huge"]?["inserted"] as? Int == 0)
    // The size that worked is remembered: no page of 1,000 is asked again.
    let limits = device.requests().filter { $0.path == "/api/sms/list" }
      .compactMap { $0.query["limit"].flatMap(Int.init) }
    #expect(!limits.isEmpty && limits.allSatisfy { $0 <= 200 }, "\(limits)")
    let (_, routine) = try await Self.sync(harness, within: 120)
    #expect(routine["Huge"]?["reason"] == nil)
    #expect(routine["Huge"]?["completed"] as? Bool == true)
    await harness.stop()
  }

  @Test("a --full that fails half way through long pages leaves the routine sync working")
  func routineAfterAFailedFull() async throws {
    let device = Locked<SimulatedDevice?>(nil)
    let failing = Locked(false)
    // The device goes down after the --full's second page (an injected fault).
    let hook: @Sendable (Int) -> Void = { page in
      if failing.current, page == 2 { device.current?.setFaults([FaultRule(.down)]) }
    }
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(
          name: "Huge", smsCount: 400, seed: 18, smsCases: [.hugeBodies(characters: 17_000)])
      ], timeout: 30, wrapping: { HookedTransport($0, hook: hook) })
    device.withLock { $0 = harness.devices[0] }
    failing.withLock { $0 = true }
    let (full, _) = try await Self.sync(harness, ["--full"], within: 180)
    #expect(full.exitCode == .failure)
    failing.withLock { $0 = false }
    harness.devices[0].setFaults([])
    let (routine, rows) = try await Self.sync(harness, within: 180)
    #expect(routine.exitCode == .success, "\(rows["Huge"] ?? [:])")
    #expect(rows["Huge"]?["completed"] as? Bool == true)
    #expect(try Self.archived(harness, "Huge").count == 400)
    await harness.stop()
  }

  @Test("a single row over the limit is counted unreadable; the rest is read")
  func singleRowOverTheLimit() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "Giant", smsCount: 30, seed: 16)], timeout: 30)
    let device = harness.devices[0]
    let old = Date().addingTimeInterval(-86_400 * 3)
    let giant = device.storeSMS(
      direction: "incoming", phoneNumber: "10690",
      content: String(repeating: "汉", count: 3_000_000), at: old)
    let (outcome, rows) = try await Self.sync(harness, within: 120)
    #expect(outcome.exitCode == .success, "\(rows["Giant"] ?? [:])")
    #expect(rows["Giant"]?["inserted"] as? Int == 30)
    #expect(rows["Giant"]?["unreadable"] as? Int == 1)
    #expect(rows["Giant"]?["completed"] as? Bool == true)
    #expect(try Self.archived(harness, "Giant") == Self.onDevice(device) { $0.id == giant.id })
    await harness.stop()
  }
}
