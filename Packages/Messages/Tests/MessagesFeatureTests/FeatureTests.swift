import CommandLineKit
import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import SimAdminClient
import SimAdminSimulator
import Testing

@testable import MessagesFeature

@Suite("Archive, outbox, export and bad input")
struct FeatureTests {
  @Test("catalogue is complete")
  func catalogue() {
    #expect(MessagesStrings.catalogue.problems().isEmpty)
  }

  @Test(
    "peer normalization",
    arguments: [
      ("+86 138-0013-8000", "13800138000"), ("008613800138000", "13800138000"),
      ("(138) 0013 8000", "(138) 0013 8000"), ("10086", "10086"), ("+8610086", "+8610086"),
      ("Google", "Google"), ("+447503918604", "+447503918604"),
    ])
  func peerKey(raw: String, key: String) {
    #expect(PeerNumber.key(raw) == key)
  }

  @Test("search finds Chinese, digit runs and English words, short queries included")
  func search() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)])
    let device = harness.devices[0]
    device.receiveSMS(from: "95588", content: "【银行】您的验证码是4821，请勿泄露")
    device.receiveSMS(from: "Google", content: "G-777 is your Google verification code")
    device.receiveSMS(from: "10086", content: "话费余额 12 元")
    _ = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    let archive = harness.archive
    #expect(try archive.list(filter: MessageFilter(search: "验证码"), limit: 10).count == 1)
    #expect(try archive.list(filter: MessageFilter(search: "4821"), limit: 10).count == 1)
    #expect(try archive.list(filter: MessageFilter(search: "verification"), limit: 10).count == 1)
    #expect(try archive.list(filter: MessageFilter(search: "余额"), limit: 10).count == 1)
    #expect(try archive.list(filter: MessageFilter(search: "12"), limit: 10).count == 1)
    #expect(try archive.list(filter: MessageFilter(search: "nothing"), limit: 10).isEmpty)
    await harness.stop()
  }

  @Test("search pages equal the newest matches, read newest first or through the index")
  func searchPagesMatchBruteForce() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 300, seed: 7)])
    _ = await harness.syncer(pageSize: 100).syncOne(harness.instances[0])
    let all = try harness.archive.list(limit: 10_000)
    #expect(all.count == 300)
    for term in ["验证码", "code", "TELEGRAM", "您的", "zzz-none"] {
      let expected = all.filter { $0.body.lowercased().contains(term.lowercased()) }.map(\.id)
      for limit in [1, 7, 50, 500] {
        // Read newest first, through the index, or first one then the other: either way
        // the newest matches, in order.
        for (number, strategy) in MessageArchive.SearchStrategy.all.enumerated() {
          #expect(
            try harness.archive.list(
              filter: MessageFilter(search: term), after: nil, limit: limit, strategy: strategy
            ).map(\.id) == Array(expected.prefix(limit)), "\(term) limit \(limit) #\(number)")
        }
      }
      var paged: [Int64] = []
      var cursor: MessageCursor?
      repeat {
        let page = try harness.archive.list(
          filter: MessageFilter(search: term), after: cursor, limit: 9)
        paged += page.map(\.id)
        cursor = page.count == 9 ? page.last.map { MessageCursor(after: $0) } : nil
      } while cursor != nil
      #expect(paged == expected, "\(term) paged")
    }
    await harness.stop()
  }

  @Test("keyset paging stays stable while new messages arrive")
  func paging() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 25)])
    _ = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    let first = try harness.archive.list(limit: 10)
    let cursor = try #require(first.last.map { MessageCursor(after: $0) })
    let token = try #require(MessageCursor(token: cursor.token))
    harness.devices[0].receiveSMS(from: "10086", content: "arrived meanwhile")
    _ = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    var seen = first.map(\.id)
    var next: MessageCursor? = token
    while let position = next {
      let page = try harness.archive.list(after: position, limit: 10)
      seen += page.map(\.id)
      next = page.count == 10 ? page.last.map { MessageCursor(after: $0) } : nil
    }
    #expect(seen.count == 25)
    #expect(Set(seen).count == 25)
    let result = try await harness.run(["messages", "list", "--limit", "5"])
    let payloadText = try String(decoding: JSONOutputTest.encode(result.payload), as: UTF8.self)
    #expect(payloadText.contains("nextCursor"))
    #expect(!payloadText.contains("arrived meanwhile") || payloadText.contains("bodyMasked"))
    await harness.stop()
  }

  @Test("outbox lifecycle: waits while the device is down, sent when it comes back")
  func outboxLifecycle() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [DeviceProfile(name: "down", smsCount: 0), DeviceProfile(name: "up", smsCount: 0)],
      timeout: 2)
    let down = harness.devices[0]
    down.setFaults([FaultRule(.down)])
    let queued = try await harness.run(
      ["messages", "send", "--from", "down", "--to", "+8613800138000", "--text", "hello 你好"])
    let entry = try #require(queued.payload as? OutboxEntry)
    #expect(entry.state == .queued)
    #expect(entry.reason?.key.hasPrefix("client.") == true)
    #expect(entry.attempts.map(\.result) == ["waiting"])
    // Another instance's entry is not blocked by the failing one.
    let sent = try await harness.run(
      ["messages", "send", "--from", "up", "--to", "10086", "--text", "CXYE"])
    #expect((sent.payload as? OutboxEntry)?.state == .sent)
    #expect(harness.devices[1].messages().contains { $0.content == "CXYE" })
    let outbox = OutboxRepository(store: harness.store)
    #expect(try outbox.entry(id: entry.id)?.state == .queued)
    down.setFaults([])
    let flushed = try await harness.run(["outbox", "flush"])
    #expect(flushed.exitCode == .success)
    let after = try #require(try outbox.entry(id: entry.id))
    #expect(after.state == .sent)
    #expect(after.attempts.map(\.result).suffix(1) == ["sent"])
    #expect(
      down.messages().contains { $0.phoneNumber == "+8613800138000" && $0.content == "hello 你好" })
    await harness.stop()
  }

  @Test("outbox expiry, cancel and retry")
  func outboxExpiryCancelRetry() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "down", smsCount: 0)], timeout: 2)
    harness.devices[0].setFaults([FaultRule(.down)])
    let first = try await harness.run(
      ["messages", "send", "--from", "down", "--to", "10086", "--text", "a", "--expires-in", "10m"])
    let id = try #require((first.payload as? OutboxEntry)?.id)
    harness.testStore.clock.advance(by: 3600)
    _ = try await harness.run(["outbox", "flush"])
    let outbox = OutboxRepository(store: harness.store)
    let expired = try #require(try outbox.entry(id: id))
    #expect(expired.state == .failed)
    #expect(expired.reason?.key == "outbox.reason.expired")
    harness.devices[0].setFaults([])
    _ = try await harness.run(["outbox", "retry", String(id)])
    #expect(try outbox.entry(id: id)?.state == .sent)
    let second = try await harness.run(
      ["messages", "send", "--from", "down", "--to", "10086", "--text", "b"])
    let sentID = try #require((second.payload as? OutboxEntry)?.id)
    await #expect(throws: OutboxError.alreadySent(id: sentID)) {
      _ = try await harness.run(["outbox", "cancel", String(sentID)])
    }
    await harness.stop()
  }

  @Test("export writes CSV and JSON Lines with redaction; bodies only when asked")
  func export() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)])
    harness.devices[0].receiveSMS(from: "+8613800138000", content: "Your code is 482913, ok")
    harness.devices[0].receiveSMS(from: "10086", content: "余额, \"quoted\"")
    _ = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    let folder = harness.testStore.directory.url
    let csv = folder.appendingPathComponent("out.csv")
    _ = try await harness.run(["messages", "export", "--format", "csv", "--output", csv.path])
    let csvText = try String(contentsOf: csv, encoding: .utf8)
    #expect(csvText.hasPrefix("instance,instance_id,direction,peer,peer_key,at,"))
    #expect(!csvText.contains("482913"))
    #expect(csvText.contains("••••••"))
    #expect(csvText.contains("+8613800138000"))
    let jsonl = folder.appendingPathComponent("out.jsonl")
    _ = try await harness.run([
      "messages", "export", "--format", "jsonl", "--output", jsonl.path, "--include-bodies",
      "--peer", "13800138000",
    ])
    let lines = try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines[0].contains("Your code is 482913, ok"))
    #expect(lines[0].contains("\"at\":\"20"))
    await harness.stop()
  }

  @Test("an output path that cannot be written leaves nothing behind")
  func unwritableOutput() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 3)])
    _ = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    let missing = harness.testStore.directory.url.appendingPathComponent("no/such/dir/x.csv")
    do {
      _ = try await harness.run(["messages", "export", "--format", "csv", "--output", missing.path])
      Issue.record("export to a missing folder succeeded")
    } catch {
      #expect(UserFacingMessage.of(error, .english).contains("Nothing was written"))
    }
    let existing = harness.testStore.directory.url.appendingPathComponent("dir.csv")
    try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: true)
    await #expect(
      throws: AtomicFile.Failure.notARegularFile(path: existing.path, kind: "directory")
    ) {
      _ = try await harness.run([
        "messages", "export", "--format", "csv", "--output", existing.path, "--force",
      ])
    }
    let leftovers = try FileManager.default.contentsOfDirectory(
      atPath: harness.testStore.directory.url.path
    ).filter { AtomicFile.isTemporaryName($0) }
    #expect(leftovers.isEmpty)
    await harness.stop()
  }

  @Test("an existing file is left byte-identical without --force; default names never collide")
  func exportNeverReplacesSilently() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 3)])
    _ = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    let folder = harness.testStore.directory.url
    let existing = folder.appendingPathComponent("mine.csv")
    let original = Data("my own file\r\n\u{0}".utf8)
    try original.write(to: existing)
    do {
      _ = try await harness.run(["messages", "export", "--format", "csv", "-o", existing.path])
      Issue.record("an existing file was replaced without --force")
    } catch {
      #expect(UserFacingMessage.of(error, .english).contains("--force"))
    }
    #expect(try Data(contentsOf: existing) == original)
    _ = try await harness.run([
      "messages", "export", "--format", "csv", "-o", existing.path, "--force",
    ])
    #expect(try Data(contentsOf: existing) != original)

    // The clock stands still: every default name has the same stamp and gets a counter.
    var paths: [String] = []
    for _ in 0..<3 {
      let result = try await harness.run(["messages", "export", "--format", "jsonl"])
      paths.append(try #require((result.payload as? MessagesCommands.ExportPayload)?.path))
    }
    #expect(Set(paths).count == 3)
    for path in paths {
      #expect(try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8).count > 0)
      var info = stat()
      #expect(stat(path, &info) == 0 && Int(info.st_mode) & 0o777 == 0o600)
    }
    await harness.stop()
  }

  @Test(
    "bad input is refused with a clear message and nothing written",
    arguments: [
      (["messages", "send", "--from", "A", "--to", "10086", "--text", "  "], "empty"),
      (
        [
          "messages", "send", "--from", "A", "--to", "10086", "--text",
          String(repeating: "字", count: 1001),
        ],
        "at most 1000"
      ),
      (
        ["messages", "send", "--from", "A", "--to", "1380013abc", "--text", "hi"],
        "not a phone number"
      ),
      (["messages", "send", "--from", "nope", "--to", "10086", "--text", "hi"], "nope"),
      (["messages", "list", "--since", "2026-13-45"], "YYYY-MM-DD"),
      (["messages", "list", "--until", "yesterday"], "YYYY-MM-DD"),
      (["messages", "list", "--instance", "ghost"], "ghost"),
    ])
  func badInput(arguments: [String], fragment: String) async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)])
    do {
      _ = try await harness.run(arguments)
      Issue.record("accepted \(arguments)")
    } catch {
      #expect(UserFacingMessage.of(error, .english).contains(fragment))
    }
    #expect(try OutboxRepository(store: harness.store).list().isEmpty)
    #expect(harness.devices[0].messages().isEmpty)
    await harness.stop()
  }

  @Test("send normalises the number (spaces and dashes out, + kept); malformed lines exit 64")
  func sendNumberRule() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)])
    let sent = try await harness.run([
      "messages", "send", "--from", "A", "--to", "+86 138-0013 8000", "--text", "hi",
    ])
    #expect((sent.payload as? OutboxEntry)?.peer == "+8613800138000")
    #expect(harness.devices[0].messages().first?.phoneNumber == "+8613800138000")
    for arguments in [
      ["messages", "send", "--from", "A", "--to", "abc", "--text", "hi"],
      ["messages", "send", "--from", "A", "--to", "10086", "--text", "hi", "--text-stdin"],
    ] {
      do {
        _ = try await harness.run(arguments, input: "x")
        Issue.record("accepted \(arguments)")
      } catch {
        #expect(UserFacingMessage.exitCode(of: error) == .usage, "\(arguments)")
      }
    }
    #expect(harness.devices[0].messages().count == 1)
    await harness.stop()
  }

  @Test("an unknown export format is a usage error")
  func unknownFormat() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)])
    await #expect(throws: UsageError.self) {
      _ = try await harness.run(["messages", "export", "--format", "xml"])
    }
    await harness.stop()
  }

  @Test(
    "delete refuses without --yes naming instance and count; with --yes deletes on device and locally"
  )
  func deleteConversation() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "lab", smsCount: 0)])
    let device = harness.devices[0]
    device.receiveSMS(from: "+8613800138000", content: "one")
    device.receiveSMS(from: "13800138000", content: "two")
    device.receiveSMS(from: "10086", content: "keep")
    _ = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    do {
      _ = try await harness.run(["messages", "delete", "--peer", "138 0013 8000"])
      Issue.record("deleted without --yes")
    } catch {
      let message = UserFacingMessage.of(error, .english)
      #expect(message.contains("2 archived messages of lab"))
      #expect(message.contains("--yes"))
    }
    #expect(try harness.all().count == 3)
    let result = try await harness.run(["messages", "delete", "--peer", "138 0013 8000", "--yes"])
    #expect(result.exitCode == .success)
    #expect(try harness.all().map(\.body) == ["keep"])
    #expect(device.messages().map(\.content) == ["keep"])
    // A single message by archive id, found on the device by identity.
    let keep = try #require(try harness.all().first)
    _ = try await harness.run(["messages", "delete", String(keep.id), "--yes"])
    #expect(device.messages().isEmpty)
    #expect(try harness.all().isEmpty)
    await harness.stop()
  }

  @Test("messages survive deleting their instance and show its last name")
  func survivesInstanceDeletion() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "old-name", smsCount: 4)])
    _ = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    _ = try harness.testStore.instances.delete(id: harness.instances[0].id, expectedRevision: nil)
    let all = try harness.all()
    #expect(all.count == 4)
    #expect(all.allSatisfy { $0.instanceName == "old-name" })
    let stats = try harness.archive.stats()
    #expect(stats.total == 4)
    await harness.stop()
  }
}

enum JSONOutputTest {
  static func encode(_ value: any Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    return try encoder.encode(value)
  }
}

/// Counts the `POST /api/sms/send` requests in flight at once (the widest moment) that
/// `inner` (the harness's) carries.
final class SendCountingTransport: HTTPTransport {
  let inner: any HTTPTransport
  let state = Locked((now: 0, widest: 0))

  init(_ inner: any HTTPTransport) {
    self.inner = inner
  }

  func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(HTTPTransportError)
    -> HTTPResponse
  {
    let counted = request.url.path == "/api/sms/send"
    if counted {
      state.withLock { state in
        state.now += 1
        state.widest = max(state.widest, state.now)
      }
    }
    defer { if counted { state.withLock { $0.now -= 1 } } }
    return try await inner.send(request, timeout: timeout)
  }
}

@Suite("Outbox concurrency")
struct OutboxConcurrencyTests {
  /// A flush works on at most `width(instances)` devices at once (the commands cap it by the
  /// open-file limit, as sync and fleet test do) and still sends every entry.
  @Test func aFlushKeepsToItsWidth() async throws {
    let profiles = (0..<6).map { DeviceProfile(name: "D\($0)", smsCount: 0) }
    let harness = try await FeatureHarness(.messages, devices: profiles, timeout: 2)
    for device in harness.devices { device.setFaults([FaultRule(.down)]) }
    for profile in profiles {
      let queued = try await harness.run(
        ["messages", "send", "--from", profile.name, "--to", "10086", "--text", "hi"])
      #expect((queued.payload as? OutboxEntry)?.state == .queued)
    }
    // Each device answers after 150 ms, so unbounded sends would all be in flight together.
    for device in harness.devices {
      device.setFaults([FaultRule(.latency(milliseconds: 150, jitter: 0))])
    }
    let transport = SendCountingTransport(harness.connector.transport)
    let connector = SimAdminConnector(transport: transport, timeout: 5, userAgentVersion: "test")
    let asked = Locked<[Int]>([])
    let touched = try await OutboxProcessor(
      outbox: OutboxRepository(store: harness.store), connector: connector
    ).flush { count in
      asked.withLock { $0.append(count) }
      return 2
    }
    #expect(asked.withLock { $0 } == [6], "the width is asked once, for the 6 instances due")
    #expect(touched.count == 6 && touched.allSatisfy { $0.state == .sent })
    let widest = transport.state.withLock { $0.widest }
    #expect(widest >= 1 && widest <= 2, "at most 2 devices at once, saw \(widest)")
    for device in harness.devices { #expect(device.messages().count == 1) }
    await harness.stop()
  }
}
