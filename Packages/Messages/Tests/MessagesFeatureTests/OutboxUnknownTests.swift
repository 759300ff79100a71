import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import MessagesFeature
import SimAdminClient
import SimAdminSimulator
import Testing

/// Issue 29 point 1: a message is never sent twice. SimAdmin's send waits for the modem with
/// no time limit; a client that gives up cannot tell whether it went out. Every test counts
/// what the simulated modem really sent (`transmitted()`), not what the device's table kept.
@Suite("Outbox: an unknown outcome is never sent twice")
struct OutboxUnknownTests {
  static func entry(_ result: CommandResult) throws -> OutboxEntry {
    try #require(result.payload as? OutboxEntry)
  }

  static func text(_ outcome: FeatureHarness.Outcome) -> String {
    outcome.result == nil ? outcome.message : outcome.text(width: 400)
  }

  static func wait(seconds: TimeInterval, until done: () -> Bool) async throws {
    let end = Date().addingTimeInterval(seconds)
    while !done(), Date() < end { try await Task.sleep(nanoseconds: 50_000_000) }
  }

  @Test("a send slower than the ordinary request timeout is waited for and sent once")
  func aSlowSendIsWaitedForAndSentOnce() async throws {
    // The connector gives every request 1 s; the modem takes 2.5 s. Before, msa gave up at
    // the request timeout, queued the message as failed-to-reach and a flush sent it again.
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "slow", smsCount: 0)], timeout: 1)
    let device = harness.devices[0]
    device.setSendSeconds(2.5)
    let sent = try await harness.run(
      ["messages", "send", "--from", "slow", "--to", "10086", "--text", "CXYE"])
    _ = try await harness.run(["outbox", "flush"])
    _ = try await harness.run(["outbox", "flush"])
    try await Self.wait(seconds: 15) { device.sendsInProgress == 0 }
    #expect(device.transmitted().map(\.content) == ["CXYE"], "sent exactly once")
    #expect(try Self.entry(sent).state == .sent)
    await harness.stop()
  }

  @Test("no answer in time: unknown (never failed or sent), settled as sent when found")
  func noAnswerInTimeIsUnknownThenSettledByTheDevicesSentMessages() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "slow", smsCount: 0)], timeout: 2)
    let device = harness.devices[0]
    // Sent before, with the same text: an older row must not settle the new attempt.
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "CXYE")
    // Long enough that the flush below runs while the modem still sends, on a loaded machine.
    device.setSendSeconds(8)
    device.setSendCompletion(.detached)
    let outcome = await harness.outcome(
      ["messages", "send", "--from", "slow", "--to", "10086", "--text", "CXYE", "--timeout", "1"])
    #expect(outcome.exitCode == .failure)
    let entry = try Self.entry(try #require(outcome.result))
    #expect(entry.state == .unknown)
    #expect(entry.reason?.key == "client.error.timeout")
    #expect(entry.attempts.map(\.result) == ["unknown"])
    let said = Self.text(outcome)
    #expect(said.contains("Outcome unknown for #\(entry.id)"))
    #expect(said.contains("msa outbox check \(entry.id)"))
    #expect(!said.contains("flush"), "no message tells the user to flush an unknown entry")
    // `--json` says unknown, never sent or failed.
    let json = String(decoding: try JSONOutputTest.encode(entry), as: UTF8.self)
    #expect(json.contains(#""state":"unknown""#) || json.contains(#""state" : "unknown""#))
    // A flush while the device is still sending finds nothing and sends nothing.
    _ = try await harness.run(["outbox", "flush"])
    let outbox = OutboxRepository(store: harness.store)
    #expect(try outbox.entry(id: entry.id)?.state == .unknown)
    #expect(try outbox.entry(id: entry.id)?.reason?.key == "outbox.reason.notFound")
    // The device stores it as sent later; the next flush finds it there and stops.
    try await Self.wait(seconds: 20) { device.sendsInProgress == 0 }
    let flushed = try await harness.run(["outbox", "flush"])
    #expect(flushed.exitCode == .success)
    let settled = try #require(try outbox.entry(id: entry.id))
    #expect(settled.state == .sent)
    #expect(settled.reason?.key == "outbox.reason.foundOnDevice")
    #expect(settled.attempts.map(\.result) == ["unknown", "notFound", "confirmed"])
    #expect(device.transmitted().count == 1, "never sent twice")
    await harness.stop()
  }

  @Test("a send the device never stored stays unknown; only an explicit send-again resends")
  func onlyTheUsersExplicitSendAgainSendsAnUnknownEntryAgain() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "slow", smsCount: 0)], timeout: 2)
    let device = harness.devices[0]
    device.setSendSeconds(4)
    // SimAdmin on hyper: the client leaves, the handler is cancelled, the modem sends anyway
    // and no row is stored.
    let first = try await harness.run(
      ["messages", "send", "--from", "slow", "--to", "10086", "--text", "CXYE", "--timeout", "1"])
    let id = try Self.entry(first).id
    try await Self.wait(seconds: 15) { device.sendsInProgress == 0 }
    #expect(device.transmitted().count == 1)
    #expect(device.messages().isEmpty)
    for arguments in [["outbox", "flush"], ["outbox", "check"], ["outbox", "retry", String(id)]] {
      let outcome = await harness.outcome(arguments)
      #expect(outcome.exitCode == .failure, "\(arguments)")
      #expect(device.transmitted().count == 1, "\(arguments) sent nothing")
    }
    let outbox = OutboxRepository(store: harness.store)
    #expect(try outbox.entry(id: id)?.state == .unknown)
    // The user's explicit choice first asks, saying it may duplicate.
    let asked = await harness.outcome(["outbox", "retry", String(id), "--send-again"])
    #expect(asked.exitCode == .failure)
    #expect(Self.text(asked).contains("twice"))
    #expect(device.transmitted().count == 1)
    device.setSendSeconds(0)
    let again = try await harness.run(["outbox", "retry", String(id), "--send-again", "--yes"])
    #expect(again.exitCode == .success)
    let entry = try #require(try outbox.entry(id: id))
    #expect(entry.state == .sent)
    #expect(entry.attempts.map(\.result).contains("sendAgain"))
    #expect(device.transmitted().count == 2)
    await harness.stop()
  }

  @Test("an entry a killed run left sending is unknown, and found when the device has it")
  func aSendLeftBehindByAnEndedRunIsSettledNotResent() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)], timeout: 2)
    let device = harness.devices[0]
    let instance = try #require(try harness.registry.list().first)
    let outbox = OutboxRepository(store: harness.store)
    // Two sends a run had taken when it was killed: one the device stored, one it did not.
    let kept = try outbox.enqueue(instance: instance, to: "10086", body: "kept", expiresAt: nil)
    let lost = try outbox.enqueue(instance: instance, to: "10086", body: "lost", expiresAt: nil)
    for entry in [kept, lost] {
      try harness.store.database.run(
        "UPDATE outbox SET state = 'sending', upstream_path = 'after:0' WHERE id = ?", [entry.id])
    }
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "kept")
    // Within its send time it belongs to a run still going: left alone.
    _ = try await harness.run(["outbox", "flush"])
    #expect(try outbox.entry(id: kept.id)?.state == .sending)
    harness.clock.advance(by: 600)
    _ = try await harness.run(["outbox", "flush"])
    #expect(try outbox.entry(id: kept.id)?.state == .sent)
    #expect(try outbox.entry(id: lost.id)?.state == .unknown)
    #expect(try outbox.entry(id: lost.id)?.attempts.map(\.result) == ["unknown", "notFound"])
    #expect(device.transmitted().isEmpty, "neither was sent again")
    await harness.stop()
  }

  @Test("identical texts: each device row settles one entry")
  func identicalTextsSettleOneEntryPerRow() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)], timeout: 2)
    let device = harness.devices[0]
    let instance = try #require(try harness.registry.list().first)
    let outbox = OutboxRepository(store: harness.store)
    var ids: [Int64] = []
    for _ in 0..<2 {
      let entry = try outbox.enqueue(instance: instance, to: "10086", body: "same", expiresAt: nil)
      try harness.store.database.run(
        "UPDATE outbox SET state = 'unknown', upstream_path = 'after:0' WHERE id = ?", [entry.id])
      ids.append(entry.id)
    }
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "same")
    // A row the device's automation stored as failed is not a sent message.
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "same", status: "failed")
    _ = try await harness.run(["outbox", "check"])
    #expect(try outbox.entry(id: ids[0])?.state == .sent)
    #expect(try outbox.entry(id: ids[1])?.state == .unknown)
    await harness.stop()
  }

  @Test("two flushes at once send an entry once")
  func twoFlushesAtOnceSendOnce() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)], timeout: 2)
    let device = harness.devices[0]
    device.setSendSeconds(0.5)
    let instance = try #require(try harness.registry.list().first)
    let outbox = OutboxRepository(store: harness.store)
    let entry = try outbox.enqueue(instance: instance, to: "10086", body: "once", expiresAt: nil)
    async let one = harness.run(["outbox", "flush"])
    async let two = harness.run(["outbox", "flush"])
    _ = try await (one, two)
    try await Self.wait(seconds: 4) { device.sendsInProgress == 0 }
    #expect(device.transmitted().count == 1)
    #expect(try outbox.entry(id: entry.id)?.state == .sent)
    await harness.stop()
  }

  @Test("the device's refusal fails the entry; an unreachable device leaves it queued")
  func refusalsAndUnreachableDevicesAreNotUnknown() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [DeviceProfile(name: "refusing", smsCount: 0), DeviceProfile(name: "down")],
      timeout: 2)
    harness.devices[0].setSendFailure("no network")
    harness.devices[1].setFaults([FaultRule(.down)])
    let refused = try await harness.run(
      ["messages", "send", "--from", "refusing", "--to", "10086", "--text", "x"])
    #expect(try Self.entry(refused).state == .failed)
    let queued = try await harness.run(
      ["messages", "send", "--from", "down", "--to", "10086", "--text", "y"])
    #expect(try Self.entry(queued).state == .queued)
    await harness.stop()
  }

  @Test("unknown in Chinese, in the outbox list, and the console's keys")
  func unknownEverywhereItShows() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)], timeout: 2)
    let instance = try #require(try harness.registry.list().first)
    let outbox = OutboxRepository(store: harness.store)
    let entry = try outbox.enqueue(instance: instance, to: "10086", body: "x", expiresAt: nil)
    try harness.store.database.run(
      "UPDATE outbox SET state = 'unknown', reason_key = 'client.error.timeout' WHERE id = ?",
      [entry.id])
    let list = await harness.outcome(["outbox", "list"], language: .simplifiedChinese)
    #expect(Self.text(list).contains("结果未知"))
    let english = await harness.outcome(["outbox", "list"])
    #expect(Self.text(english).contains("outcome unknown"))
    let route = try #require(
      Messages.module.routes.first { $0.pattern.description == "messages/outbox" })
    let sendAgain = try #require(route.actions.first { $0.arguments.contains("--send-again") })
    #expect(sendAgain.arguments.contains("--yes"))
    #expect(sendAgain.confirmation?.resolve(.english).contains("twice") == true)
    #expect(route.actions.contains { $0.arguments.starts(with: ["outbox", "check"]) })
    await harness.stop()
  }
}
