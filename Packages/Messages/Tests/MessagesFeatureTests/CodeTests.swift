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

/// Verification codes in the archive (issue 17): extracted and indexed at archive time with
/// the rules' version, the SIM number kept per message, `msa code` (with and without
/// `--wait`) and `msa messages watch`, against simulated devices over real HTTP and a real
/// SQLite file.
@Suite("Verification codes", .serialized)
struct CodeTests {
  static let google = "G-482913 is your Google verification code."
  static let order = "Your order #10482913 has shipped."

  // MARK: - Extraction in the archive

  @Test("codes are extracted on sync, indexed, listed with --has-code and masked until shown")
  func extractedOnSync() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 5)])
    let device = harness.devices[0]
    _ = device.receiveSMS(from: "Google", content: Self.google)
    _ = device.receiveSMS(from: "10690000", content: Self.order)
    _ = try await harness.run(["messages", "sync"])

    let withCode = try harness.archive.list(filter: MessageFilter(hasCode: true), limit: 100)
    #expect(withCode.map(\.code).contains("482913"))
    #expect(try harness.all().first { $0.body == Self.order }?.code == nil)
    for message in withCode {
      #expect(message.code == CodeDetector.standard.code(in: message.body))
    }
    // The partial index answers the query.
    let plan = try harness.store.database.query(
      "EXPLAIN QUERY PLAN SELECT id FROM messages m WHERE m.code IS NOT NULL "
        + "ORDER BY m.device_at DESC, m.id DESC LIMIT 1"
    ).map { try $0.string("detail") }.joined(separator: " ")
    #expect(plan.contains("messages_with_code"), "\(plan)")

    let masked = try await harness.run(["messages", "list", "--has-code"])
    let maskedRows = try #require(masked.payload as? MessagesCommands.ListPayload).messages
    #expect(maskedRows.count == withCode.count)
    #expect(maskedRows.allSatisfy { $0.code?.allSatisfy { $0 == "•" } == true })
    // The console's `c` copies a row's code: in memory only, never in the encoded view.
    guard case .screen(let screen) = masked.view, case .table(let table)? = screen.children.first
    else {
      Issue.record("the list is not a screen with a table")
      return
    }
    #expect(table.rows.contains { $0.copyValue == "482913" })
    let encoded = String(decoding: try JSONEncoder().encode(masked.view), as: UTF8.self)
    #expect(!encoded.contains("482913"))
    let shown = try await harness.run(["messages", "list", "--has-code", "--show-bodies"])
    let shownRows = try #require(shown.payload as? MessagesCommands.ListPayload).messages
    #expect(shownRows.contains { $0.code == "482913" })
    await harness.stop()
  }

  @Test("a new rules version re-extracts every stored code")
  func newRulesVersionReExtracts() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)])
    let device = harness.devices[0]
    _ = device.receiveSMS(from: "Bank", content: "暗号 7391，请勿泄露")
    _ = device.receiveSMS(from: "Google", content: Self.google)
    _ = try await harness.run(["messages", "sync"])
    #expect(try harness.all().compactMap(\.code).sorted() == ["482913"])

    var rules = CodeRules.bundled
    rules.version += 1
    rules.extraction?.keywords.append("暗号")
    let archive = MessageArchive(store: harness.store, detector: CodeDetector(rules: rules))
    #expect(try archive.list(filter: MessageFilter(hasCode: true), limit: 10).count == 2)
    #expect(try harness.all().compactMap(\.code).sorted() == ["482913", "7391"])
    let stored = try harness.store.database.queryOne(
      "SELECT rules_version FROM message_codes")?.int("rules_version")
    #expect(stored == rules.version)
    await harness.stop()
  }

  @Test("a version 4 archive upgrades and its messages get their codes")
  func upgradesVersion4() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)],
      store: .messagesArchive(version: 4))
    try harness.store.database.run(
      """
      INSERT INTO messages (instance_id, instance_name, direction, peer_raw, peer_key, body,
        device_at, device_timestamp, status, upstream_id, marker, dedupe_key, synced_at)
      VALUES (?, 'A', 'incoming', 'Google', 'google', ?, ?, '2026-01-01 08:00:00', 'received', 1,
        NULL, 'k1', ?)
      """, [harness.instances[0].id, Self.google, Date(), Date()])
    #expect(try harness.store.schemaVersions()["messages"] == 4)
    let upgraded = try Store.open(
      directory: harness.testStore.directory.url, modules: [Messages.schema],
      clock: harness.testStore.clock.clock)
    #expect(try upgraded.schemaVersions()["messages"] == Messages.schema.latestVersion)
    let archive = MessageArchive(store: upgraded)
    let found = try archive.list(filter: MessageFilter(hasCode: true), limit: 10)
    #expect(found.map(\.code) == ["482913"])
    #expect(found.first?.simNumber == nil)
    #expect(try upgraded.database.integrityCheck().isEmpty)
    await harness.stop()
  }

  // MARK: - The SIM number

  @Test("each message keeps the SIM number its instance's status knew when it was archived")
  func simNumberKeptPerMessage() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)])
    let device = harness.devices[0]
    let instance = harness.instances[0]
    // No status stored: the number comes from the device's /api/sim.
    _ = device.receiveSMS(from: "10086", content: "first")
    _ = try await harness.run(["messages", "sync"])
    let session = harness.connector.session(
      for: instance.id, name: instance.name, origin: instance.origin.url)
    let deviceNumber = try await session.sim().phoneNumbers.first { !$0.isEmpty }
    #expect(try harness.all().first?.simNumber == deviceNumber)

    // The status knows a number: new messages (both directions) keep it.
    let statuses = StatusRepository(store: harness.store)
    try statuses.save(
      InstanceStatusRecord(
        instanceID: instance.id, status: "online",
        snapshot: #"{"phoneNumbers":["+8613900000001"]}"#, snapshotFetchedAt: Date()))
    _ = device.receiveSMS(from: "10086", content: "second")
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "reply")
    _ = try await harness.run(["messages", "sync"])
    // A SIM swap later does not rewrite them.
    try statuses.save(
      InstanceStatusRecord(
        instanceID: instance.id, status: "online",
        snapshot: #"{"phoneNumbers":["+8613900000002"]}"#, snapshotFetchedAt: Date()))
    _ = device.receiveSMS(from: "10086", content: "third")
    _ = try await harness.run(["messages", "sync"])
    let numbers = Dictionary(
      uniqueKeysWithValues: try harness.all().map { ($0.body, $0.simNumber) })
    #expect(numbers["first"] == deviceNumber)
    #expect(numbers["second"] == "+8613900000001")
    #expect(numbers["reply"] == "+8613900000001")
    #expect(numbers["third"] == "+8613900000002")

    // Shown beside the instance in list, show, export and JSON.
    let list = try await harness.run(["messages", "list"])
    let text = TextRenderer.render(list.view, options: RenderOptions(width: 160))
    #expect(text.contains("+8613900000002"))
    #expect(text.contains("SIM"))
    let rows = try #require(list.payload as? MessagesCommands.ListPayload).messages
    #expect(rows.first { $0.simNumber == "+8613900000001" } != nil)
    let show = try await harness.run(["messages", "show", "10086"])
    #expect(
      TextRenderer.render(show.view, options: RenderOptions(width: 160)).contains(
        "A · +8613900000001"))
    let file = harness.testStore.directory.url.appendingPathComponent("out.csv")
    _ = try await harness.run(["messages", "export", "--format", "csv", "--output", file.path])
    let csv = try String(contentsOf: file, encoding: .utf8)
    #expect(csv.hasPrefix("instance,instance_id,direction,peer,peer_key,at,device_timestamp,"))
    #expect(csv.contains(",+8613900000002,"))
    await harness.stop()
  }

  // MARK: - msa code

  @Test("msa code prints only the code on stdout, details on stderr; none is exit 1")
  func codeCommand() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)])
    let device = harness.devices[0]
    let streams = CapturedStreams()
    var environment = harness.environment
    environment.streams = streams.streams

    await #expect(throws: MessagesFailure.self) {
      _ = try await harness.run(["code"], environment: environment)
    }
    _ = device.receiveSMS(
      from: "Google", content: Self.google, at: harness.clock.clock.now().addingTimeInterval(-30))
    _ = device.receiveSMS(from: "10690000", content: "【美团】验证码852-598，5分钟内有效。")
    let result = try await harness.run(["code"], environment: environment)
    #expect(result.isWritten)
    #expect(streams.output == "852598\n")
    #expect(streams.error.contains("10690000") && streams.error.contains("A"))
    #expect(!streams.error.contains("852598"))

    let from = CapturedStreams()
    environment.streams = from.streams
    _ = try await harness.run(["code", "--from", "Google"], environment: environment)
    #expect(from.output == "482913\n")

    // Too old for --since: the device's clock stamped it an hour before "now".
    let now = harness.testStore.clock.clock.now()
    let old = try await FeatureHarness(.messages, devices: [DeviceProfile(name: "B", smsCount: 0)])
    _ = old.devices[0].receiveSMS(
      from: "Google", content: Self.google, at: now.addingTimeInterval(-3600))
    await #expect(throws: MessagesFailure.self) {
      _ = try await old.run(["code", "--since", "10m"])
    }
    var json = old.environment
    json.output.json = true
    let hour = try await old.run(["code", "--since", "2h"], environment: json)
    let payload = try #require(hour.payload as? MessagesCommands.CodePayload)
    #expect(payload.code == "482913" && payload.sender == "Google" && payload.ageSeconds == 3600)
    // Refused while the command line is parsed, naming the option (issue 35).
    await #expect(throws: UsageError.self) {
      _ = try await old.run(["code", "--since", "soon"])
    }
    await old.stop()
    await harness.stop()
  }

  @Test("msa code --wait prints only a code archived after it started")
  func codeWait() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 3)])
    let device = harness.devices[0]
    _ = device.receiveSMS(from: "Google", content: Self.google)
    _ = try await harness.run(["messages", "sync"])
    let streams = CapturedStreams()
    var environment = harness.environment
    environment.streams = streams.streams
    let waiting = Task { [environment] in
      try await harness.run(["code", "--wait", "30s"], environment: environment)
    }
    try await Task.sleep(nanoseconds: 1_500_000_000)
    #expect(streams.output.isEmpty)
    _ = device.receiveSMS(from: "Telegram", content: "Telegram code 123 456")
    let result = try await waiting.value
    #expect(result.isWritten)
    #expect(streams.output == "123456\n")

    await #expect(throws: MessagesFailure.self) {
      _ = try await harness.run(["code", "--wait", "2s"])
    }
    await harness.stop()
  }

  // MARK: - msa messages watch

  @Test("watch prints each new message once as JSON Lines with its code, reports a failure once")
  func watchFollows() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "A", smsCount: 4), DeviceProfile(name: "B", smsCount: 2),
      ])
    let streams = CapturedStreams()
    var environment = harness.environment
    environment.streams = streams.streams
    environment.output.json = true
    // The app's clock at the real time: the devices' history is older than the start.
    let clock = harness.testStore.clock
    clock.advance(by: Date().timeIntervalSince(clock.clock.now()))
    let b = harness.devices[1]
    b.setFaults([FaultRule(.down)])
    let watching = Task { [environment] in
      try await harness.run(["messages", "watch", "--interval", "1s"], environment: environment)
    }
    try await Task.sleep(nanoseconds: 1_500_000_000)
    _ = harness.devices[0].receiveSMS(from: "Google", content: Self.google)
    _ = harness.devices[0].receiveSMS(from: "10086", content: "hello there")
    try await Self.until { streams.output.split(separator: "\n").count >= 2 }
    try await Task.sleep(nanoseconds: 2_500_000_000)
    b.setFaults([])
    try await Self.until { streams.error.contains("B: answering again") }
    watching.cancel()
    _ = try await watching.value

    let lines = streams.output.split(separator: "\n")
    #expect(lines.count == 2)
    let objects = try lines.map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(objects.contains { $0["code"] as? String == "482913" })
    #expect(objects.allSatisfy { $0["bodyMasked"] as? Bool == true })
    #expect(streams.error.components(separatedBy: "B: failing").count == 2)
    let codes = harness.logs.records.map(\.message)
    #expect(codes.first == "messages.watchStarted")
    #expect(codes.last == "messages.watchEnded")
    #expect(codes.count { $0 == "messages.watchReceived" } == 2)
    #expect(codes.count { $0 == "messages.followFailing" } == 1)
    #expect(codes.count { $0 == "messages.followRecovered" } == 1)
    #expect(!codes.contains("messages.synced"))
    for record in harness.logs.records { #expect(!record.line.contains("482913")) }
    await harness.stop()
  }

  /// Waits up to 20 s for `condition`.
  static func until(_ condition: () -> Bool) async throws {
    for _ in 0..<200 {
      if condition() { return }
      try await Task.sleep(nanoseconds: 100_000_000)
    }
    Issue.record("condition not met in 20 s")
  }
}
