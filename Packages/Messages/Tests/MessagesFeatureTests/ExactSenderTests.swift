import CommandLineKit
import Essentials
import EssentialsTesting
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import LocalStoreTesting
import SimAdminClient
import SimAdminSimulator
import Testing
import ViewKit

@testable import MessagesFeature

/// Issue 36 point 7: `1-0086`, `(10086)`, `10 086`, `10.086` and `-10086` were all `10086` —
/// one conversation, and `code --from 10086` printed the code `-10086` sent. Only the
/// documented forms of a mobile number equal the bare number; every other sender compares
/// exactly.
@Suite("Exact senders", .serialized)
struct ExactSenderTests {
  /// The key an older version computed: separators dropped, letters lowered, `+86`/`0086`
  /// before a mobile number dropped.
  static func legacyKey(_ raw: String) -> String {
    let dropped: Set<Character> = [" ", "-", "(", ")", ".", "\u{00A0}", "\t"]
    let compact = String(raw.filter { !dropped.contains($0) })
    for prefix in ["+86", "0086"] where compact.hasPrefix(prefix) {
      let rest = compact.dropFirst(prefix.count)
      if rest.count == 11, rest.first == "1", rest.allSatisfy({ $0.isASCII && $0.isNumber }) {
        return String(rest)
      }
    }
    return compact.lowercased()
  }

  static let spoofs = ["1-0086", "(10086)", "10 086", "10.086", "-10086", "10086 ", "１００８６"]

  @Test(
    "the documented forms of a mobile number are the bare number",
    arguments: [
      "13800138000", "+8613800138000", "008613800138000", "8613800138000", "+86 138-0013-8000",
      "+86 138 0013 8000", "+86-13800138000", "0086 138 0013 8000", "138-0013-8000",
      "138 0013 8000",
    ])
  func mobileForms(raw: String) {
    #expect(PeerNumber.key(raw) == "13800138000")
  }

  @Test(
    "every other sender is its own key, exactly as written",
    arguments: spoofs + [
      "10086", "+8610086", "Google", "GOOGLE", "google", "+447503918604", "-13800138000",
      "13800138000-", "(138) 0013 8000", "138--0013-8000", "+86  13800138000", "+86(138)00138000",
      "138.0013.8000", "1380013800", "138001380001", "23800138000", "+8523800138000", "",
    ])
  func exactKeys(raw: String) {
    #expect(PeerNumber.key(raw) == raw)
  }

  @Test("Tab completes a beginning mobile form by its digits, anything else as typed")
  func completionPrefix() {
    #expect(PeerNumber.keyPrefix("+86 138") == "138")
    #expect(PeerNumber.keyPrefix("0086138-0013") == "1380013")
    #expect(PeerNumber.keyPrefix("138") == "138")
    #expect(PeerNumber.keyPrefix("1-00") == "1-00")
    #expect(PeerNumber.keyPrefix("-100") == "-100")
    #expect(PeerNumber.keyPrefix("(100") == "(100")
    #expect(PeerNumber.keyPrefix("Goo") == "Goo")
    #expect(PeerNumber.keyPrefix("+86") == "+86")
  }

  @Test("spoofed short codes stay apart: conversations, --peer, show and code --from")
  func spoofedSendersStayApart() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)])
    let device = harness.devices[0]
    let start = harness.testStore.clock.clock.now().addingTimeInterval(-120)
    _ = device.receiveSMS(from: "10086", content: "【中国移动】您的验证码是111111", at: start)
    for (index, spoof) in Self.spoofs.enumerated() {
      _ = device.receiveSMS(
        from: spoof, content: "【中国移动】您的验证码是22222\(index)",
        at: start.addingTimeInterval(Double(10 + index)))
    }
    _ = device.receiveSMS(
      from: "+86 138-0013-8000", content: "hello", at: start.addingTimeInterval(30))
    _ = device.receiveSMS(from: "13800138000", content: "again", at: start.addingTimeInterval(31))
    _ = device.receiveSMS(
      from: "Google", content: "G-482913 is your code", at: start.addingTimeInterval(32))
    _ = device.receiveSMS(
      from: "GOOGLE", content: "G-999999 is your code", at: start.addingTimeInterval(33))
    _ = try await harness.run(["messages", "sync"])

    let conversations = try harness.archive.conversations(limit: 100)
    // 10086, the seven spoofs, the mobile number (two forms), Google, GOOGLE.
    #expect(conversations.count == 11, "\(conversations.map(\.peerKey))")
    for conversation in conversations {
      let peers = Set(
        try harness.archive.list(filter: MessageFilter(peerKey: conversation.peerKey), limit: 50)
          .map(\.peer))
      if conversation.peerKey == "13800138000" {
        #expect(peers == ["+86 138-0013-8000", "13800138000"])
        #expect(conversation.peer == "13800138000")  // labelled with the newest form
      } else {
        #expect(peers == [conversation.peerKey])
      }
    }

    let streams = CapturedStreams()
    var environment = harness.environment
    environment.streams = streams.streams
    _ = try await harness.run(["code", "--from", "10086"], environment: environment)
    #expect(streams.output == "111111\n")
    for (index, spoof) in Self.spoofs.enumerated() {
      let spoofed = CapturedStreams()
      environment.streams = spoofed.streams
      _ = try await harness.run(["code", "--from", spoof], environment: environment)
      #expect(spoofed.output == "22222\(index)\n", "\(spoof)")
    }
    let google = CapturedStreams()
    environment.streams = google.streams
    _ = try await harness.run(["code", "--from", "Google"], environment: environment)
    #expect(google.output == "482913\n")

    let list = try await harness.run(["messages", "list", "--peer", "10086"])
    let rows = try #require(list.payload as? MessagesCommands.ListPayload).messages
    #expect(rows.map(\.peer) == ["10086"])
    let show = try await harness.run(["messages", "show", "10086"])
    let text = TextRenderer.render(show.view, options: RenderOptions(width: 160))
    #expect(!text.contains("22222"))
    let mobile = try await harness.run(["messages", "list", "--peer", "+86 13800138000"])
    #expect(try #require(mobile.payload as? MessagesCommands.ListPayload).messages.count == 2)
    await harness.stop()
  }

  @Test("an archive whose keys an older version merged is split by the migration")
  func migrationSplitsMergedConversations() throws {
    let directory = try TemporaryDirectory(prefix: "messages-v9")
    let clock = TestClock()
    let version9 = SchemaModule(
      name: "messages", migrations: Array(Messages.schema.migrations.prefix(9)))
    let peers = [
      "10086", "-10086", "10 086", "(10086)", "Google", "GOOGLE", "+86 138-0013-8000",
      "13800138000", "95588",
    ]
    do {
      let old = try Store.open(directory: directory.url, modules: [version9], clock: clock.clock)
      for (index, peer) in peers.enumerated() {
        try old.database.run(
          """
          INSERT INTO messages (instance_id, instance_name, direction, peer_raw, peer_key, body,
            device_at, device_timestamp, status, upstream_id, marker, dedupe_key, synced_at)
          VALUES ('i1', 'A', 'incoming', ?, ?, ?, ?, ?, 'received', ?, NULL, ?, ?)
          """,
          [
            peer, Self.legacyKey(peer), "验证码 \(100_000 + index)",
            Date(timeIntervalSince1970: 1_767_225_600 + Double(index)),
            "2026-01-01 08:00:0\(index)", index + 1, "key\(index)", clock.clock.now(),
          ])
      }
      let merged = try MessageArchive(store: old).conversations(limit: 100)
      #expect(merged.count == 4)  // 10086, google, the mobile number, 95588
    }
    let store = try Store.open(
      directory: directory.url, modules: [Messages.schema], clock: clock.clock)
    #expect(try store.schemaVersions()["messages"] == Messages.schema.latestVersion)
    let archive = MessageArchive(store: store)
    let conversations = try archive.conversations(limit: 100)
    #expect(
      Set(conversations.map(\.peerKey))
        == ["10086", "-10086", "10 086", "(10086)", "Google", "GOOGLE", "13800138000", "95588"])
    #expect(
      try archive.list(filter: MessageFilter(peerKey: "10086"), limit: 10).map(\.peer) == ["10086"])
    #expect(try archive.list(limit: 100).count == peers.count)
    #expect(try store.database.integrityCheck().isEmpty)
  }
}
