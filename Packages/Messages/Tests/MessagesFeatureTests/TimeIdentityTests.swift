import CommandLineKit
import Essentials
import EssentialsTesting
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import SimAdminClient
import SimAdminSimulator
import Testing
import ViewKit

@testable import MessagesFeature

/// Message time and identity msa can trust (issue 36 point 6, issue 29 points 5–8): device
/// times that name no time, v1.0.x timestamps and their rewrite, a backup restored on the
/// device, a wrong device clock and a SIM swap — each produced by the simulator over real
/// HTTP into a real SQLite archive.
@Suite("Time and identity", .serialized)
struct TimeIdentityTests {
  static let code = "【美团】验证码 852598，5分钟内有效。"

  /// `msa code --since …` (exit 1 "no code" is nil).
  static func code(_ harness: FeatureHarness, since: String = "10m") async throws -> String? {
    try await payload(harness, since: since)?.code
  }

  /// `msa code --json --since …`'s payload (nil: exit 1 "no code").
  static func payload(_ harness: FeatureHarness, since: String = "10m") async throws
    -> MessagesCommands.CodePayload?
  {
    var json = harness.environment
    json.output.json = true
    do {
      let result = try await harness.run(["code", "--since", since], environment: json)
      return result.payload as? MessagesCommands.CodePayload
    } catch is MessagesFailure {
      return nil
    }
  }

  // MARK: - Issue 36 point 6

  @Test("a time that names none is kept as text, dated when archived, answers no code at once")
  func unparsableTimes() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 3)], devicesOnTestClock: true)
    let device = harness.devices[0]
    let texts = ["", "0000-00-00 00:00:00", "2026-02-30 10:00:00", "1767225600"]
    for (index, text) in texts.enumerated() {
      device.storeSMS(
        direction: "incoming", phoneNumber: "1069000\(index)",
        content: "验证码 40000\(index)，5分钟内有效", timestamp: text)
    }
    // A year ahead of the clock: not believed either.
    device.storeSMS(
      direction: "incoming", phoneNumber: "10690009", content: "验证码 499999，5分钟内有效",
      timestamp: "2027-01-01 00:00:00")
    let firstSync = harness.clock.clock.now()
    // The first sync (history): none of them answers `msa code`.
    #expect(try await Self.code(harness) == nil)
    let rows = try harness.all().filter { $0.peer.hasPrefix("1069000") }
    #expect(rows.count == 5)
    #expect(rows.allSatisfy { $0.timeApproximate && $0.deviceAt == firstSync })
    #expect(Set(rows.map(\.deviceTimestamp)) == Set(texts + ["2027-01-01 00:00:00"]))
    // Listed by when archived (not at the top for ever), marked approximate.
    let list = try await harness.run(["messages", "list"])
    let listed = try #require(list.payload as? MessagesCommands.ListPayload).messages
    #expect(listed.filter(\.timeApproximate).count == 5)
    #expect(listed.first { $0.peer == "10690009" }?.firstSeenAt == firstSync)
    let text = TextRenderer.render(
      (try await harness.run(["messages", "list"])).view, options: RenderOptions(width: 120))
    #expect(text.contains("≈ "))

    // One that comes between two syncs inside the window is genuinely new.
    harness.clock.advance(by: 60)
    device.storeSMS(
      direction: "incoming", phoneNumber: "10690001", content: "验证码 777888，5分钟内有效",
      timestamp: "")
    harness.clock.advance(by: 60)
    #expect(try await Self.code(harness) == "777888")
    let payload = try #require(try await Self.payload(harness))
    #expect(payload.timeApproximate && payload.deviceTimestamp == "")
    // Twenty minutes later it is old.
    harness.clock.advance(by: 1_200)
    #expect(try await Self.code(harness) == nil)
    // A previous sync outside the window: an approximate time cannot say it is new.
    harness.clock.advance(by: 3_600)
    device.storeSMS(
      direction: "incoming", phoneNumber: "10690002", content: "验证码 123123，5分钟内有效",
      timestamp: "0000-00-00 00:00:00")
    #expect(try await Self.code(harness, since: "5m") == nil)
    await harness.stop()
  }

  // MARK: - Issue 29 point 7

  @Test("a device clock 10 minutes slow never hides a new code, a fast one never revives one")
  func wrongDeviceClock() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 3)], devicesOnTestClock: true)
    let device = harness.devices[0]
    #expect(try await Self.code(harness) == nil)
    device.setClockOffset(-600)
    harness.clock.advance(by: 60)
    device.receiveSMS(from: "10690000", content: Self.code)
    #expect(
      device.messages().first?.timestamp
        == BeijingTime.string(from: harness.clock.clock.now() - 600))
    #expect(try await Self.code(harness, since: "5m") == "852598")
    let payload = try #require(try await Self.payload(harness, since: "5m"))
    #expect(payload.ageSeconds == 0)
    #expect(payload.at == harness.clock.clock.now() - 600)

    // Ten minutes fast: stamped in the future, archived now; fifteen minutes later it is old.
    device.setClockOffset(600)
    harness.clock.advance(by: 60)
    device.receiveSMS(from: "10690000", content: "【美团】验证码 246810，5分钟内有效。")
    #expect(try await Self.code(harness, since: "5m") == "246810")
    harness.clock.advance(by: 900)
    #expect(try await Self.code(harness, since: "10m") == nil)
    await harness.stop()
  }

  // MARK: - Issue 29 point 5

  @Test("a backup restored on the device does not double the archive; identical rows stay two")
  func restoredBackup() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)], devicesOnTestClock: true)
    let device = harness.devices[0]
    let clock = harness.clock
    device.receiveSMS(from: "10086", content: "余额 12.5 元")
    device.receiveSMS(from: "10086", content: "余额 12.5 元")  // same second, its own marker
    device.receiveSMS(from: "Google", content: "G-482913 is your Google verification code.")
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "CXYE")
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "CXYE")
    clock.advance(by: 5)
    device.storeSMS(direction: "outgoing", phoneNumber: "10010", content: "102")
    _ = try await harness.run(["messages", "sync"])
    let before = try harness.all()
    #expect(before.count == 6)
    let backup = device.backup()

    // Replace: every row back under a new, higher id (the identical outgoing pair once).
    clock.advance(by: 60)
    device.restoreBackup(replacing: true)
    #expect(device.messages().count == 5)
    #expect(device.messages().allSatisfy { $0.id > 6 })
    _ = try await harness.run(["messages", "sync"])
    #expect(try harness.all().count == 6)
    #expect(Set(try harness.all().map(\.id)) == Set(before.map(\.id)))

    // Merge: rows deleted on the device come back under new ids.
    clock.advance(by: 60)
    device.deleteMessages(ids: device.messages().prefix(2).map(\.id))
    _ = try await harness.run(["messages", "sync"])
    device.restoreBackup(backup, replacing: false)
    _ = try await harness.run(["messages", "sync"])
    #expect(try harness.all().count == 6)
    let full = try await harness.run(["messages", "sync", "--full"])
    let rows = try #require(full.payload as? MessagesCommands.SyncPayload).instances
    #expect(rows.first?.inserted == 0)
    #expect(try harness.all().count == 6)

    // Two genuinely identical new messages (same number, text, second) stay two.
    clock.advance(by: 60)
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "CXYE")
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "CXYE")
    _ = try await harness.run(["messages", "sync"])
    #expect(try harness.all().count == 8)
    _ = try await harness.run(["messages", "sync", "--full"])
    #expect(try harness.all().count == 8)
    await harness.stop()
  }

  // MARK: - Issue 29 point 6

  @Test("v1.0.x RFC 3339 times are dated; v1.0.6's rewrite duplicates nothing")
  func legacyTimestampsAndTheirRewrite() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)], devicesOnTestClock: true)
    let device = harness.devices[0]
    let clock = harness.clock
    device.setLegacyFirmware(true)
    let received = clock.clock.now() - 3_600.25
    device.receiveSMS(from: "10086", content: "余额 12.5 元", at: received)
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "CXYE", at: received)
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "CXYE", at: received)
    #expect(device.messages().allSatisfy { $0.timestamp.hasSuffix("+00:00") })
    #expect(device.messages().contains { $0.pdu?.hasPrefix("mm:/org/freedesktop/") == true })
    clock.advance(by: 600)
    _ = try await harness.run(["messages", "sync"])
    let archived = try harness.all()
    #expect(archived.count == 3)
    #expect(archived.allSatisfy { !$0.timeApproximate && $0.deviceAt == received })

    device.upgradeRewritingTimestamps()
    #expect(device.messages().allSatisfy { !$0.timestamp.contains("T") })
    clock.advance(by: 60)
    _ = try await harness.run(["messages", "sync"])
    _ = try await harness.run(["messages", "sync", "--full"])
    let after = try harness.all()
    #expect(after.count == 3)
    #expect(Set(after.map(\.id)) == Set(archived.map(\.id)))
    #expect(after.allSatisfy { $0.deviceTimestamp == BeijingTime.string(from: received) })
    #expect(after.allSatisfy { $0.deviceAt == received })
    await harness.stop()
  }

  @Test("an archive of version 7 is dated again: RFC 3339 rows get their instant")
  func upgradesVersion7() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)],
      store: .messagesArchive(version: 7), devicesOnTestClock: true)
    let now = harness.clock.clock.now()
    for (index, text) in ["2025-12-31T15:00:00.5+00:00", "", "2026-01-01 07:00:00"].enumerated() {
      try harness.store.database.run(
        """
        INSERT INTO messages (instance_id, instance_name, direction, peer_raw, peer_key, body,
          device_at, device_timestamp, status, upstream_id, marker, dedupe_key, synced_at)
        VALUES (?, 'A', 'incoming', '10086', '10086', ?, ?, ?, 'received', ?, NULL, ?, ?)
        """,
        [
          harness.instances[0].id, "body \(index)",
          text == "2026-01-01 07:00:00" ? now - 3_600 : now, text, index + 1, "key\(index)", now,
        ])
    }
    #expect(try harness.store.schemaVersions()["messages"] == 7)
    let upgraded = try Store.open(
      directory: harness.testStore.directory.url, modules: [Messages.schema],
      clock: harness.testStore.clock.clock)
    #expect(try upgraded.schemaVersions()["messages"] == Messages.schema.latestVersion)
    let rows = try MessageArchive(store: upgraded).list(limit: 10)
    let byBody = Dictionary(uniqueKeysWithValues: rows.map { ($0.body, $0) })
    #expect(byBody["body 0"]?.deviceAt == Date(timeIntervalSince1970: 1_767_193_200.5))
    #expect(byBody["body 0"]?.timeApproximate == false)
    #expect(byBody["body 1"]?.timeApproximate == true)
    #expect(byBody["body 1"]?.deviceAt == now)
    #expect(byBody["body 2"]?.timeApproximate == false)
    #expect(byBody["body 2"]?.deviceAt == now - 3_600)
    #expect(try upgraded.database.integrityCheck().isEmpty)
    await harness.stop()
  }

  // MARK: - Issue 29 point 8

  @Test("after a SIM swap each message keeps the number known when it was archived")
  func simSwap() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)], devicesOnTestClock: true)
    let device = harness.devices[0]
    device.swapSIM(phoneNumber: "+8613900000001")
    device.receiveSMS(from: "10086", content: "before the swap")
    _ = try await harness.run(["messages", "sync"])
    harness.clock.advance(by: 3_600)
    device.swapSIM(phoneNumber: "+8613900000002")
    device.receiveSMS(from: "10086", content: "after the swap")
    _ = try await harness.run(["messages", "sync"])
    let numbers = Dictionary(
      uniqueKeysWithValues: try harness.all().map { ($0.body, $0.simNumber) })
    #expect(numbers["before the swap"] == "+8613900000001")
    #expect(numbers["after the swap"] == "+8613900000002")
    // Read once per swap window, not on every sync.
    device.clearRequests()
    device.receiveSMS(from: "10086", content: "again")
    _ = try await harness.run(["messages", "sync"])
    #expect(!device.requests().contains { $0.target.hasPrefix("/api/sim") })
    #expect(try harness.all().first { $0.body == "again" }?.simNumber == "+8613900000002")
    await harness.stop()
  }
}
