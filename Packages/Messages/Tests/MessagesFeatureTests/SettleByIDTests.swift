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

/// Ingest settles a message whose id holds the same content in the current epoch by its id
/// (reading and hashing only the other messages' archived rows); these tests compare it with
/// matching every message by its identity parts, over the same pages into two archives.
@Suite("Ingest settles known messages by id")
struct SettleByIDTests {
  struct Row {
    var id: Int
    var outgoing: Bool
    var peer: String
    var body: String
    var at: String
  }

  static func page(_ rows: [Row]) throws -> [SmsMessage] {
    let objects = rows.map { row -> [String: Any] in
      var object: [String: Any] = [
        "id": row.id, "direction": row.outgoing ? "outgoing" : "incoming",
        "phone_number": row.peer, "content": row.body, "timestamp": row.at,
        "status": row.outgoing ? "sent" : "received",
      ]
      if !row.outgoing, row.id % 3 == 0 { object["pdu"] = "mmfp:\(row.body.count)" }
      return object
    }
    return try JSONDecoder().decode(
      [SmsMessage].self, from: JSONSerialization.data(withJSONObject: objects))
  }

  /// Everything ingest decides, row by row.
  static func contents(_ store: Store) throws -> [String] {
    try store.database.query(
      """
      SELECT id, instance_id, direction, peer_raw, body, device_timestamp, upstream_id, marker,
        dedupe_key, id_epoch, occurrence, code FROM messages ORDER BY id
      """
    ).map { row in
      try [
        String(row.int64("id")), row.string("instance_id"), row.string("direction"),
        row.string("peer_raw"), row.string("body"), row.string("device_timestamp"),
        row.optionalInt64("upstream_id").map(String.init) ?? "-",
        row.optionalString("marker") ?? "-", row.string("dedupe_key"),
        String(row.int64("id_epoch")), String(row.int64("occurrence")),
        row.optionalString("code") ?? "-",
      ].joined(separator: "|")
    }
      + store.database.query(
        "SELECT instance_id, id_epoch FROM message_sync_state ORDER BY instance_id"
      ).map { try "\($0.string("instance_id")) epoch \($0.int64("id_epoch"))" }
  }

  @Test(
    "random pages (known, new, identical, renumbered, reset ids, several instances and pages per transaction): the same results and rows",
    arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func sameAnswers(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let clock = TestClock()
    let fast = try TemporaryDirectory(prefix: "settle-fast")
    let slow = try TemporaryDirectory(prefix: "settle-slow")
    let fastStore = try Store.open(
      directory: fast.url, modules: [Messages.schema], clock: clock.clock)
    let slowStore = try Store.open(
      directory: slow.url, modules: [Messages.schema], clock: clock.clock)
    let archives = [MessageArchive(store: fastStore), MessageArchive(store: slowStore)]
    let bodies = ["收到", "您的验证码 482913", "话费余额 12.30 元", "OK", "Telegram code 55120"]
    let stamps = (0..<6).map { "2026-03-01 10:00:0\($0)" }
    // Each instance's device: its rows, newest first; ids grow until a reset.
    var devices: [String: [Row]] = ["i1": [], "i2": []]
    var nextID: [String: Int] = ["i1": 1, "i2": 1]
    var settled = 0
    for round in 0..<40 {
      for instance in devices.keys.sorted() {
        let event = Int.random(in: 0..<10, using: &random)
        if event == 0 {
          // A reset: the ids start again (a renumbering of every row, or new content).
          nextID[instance] = 1
          devices[instance] = devices[instance, default: []].reversed().map { row in
            var row = row
            row.id = nextID[instance, default: 1]
            nextID[instance, default: 1] += 1
            return row
          }.reversed()
        } else if event == 1, let first = devices[instance]?.first {
          // Another row under an id already used (a renumbering met in the middle of a page).
          devices[instance]?.insert(
            Row(
              id: first.id, outgoing: !first.outgoing, peer: first.peer,
              body: first.body + "!", at: first.at), at: 0)
        }
        for _ in 0..<Int.random(in: 0...4, using: &random) {
          let row = Row(
            id: nextID[instance, default: 1], outgoing: Bool.random(using: &random),
            peer: ["10086", "+8613800138000"].randomElement(using: &random) ?? "10086",
            body: bodies.randomElement(using: &random) ?? "OK",
            at: stamps.randomElement(using: &random) ?? stamps[0])
          nextID[instance, default: 1] += 1
          devices[instance, default: []].insert(row, at: 0)
        }
      }
      // One transaction of several pages: each instance's newest rows, sometimes twice.
      var pages: [IngestPage] = []
      for instance in devices.keys.sorted() {
        let rows = devices[instance] ?? []
        let count = min(rows.count, Int.random(in: 1...8, using: &random))
        pages.append(
          IngestPage(
            messages: try Self.page(Array(rows.prefix(count))), instanceID: instance,
            instanceName: instance.uppercased(), syncedAt: clock.clock.now()))
        if round % 5 == 0 {
          pages.append(
            IngestPage(
              messages: try Self.page(Array(rows.prefix(count + 2))), instanceID: instance,
              instanceName: instance.uppercased(), syncedAt: clock.clock.now()))
        }
      }
      let results = try archives[0].ingest(pages, settlingByID: true)
      let reference = try archives[1].ingest(pages, settlingByID: false)
      #expect(results == reference, "round \(round)")
      settled += results.map(\.knownTail).reduce(0, +)
    }
    #expect(try Self.contents(fastStore) == Self.contents(slowStore))
    #expect(try !Self.contents(fastStore).isEmpty)
    #expect(settled > 0)
  }

  @Test("byte comparison of identity parts: the same answers as walking their UTF-8 views")
  func sameBytesMatchesTheWalk() {
    var generator = SystemRandomNumberGenerator()
    let pieces = [
      "", "a", "验证码", "é", "e\u{301}", "\r\n", "😀", "\u{212A}", "K", "123456", "【京东】", " ",
      "ß", "\u{0}", "Å", "A\u{30A}",
    ]
    func text() -> String {
      (0..<Int.random(in: 0...4, using: &generator)).map { _ in
        pieces.randomElement(using: &generator) ?? ""
      }.joined()
    }
    var compared = 0
    var equal = 0
    for _ in 0..<5_000 {
      let a = text()
      let b = Bool.random(using: &generator) ? a : text()
      // Bridged and native strings of the same text too.
      let c =
        Bool.random(using: &generator) ? String(a.utf8.map { Character(Unicode.Scalar($0)) }) : b
      for other in [b, c] {
        let walked = a.utf8.elementsEqual(other.utf8)
        #expect(
          MessageIdentity.Parts.sameBytes(a, other) == walked,
          "\(a.debugDescription) \(other.debugDescription)")
        compared += 1
        if walked { equal += 1 }
      }
    }
    // Canonically equivalent, different bytes: not the same.
    #expect(!MessageIdentity.Parts.sameBytes("é", "e\u{301}"))
    #expect("é" == "e\u{301}")
    #expect(equal > 1_000 && compared - equal > 1_000)
  }

}

/// A fleet's sync prepares every instance at once (one read, one transaction of start marks)
/// and writes each instance's check and end through a group commit; syncing the instances one
/// by one does each of those on its own. Both must leave the same results and sync state.
@Suite("Sync prepared for the whole fleet")
struct PreparedSyncTests {
  /// The sync state columns a sync decides (not its times).
  static func states(_ store: Store) throws -> [String] {
    try store.database.query(
      """
      SELECT instance_id, instance_name, history_complete, in_progress, last_error, id_epoch,
        accounted, accounted_outgoing, newest_id, top_id, allowance, reported_total, sim_number,
        last_deep_at IS NOT NULL AS deep
      FROM message_sync_state ORDER BY instance_id
      """
    ).map { row in row.values.map { "\($0)" }.joined(separator: "|") }
  }

  static func summary(_ results: [InstanceSyncResult]) -> [String] {
    results.map {
      "\($0.instanceID) +\($0.inserted) read \($0.read) pages \($0.pages) "
        + "\($0.completed) \($0.deepRead ?? "-") \($0.reportedTotal ?? -1) \($0.failure ?? "")"
    }
  }

  @Test("first, later and failing syncs: the same results and sync state as one by one")
  func sameAsOneByOne() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: (0..<5).map { DeviceProfile(name: "D\($0)", smsCount: 40 + $0, seed: UInt64($0)) })
    let other = try TestStore(modules: [Messages.schema], clock: harness.clock)
    let together = MessageSyncer(
      archive: harness.archive, connector: harness.connector, pageSize: 15,
      width: 5, clock: harness.clock.clock)
    let alone = MessageSyncer(
      archive: MessageArchive(store: other.store), connector: harness.connector, pageSize: 15,
      width: 5, clock: harness.clock.clock)
    func compare(_ round: String) async throws {
      let first = await together.sync(harness.instances)
      var second: [InstanceSyncResult] = []
      for instance in harness.instances { second.append(await alone.syncOne(instance)) }
      #expect(Self.summary(first) == Self.summary(second), "\(round)")
      #expect(try Self.states(harness.store) == Self.states(other.store), "\(round)")
      // The same messages of each instance (ids and the order of equal times may differ: the
      // instances' pages are written in another order).
      func held(_ archive: MessageArchive) throws -> [String] {
        try archive.list(limit: 10_000).map { "\($0.instanceID) \(messageIdentity($0))" }.sorted()
      }
      #expect(
        try held(harness.archive) == held(MessageArchive(store: other.store)), "\(round)")
    }
    try await compare("first sync")
    for (index, device) in harness.devices.enumerated() {
      for number in 0..<(index * 3) { device.receiveSMS(from: "10086", content: "new \(number)") }
    }
    try await compare("later sync")
    harness.devices[2].setFaults([FaultRule(.serverError)])
    harness.devices[4].receiveSMS(from: "95555", content: "余额 1.00")
    try await compare("a failing device")
    harness.devices[2].setFaults([])
    try await compare("after the failure")
    #expect(try Self.states(harness.store).count == 5)
    await harness.stop()
  }
}
