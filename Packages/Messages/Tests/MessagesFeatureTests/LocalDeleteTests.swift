import Essentials
import FeatureKitTesting
import Foundation
import LocalStore
import SimAdminSimulator
import Testing

@testable import MessagesFeature

/// Issue 35 point 9: what the user deleted locally stays deleted on every sync, `--full`
/// too. Before, a routine sync brought back the 20 newest messages ("20 new") and `--full`
/// brought back all. The archive remembers a local delete by device id and identity key
/// (`message_tombstones`) and the ingest leaves those device rows out.
@Suite struct LocalDeleteTests {
  func archived(_ harness: FeatureHarness) throws -> Int {
    try harness.store.database.queryOne("SELECT count(*) AS n FROM messages")?.int("n") ?? -1
  }

  func sync(_ harness: FeatureHarness, _ extra: [String] = []) async throws -> [InstanceSyncResult]
  {
    let outcome = await harness.outcome(["messages", "sync"] + extra)
    #expect(outcome.exitCode == .success, "\(outcome.message)")
    let payload = try #require(outcome.result?.payload as? MessagesCommands.SyncPayload)
    return payload.instances
  }

  @Test func deletingAnInstancesWholeArchiveLocallyStaysDeleted() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "shop", smsCount: 120, seed: 41)])
    defer { Task { await harness.stop() } }
    #expect(try await sync(harness).first?.inserted == 120)
    let deleted = await harness.outcome(
      ["messages", "delete", "--instance", "shop", "--all", "--scope", "local", "--yes"])
    #expect(deleted.exitCode == .success, "\(deleted.message)")
    #expect(try archived(harness) == 0)
    #expect(harness.devices[0].messages().count == 120, "the device keeps them")

    let routine = try await sync(harness)
    #expect(routine.first?.inserted == 0, "not '20 new'")
    #expect(routine.first?.failure == nil)
    let full = try await sync(harness, ["--full"])
    #expect(full.first?.inserted == 0, "not every message again")
    #expect(try archived(harness) == 0)

    // What arrives afterwards is archived as usual, and only that.
    _ = harness.devices[0].receiveSMS(from: "10086", content: "after the delete")
    #expect(try await sync(harness).first?.inserted == 1)
    #expect(try harness.all().map(\.body) == ["after the delete"])
    // The next syncs find nothing unaccounted for (no deep read every time).
    #expect(try await sync(harness).first?.deepRead == nil)
  }

  /// One message deleted locally stays deleted; another with the same content (a second
  /// identical row on the device) is another message and stays archived.
  @Test func oneOfTwoIdenticalMessagesDeletedStaysDeletedAlone() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "lab", smsCount: 0)])
    defer { Task { await harness.stop() } }
    let device = harness.devices[0]
    let moment = Date(timeIntervalSince1970: 1_767_225_600)
    _ = device.receiveSMS(from: "10086", content: "same", at: moment)
    _ = device.receiveSMS(from: "10086", content: "same", at: moment)
    _ = device.receiveSMS(from: "10010", content: "other")
    _ = try await sync(harness)
    let rows = try harness.all().filter { $0.body == "same" }
    #expect(rows.count == 2)
    let first = try #require(rows.first)
    #expect(
      await harness.outcome(["messages", "delete", String(first.id), "--scope", "local", "--yes"])
        .exitCode == .success)
    for extra in [[], ["--full"]] {
      _ = try await sync(harness, extra)
      #expect(try harness.all().filter { $0.body == "same" }.count == 1, "\(extra)")
      #expect(try harness.all().count == 2, "\(extra)")
    }
  }

  @Test func theSyncHelpSaysLocalDeletesStay() throws {
    let sync = try #require(
      Messages.module.commands.first { $0.name == "messages" }?.descendant(["sync"]))
    let full = try #require(sync.declaration.options.first { $0.name == "full" })
    #expect(full.help.resolve(.english).contains("deleted locally stay deleted"))
    #expect(full.help.resolve(.simplifiedChinese).contains("本地删除的短信仍保持删除"))
  }
}
