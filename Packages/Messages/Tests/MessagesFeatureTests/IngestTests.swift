import Essentials
import EssentialsTesting
import FeatureKitTesting
import Foundation
import LocalStore
import LocalStoreTesting
import SimAdminClient
import SimAdminSimulator
import Testing

@testable import MessagesFeature

@Suite("Ingest and later syncs")
struct IngestTests {
  /// Device messages as SimAdmin's list returns them (newest first).
  static func page(_ rows: [(id: Int, peer: String, body: String, at: String)]) throws
    -> [SmsMessage]
  {
    let objects = rows.map { row -> [String: Any] in
      [
        "id": row.id, "direction": "incoming", "phone_number": row.peer, "content": row.body,
        "timestamp": row.at, "status": "received", "pdu": "mmfp:\(row.id)",
      ]
    }
    return try JSONDecoder().decode(
      [SmsMessage].self, from: JSONSerialization.data(withJSONObject: objects))
  }

  static let sample: [(id: Int, peer: String, body: String, at: String)] = [
    (3, "10086", "您的验证码 482913，5分钟内有效", "2026-03-01 10:00:02"),
    (2, "+8613800138000", "话费余额 12.30 元", "2026-03-01 10:00:01"),
    (1, "Telegram", "Telegram code 55120", "2026-03-01 10:00:00"),
  ]

  @Test("an archive of schema version 1 moves to the identity index with rows, search, dedupe")
  func migratesVersion1() throws {
    let directory = try TemporaryDirectory(prefix: "messages-v1")
    // After the sample's times: a time more than a day ahead of the archive's clock is not
    // believed (DeviceTime).
    let clock = TestClock(start: Date(timeIntervalSince1970: 1_772_400_000))
    let version1 = SchemaModule(
      name: "messages", migrations: Array(Messages.schema.migrations.prefix(1)))
    let messages = try Self.page(Self.sample)
    do {
      // Rows as version 1 wrote them.
      let old = try Store.open(directory: directory.url, modules: [version1], clock: clock.clock)
      for message in messages {
        try old.database.run(
          """
          INSERT INTO messages (instance_id, instance_name, direction, peer_raw, peer_key, body,
            device_at, device_timestamp, status, upstream_id, marker, dedupe_key, synced_at)
          VALUES ('i1', 'A', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            message.direction, message.phoneNumber, PeerNumber.key(message.phoneNumber),
            message.content, message.date ?? clock.clock.now(), message.timestamp,
            message.status, message.id, message.pdu,
            MessageIdentity.key(instanceID: "i1", message: message), clock.clock.now(),
          ])
      }
    }
    let store = try Store.open(
      directory: directory.url, modules: [Messages.schema], clock: clock.clock)
    #expect(try store.schemaVersions()["messages"] == Messages.schema.latestVersion)
    let archive = MessageArchive(store: store)
    #expect(try archive.list(limit: 10).map(\.body) == Self.sample.map(\.body))
    #expect(
      try archive.list(filter: MessageFilter(search: "482913"), limit: 10).map(\.body)
        == [Self.sample[0].body])
    let again = try archive.ingest(
      messages, instanceID: "i1", instanceName: "A", syncedAt: clock.clock.now())
    #expect(again == IngestResult(inserted: 0, known: 3, knownTail: 3))
    let indexes = try store.database.query(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages'"
    ).map { try $0.string("name") }
    #expect(indexes.contains("messages_identity"))
    #expect(try store.database.integrityCheck().isEmpty)
    // The search index is rebuilt behind the watermark (schema version 4), then whole.
    #expect(try archive.catchUpIndex() == 3)
    try store.database.execute(
      "INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)")
  }

  @Test("the same identity from another instance or with another time is a new message")
  func identityParts() throws {
    let test = try TestStore(modules: [Messages.schema])
    let archive = MessageArchive(store: test.store)
    let now = test.clock.clock.now()
    let messages = try Self.page(Self.sample)
    #expect(
      try archive.ingest(messages, instanceID: "a", instanceName: "A", syncedAt: now).inserted == 3)
    #expect(
      try archive.ingest(messages, instanceID: "b", instanceName: "B", syncedAt: now).inserted == 3)
    var later = Self.sample
    later[0].at = "2026-03-01 10:00:05"
    later[0].id = 4
    let result = try archive.ingest(
      Self.page(later), instanceID: "a", instanceName: "A", syncedAt: now)
    #expect(result == IngestResult(inserted: 1, known: 2, knownTail: 2))
  }

  @Test("a later sync with a few new messages reads one short page, late arrivals included")
  func laterSyncReadsOnePage() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 300, seed: 4)])
    let syncer = harness.syncer(pageSize: 100)
    let first = await syncer.syncOne(harness.instances[0])
    #expect(first.inserted == 300)
    let device = harness.devices[0]
    for index in 0..<10 { device.receiveSMS(from: "10690", content: "new \(index)") }
    // Picked up late, stamped with an older network time: below the newest archived ones.
    device.receiveSMS(
      from: "95588", content: "late arrival", at: Date().addingTimeInterval(-6 * 3600))
    let later = await syncer.syncOne(harness.instances[0])
    #expect(later.failure == nil)
    #expect(later.inserted == 11)
    #expect(later.pages == 1)
    #expect(later.read == syncer.laterFirstPage)
    #expect(try harness.all().count == 311)

    for index in 0..<70 { device.receiveSMS(from: "10690", content: "burst \(index)") }
    let burst = await syncer.syncOne(harness.instances[0])
    #expect(burst.inserted == 70)
    #expect(burst.pages == 2)
    #expect(try harness.all().count == 381)
    await harness.stop()
  }

  @Test("pages sharing a transaction: one instance's failing page fails only that instance")
  func failingPageStaysOnItsInstance() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "A", smsCount: 40, seed: 1),
        DeviceProfile(name: "B", smsCount: 40, seed: 2),
        DeviceProfile(name: "C", smsCount: 40, seed: 3),
      ])
    let rejected = harness.instances[1].id
    // An injected fault in the real database: every row of B is refused.
    try harness.store.database.execute(
      """
      CREATE TRIGGER reject_b BEFORE INSERT ON messages WHEN new.instance_id = '\(rejected)'
      BEGIN SELECT RAISE(ABORT, 'injected fault'); END
      """)
    let results = await harness.syncer(pageSize: 10).sync(harness.instances)
    #expect(results.map(\.inserted) == [40, 0, 40])
    #expect(results[0].failure == nil && results[2].failure == nil)
    #expect(results[1].failure?.contains("injected fault") == true)
    #expect(try harness.all().count == 80)
    await harness.stop()
  }

  @Test("the queue answers each page with its own result when pages arrive together")
  func queueAnswersEachPage() async throws {
    let test = try TestStore(modules: [Messages.schema])
    let queue = IngestQueue(archive: MessageArchive(store: test.store))
    let now = test.clock.clock.now()
    let messages = try Self.page(Self.sample)
    async let a = queue.ingest(
      IngestPage(messages: messages, instanceID: "a", instanceName: "A", syncedAt: now))
    async let b = queue.ingest(
      IngestPage(
        messages: Array(messages.prefix(1)), instanceID: "b", instanceName: "B", syncedAt: now))
    async let c = queue.ingest(
      IngestPage(messages: [], instanceID: "c", instanceName: "C", syncedAt: now))
    let results = try await [a, b, c]
    #expect(results.map(\.inserted) == [3, 1, 0])
    let repeated = try await queue.ingest(
      IngestPage(messages: messages, instanceID: "a", instanceName: "A", syncedAt: now))
    #expect(repeated == IngestResult(inserted: 0, known: 3, knownTail: 3))
  }

  @Test("a page prepared by its reading task stores the same rows as one the writer prepares")
  func preparedPageStoresTheSameRows() throws {
    let rows: [(id: Int, peer: String, body: String, at: String)] = [
      (7, "+86 138-0013-8000", "您的验证码 482913，5分钟内有效", "2026-03-01T10:00:06.5"),
      (6, "10086", "话费余额 12.30 元", " 2026-03-01 10:00:05 "),
      (5, "Telegram", "Telegram code 55120", "not a time"),
      (4, "008613800138000", "验证码 1234", "2026-02-29 10:00:03"),
      (3, "95566", "same", "2026-03-01 10:00:02"),
      (2, "95566", "same", "2026-03-01 10:00:02"),
      (1, "", "", "2026-03-01 10:00:00"),
    ]
    let messages = try Self.page(rows)
    var stored: [[String]] = []
    for prepared in [false, true] {
      let test = try TestStore(modules: [Messages.schema])
      let archive = MessageArchive(store: test.store)
      let page = IngestPage(
        messages: messages, instanceID: "a", instanceName: "A",
        syncedAt: Date(timeIntervalSince1970: 1_780_000_000), simNumber: "13800138000",
        hashingNow: prepared, detector: prepared ? .standard : nil)
      #expect(try archive.ingest([page]) == [IngestResult(inserted: 7, known: 0)])
      stored.append(
        try test.store.database.query(
          "SELECT json_array(id, \(MessageArchive.columns)) AS row FROM messages ORDER BY id"
        ).map { try $0.string("row") })
    }
    #expect(stored[0].count == 7)
    #expect(stored[0] == stored[1])
  }

  @Test(
    "SHA-256 matches known digests (empty, one block, two blocks, UTF-8)",
    arguments: [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
      ("验证码", "bb015c60bafc8a96801eb9ae7d19b76f52d869ea143ec54d6060fcafe6710cd6"),
    ])
  func sha256(_ input: String, _ digest: String) {
    #expect(SHA256.hex(Array(input.utf8)) == digest)
  }
}
