import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import MessagesFeature
import SimAdminSimulator
import Testing

/// Issue 29 point 2: SimAdmin's clear and delete-by-number act on the device's whole table. A
/// conversation or clear-all deletes only what the archive has seen, so the count confirmed is
/// the count deleted.
@Suite struct DeleteOnlySeenTests {
  static func deviceDeleted(_ result: CommandResult) throws -> Int? {
    let json = try JSONSerialization.jsonObject(with: JSONOutputTest.encode(result.payload))
    let rows = (json as? [String: Any])?["instances"] as? [[String: Any]]
    return rows?.first?["deviceDeleted"] as? Int
  }

  @Test func aConversationDeletesOnlyTheMessagesTheArchiveHasSeen() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "lab", smsCount: 0)])
    let device = harness.devices[0]
    for text in ["one", "two", "three"] { device.receiveSMS(from: "10086", content: text) }
    device.receiveSMS(from: "95588", content: "bank")
    _ = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    // Arrives after the sync: the archive has never seen it.
    device.receiveSMS(from: "10086", content: "arrived after the sync")
    let asked = await harness.outcome(["messages", "delete", "--peer", "10086"])
    #expect(asked.message.contains("3 archived messages of lab"))
    let result = try await harness.run(["messages", "delete", "--peer", "10086", "--yes"])
    #expect(try Self.deviceDeleted(result) == 3, "the count confirmed is the count deleted")
    #expect(
      Set(device.messages().map(\.content)) == ["arrived after the sync", "bank"])
    #expect(try harness.all().map(\.body) == ["bank"])
    await harness.stop()
  }

  @Test func clearingAnInstanceDeletesOnlyTheMessagesTheArchiveHasSeen() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "lab", smsCount: 6)])
    let device = harness.devices[0]
    _ = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    device.receiveSMS(from: "10010", content: "unseen")
    let result = try await harness.run([
      "messages", "delete", "--all", "--instance", "lab", "--yes",
    ])
    #expect(try Self.deviceDeleted(result) == 6)
    #expect(device.messages().map(\.content) == ["unseen"])
    #expect(try harness.all().isEmpty)
    await harness.stop()
  }

  @Test func oneOfTwoIdenticalMessagesDeletesOneRow() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "lab", smsCount: 0)])
    let device = harness.devices[0]
    let moment = Date(timeIntervalSince1970: 1_767_225_600)
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "收到", at: moment)
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "收到", at: moment)
    _ = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    let archived = try harness.all()
    #expect(archived.count == 2)
    let result = try await harness.run(["messages", "delete", String(archived[0].id), "--yes"])
    #expect(try Self.deviceDeleted(result) == 1)
    #expect(device.messages().count == 1)
    #expect(try harness.all().count == 1)
    await harness.stop()
  }
}
