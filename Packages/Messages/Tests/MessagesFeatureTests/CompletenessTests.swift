import Essentials
import FeatureKitTesting
import Foundation
import LocalStore
import SimAdminClient
import SimAdminSimulator
import Testing
import ViewKit

@testable import MessagesFeature

/// Issue 14: the archive holds exactly the device's rows (count and content, multiplicity
/// included) plus those deleted on the device, whatever the device does. Every test runs
/// against the simulator over HTTP and a real SQLite file.
@Suite("Completeness")
struct CompletenessTests {
  /// The device's rows as a sorted multiset.
  static func device(_ harness: FeatureHarness, _ index: Int = 0) -> [String] {
    harness.devices[index].messages().map(messageIdentity).sorted()
  }

  /// The archive's rows of one instance as a sorted multiset.
  static func archived(_ harness: FeatureHarness, _ index: Int = 0) throws -> [String] {
    try harness.archive.list(
      filter: MessageFilter(instanceID: harness.instances[index].id), limit: 1_000_000
    ).map(messageIdentity).sorted()
  }

  static func sync(_ harness: FeatureHarness, pageSize: Int = 100, full: Bool = false) async
    -> InstanceSyncResult
  {
    await harness.syncer(pageSize: pageSize, full: full).syncOne(harness.instances[0])
  }

  /// A harness with one device `A` of `smsCount` messages (`seed`), archived by a first sync.
  static func synced(smsCount: Int, seed: UInt64) async throws -> (FeatureHarness, SimulatedDevice)
  {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: smsCount, seed: seed)])
    _ = await sync(harness)
    return (harness, harness.devices[0])
  }

  static func ago(days: Double) -> Date { Date().addingTimeInterval(-days * 86_400) }

  @Test("identical rows stay as many: two outgoing 收到 in one second and 2,000 more")
  func identicalRows() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 30)])
    let device = harness.devices[0]
    let second = Date().addingTimeInterval(-60)
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "收到", at: second)
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "收到", at: second)
    let first = await Self.sync(harness, pageSize: 7)
    #expect(first.failure == nil)
    #expect(try Self.archived(harness) == Self.device(harness))
    #expect(try Self.archived(harness).count == 32)

    let burst = Date().addingTimeInterval(-30)
    for _ in 0..<2_000 {
      device.storeSMS(direction: "outgoing", phoneNumber: "95588", content: "好的", at: burst)
    }
    let later = await Self.sync(harness, pageSize: 300)
    #expect(later.failure == nil)
    #expect(later.inserted == 2_000)
    #expect(try Self.archived(harness) == Self.device(harness))
    // Reading them all again, on overlapping pages, adds nothing.
    let again = await Self.sync(harness, pageSize: 300, full: true)
    #expect(again.deepRead == "full")
    #expect(again.inserted == 0)
    #expect(try Self.archived(harness) == Self.device(harness))
    await harness.stop()
  }

  @Test("late messages below the archived ones are found by the next sync")
  func lateMessages() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 300, seed: 7)])
    let device = harness.devices[0]
    #expect(await Self.sync(harness).deepRead == "first")
    for index in 0..<5 {
      device.receiveSMS(
        from: "95588", content: "late \(index)", at: Self.ago(days: 20 - 0.1 * Double(index)))
    }
    let later = await Self.sync(harness)
    #expect(later.failure == nil)
    #expect(later.deepRead == "unaccounted")
    #expect(later.inserted == 5)
    #expect(later.reportedTotal == 305)
    #expect(try Self.archived(harness) == Self.device(harness))
    // Nothing missing now: one round trip (stats and the first small page together).
    device.clearRequests()
    let quiet = await Self.sync(harness)
    #expect(quiet.deepRead == nil)
    #expect(quiet.pages == 1)
    #expect(
      device.requests().map { $0.target.split(separator: "?")[0] }.sorted() == [
        "/api/sms/list", "/api/sms/stats",
      ])
    await harness.stop()
  }

  @Test("a clock that fell back to 2000-01-01: all 100 messages archived")
  func clockReset() async throws {
    let (harness, device) = try await Self.synced(smsCount: 200, seed: 8)
    let fallback = try #require(BeijingTime.date(from: "2000-01-01 00:00:00"))
    for index in 0..<100 {
      device.receiveSMS(
        from: "1069\(index)", content: "reset \(index)",
        at: fallback.addingTimeInterval(Double(index)))
    }
    let later = await Self.sync(harness)
    #expect(later.inserted == 100)
    #expect(try Self.archived(harness) == Self.device(harness))
    await harness.stop()
  }

  @Test("renumbered ids (reset, restore, compaction) never duplicate and never hide new rows")
  func renumberedIDs() async throws {
    let (harness, device) = try await Self.synced(smsCount: 300, seed: 9)
    let before = try Self.archived(harness)

    // Deletes leave gaps; a restore renumbers what is left from 1.
    device.deleteMessages(ids: [10, 50, 120, 299])
    device.renumberMessages()
    device.receiveSMS(from: "10010", content: "after the restore")
    let restored = await Self.sync(harness)
    #expect(restored.failure == nil)
    #expect(restored.inserted == 1)
    #expect(try Self.archived(harness).count == 301)

    // A reset keeping the newest 20, then more new messages than the archive's newest id.
    device.resetDatabase(keepingMessages: 20)
    for index in 0..<350 { device.receiveSMS(from: "10690", content: "fresh \(index)") }
    let reset = await Self.sync(harness)
    #expect(reset.failure == nil)
    #expect(reset.inserted == 350)
    let archived = try Self.archived(harness)
    #expect(archived.count == 651)
    #expect(Set(before).isSubset(of: Set(archived)))
    #expect(Set(Self.device(harness)).isSubset(of: Set(archived)))
    // And the next syncs stay put.
    #expect(await Self.sync(harness).inserted == 0)
    #expect(await Self.sync(harness, full: true).inserted == 0)
    #expect(try Self.archived(harness).count == 651)
    await harness.stop()
  }

  @Test("device-side deletes stay archived and cost no deep read")
  func deviceDeletes() async throws {
    let (harness, device) = try await Self.synced(smsCount: 120, seed: 10)
    let all = Self.device(harness)
    let ids = device.messages().map(\.id)
    device.deleteMessages(ids: [ids[3], ids[60], ids[110]])
    let later = await Self.sync(harness)
    #expect(later.failure == nil)
    #expect(later.deepRead == nil)
    #expect(later.reportedTotal == 117)
    #expect(try Self.archived(harness) == all)
    await harness.stop()
  }

  /// The rows a later sync's first page holds (``MessageSyncer/laterFirstPage``).
  static func firstPage(_ device: SimulatedDevice) -> [SimulatedSMS] {
    Array(device.messages().prefix(20))
  }

  /// The first row of `direction` below the first `skipping` rows, newest first.
  static func row(_ device: SimulatedDevice, _ direction: String, skipping: Int = 100) throws
    -> SimulatedSMS
  {
    try #require(device.messages().dropFirst(skipping).first { $0.direction == direction })
  }

  @Test("one device-side delete and one late message in the same interval")
  func deleteAndLate() async throws {
    let (harness, device) = try await Self.synced(smsCount: 200, seed: 11)
    var expected = Self.device(harness)

    // The total stays 200; a message after the late one shows its id was skipped.
    device.deleteMessages(ids: [device.messages()[150].id])
    let late = device.receiveSMS(from: "95588", content: "late one", at: Self.ago(days: 15))
    let next = device.receiveSMS(from: "10086", content: "on time")
    expected += [messageIdentity(late), messageIdentity(next)]
    let later = await Self.sync(harness)
    #expect(later.reportedTotal == 201)
    #expect(later.deepRead == "unaccounted")
    #expect(try Self.archived(harness) == expected.sorted())

    device.deleteMessages(ids: [device.messages()[90].id])
    let third = device.receiveSMS(from: "95588", content: "late three", at: Self.ago(days: 13))
    device.deleteMessages(ids: [device.messages()[80].id])
    let fourth = device.receiveSMS(from: "95588", content: "late four", at: Self.ago(days: 12))
    let after = device.receiveSMS(from: "10086", content: "next")
    expected += [third, fourth, after].map(messageIdentity)
    let exposed = await Self.sync(harness)
    #expect(exposed.deepRead == "unaccounted")
    #expect(try Self.archived(harness) == expected.sorted())
    await harness.stop()
  }

  /// The total is unchanged, but `/api/sms/stats` counts outgoing rows apart: one direction
  /// is a row short, the other a row over, so the same sync reads deep.
  @Test("a delete in one direction and a late message in the other: found by the same sync")
  func deleteAndLateAcrossDirections() async throws {
    let (harness, device) = try await Self.synced(smsCount: 200, seed: 15)
    var expected = Self.device(harness)

    device.deleteMessages(ids: [try Self.row(device, "outgoing").id])
    let late = device.receiveSMS(from: "95588", content: "late, incoming", at: Self.ago(days: 15))
    #expect(!Self.firstPage(device).contains(late))
    expected.append(messageIdentity(late))
    let incoming = await Self.sync(harness)
    #expect(incoming.reportedTotal == 200)
    #expect(incoming.deepRead == "unaccounted")
    #expect(try Self.archived(harness) == expected.sorted())

    device.deleteMessages(ids: [try Self.row(device, "incoming").id])
    let sent = device.storeSMS(
      direction: "outgoing", phoneNumber: "10010", content: "late, outgoing",
      at: Self.ago(days: 14))
    #expect(!Self.firstPage(device).contains(sent))
    expected.append(messageIdentity(sent))
    let outgoing = await Self.sync(harness)
    #expect(outgoing.reportedTotal == 200)
    #expect(outgoing.deepRead == "unaccounted")
    #expect(try Self.archived(harness) == expected.sorted())

    // Accounted again per direction: the next sync is one round trip, no deep read.
    device.clearRequests()
    let quiet = await Self.sync(harness)
    #expect(quiet.deepRead == nil)
    #expect(device.requests().count == 2)
    #expect(try Self.archived(harness) == expected.sorted())
    await harness.stop()
  }

  /// What one round trip cannot show: an incoming row deleted and a late incoming message
  /// below the first page, nothing else. Every count is as before and no id is skipped among
  /// the rows read; the next new message (its id jumps by two), `--full` and the daily read
  /// each find it.
  @Test("an incoming delete and a late incoming message alone: next message, --full, daily")
  func deleteAndLateSameDirection() async throws {
    let (harness, device) = try await Self.synced(smsCount: 200, seed: 16)
    var expected = Self.device(harness)

    /// One incoming row deleted and one incoming late message: the sync that follows sees
    /// nothing missing.
    func hide(_ content: String, days: Double) async throws -> String {
      device.deleteMessages(ids: [try Self.row(device, "incoming").id])
      let late = device.receiveSMS(from: "95588", content: content, at: Self.ago(days: days))
      #expect(!Self.firstPage(device).contains(late))
      let blind = await Self.sync(harness)
      #expect(blind.deepRead == nil)
      #expect(blind.reportedTotal == device.messages().count)
      #expect(try !Self.archived(harness).contains(messageIdentity(late)))
      return messageIdentity(late)
    }

    // The next message exposes it: its id is two above the newest accounted.
    expected.append(try await hide("late, before a message", days: 15))
    let next = device.receiveSMS(from: "10086", content: "on time")
    expected.append(messageIdentity(next))
    let exposed = await Self.sync(harness)
    #expect(exposed.deepRead == "unaccounted")
    #expect(exposed.inserted == 2)
    #expect(try Self.archived(harness) == expected.sorted())

    // --full reads every row.
    expected.append(try await hide("late, before --full", days: 14))
    let full = await Self.sync(harness, full: true)
    #expect(full.deepRead == "full")
    #expect(full.inserted == 1)
    #expect(try Self.archived(harness) == expected.sorted())

    // The daily read: not a second before the interval, then at once.
    expected.append(try await hide("late, before the daily read", days: 13))
    harness.testStore.clock.advance(by: MessageSyncer.deepReadInterval - 60)
    #expect(await Self.sync(harness).deepRead == nil)
    harness.testStore.clock.advance(by: 61)
    let periodic = await Self.sync(harness)
    #expect(periodic.deepRead == "periodic")
    #expect(periodic.inserted == 1)
    #expect(try Self.archived(harness) == expected.sorted())
    await harness.stop()
  }

  /// `/api/sms/stats` `incoming` counts status `received` only; the check counts incoming rows
  /// as `total − outgoing`, so rows changing status (read marks, say) are no missing rows.
  @Test("status changes move the stats' incoming count but cost no deep read")
  func statusChanges() async throws {
    let (harness, device) = try await Self.synced(smsCount: 150, seed: 18)
    func received() -> Int {
      device.messages().count { $0.direction == "incoming" && $0.status == "received" }
    }
    for round in 0..<4 {
      let before = received()
      let marked = device.messages().filter { $0.status == "received" }.prefix(5).map(\.id)
      device.setStatus("read", ids: Array(marked))
      if round % 2 == 1 { _ = device.receiveSMS(from: "10086", content: "on time \(round)") }
      #expect(received() == before - 5 + round % 2)
      let result = await Self.sync(harness)
      #expect(result.failure == nil)
      #expect(result.deepRead == nil, "round \(round)")
    }
    #expect(try Self.archived(harness) == Self.device(harness))
    await harness.stop()
  }

  /// The simulator's own faults: live traffic where every third message is late (a month
  /// old, below every page a later sync reads) and every second tick deletes a random row,
  /// with identical outgoing pairs. Whatever the device held at any sync is archived once.
  @Test("the simulator's late messages and deletes under traffic: every row held is archived")
  func lateAndDeletesFromTheSimulator() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(
          name: "A", smsCount: 200, seed: 17,
          smsCases: [.late(minutes: 30 * 1_440), .deletes(every: 2), .identical])
      ], devicesOnTestClock: true)
    let device = harness.devices[0]
    // Every row the device held when a sync began, by device id (ids are never renumbered
    // here), so identical rows count as many as they are.
    var held: [Int64: String] = [:]
    for message in device.messages() { held[message.id] = messageIdentity(message) }
    #expect(await Self.sync(harness).failure == nil)
    var deep = 0
    for interval in 0..<24 {
      // A minute between syncs: a device's clock moves, so identical pairs of different
      // intervals are stamped in different seconds (two rows of one second and content on
      // both sides of a sync, one gone, read as a restore: see settleReappearances).
      harness.clock.advance(by: 60)
      device.receiveLiveTraffic(count: interval % 4 + 1)
      for message in device.messages() { held[message.id] = messageIdentity(message) }
      let result = await Self.sync(harness)
      #expect(result.failure == nil)
      if result.deepRead != nil { deep += 1 }
    }
    #expect(deep > 0)
    // A last message exposes a late one still hidden behind a delete of its direction.
    device.setSMSCases([])
    let last = device.receiveSMS(from: "10086", content: "after the traffic")
    held[last.id] = messageIdentity(last)
    #expect(await Self.sync(harness).failure == nil)
    #expect(try Self.archived(harness) == held.values.sorted())
    let full = await Self.sync(harness, full: true)
    #expect(full.inserted == 0)
    #expect(try Self.archived(harness) == held.values.sorted())
    await harness.stop()
  }

  /// Issue 14 allows "for what arrived between the two answers" (stats and the first page
  /// sent together). That allowance must not hide a late message: a device-side delete in
  /// one interval on a device with traffic, then a late message alone in the next.
  @Test("a delete with traffic, then a late message in the next interval")
  func deleteThenLateNextInterval() async throws {
    let (harness, device) = try await Self.synced(smsCount: 120, seed: 13)

    // Interval 1: one row deleted deep in the history, one message on time: the total is
    // unchanged, the count is short by the delete; accepted without a deep read.
    device.deleteMessages(ids: [device.messages()[90].id])
    _ = device.receiveSMS(from: "10086", content: "on time")
    let accepted = await Self.sync(harness)
    #expect(accepted.deepRead == nil)
    #expect(accepted.inserted == 1)

    // Interval 2: only a late message, stamped below every row (so below the first page).
    _ = device.receiveSMS(from: "95588", content: "late after a delete", at: Self.ago(days: 3650))
    let later = await Self.sync(harness)
    #expect(later.deepRead == "unaccounted")
    #expect(try Self.archived(harness).contains { $0.contains("late after a delete") })
    // Everything the device holds is archived (the deleted row stays archived too).
    #expect(Set(Self.device(harness)).isSubset(of: Set(try Self.archived(harness))))
    await harness.stop()
  }

  @Test("without /api/sms/stats a late message is found by the ids, and hourly")
  func withoutStats() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "A", smsCount: 150, seed: 12, smsCases: [.noStats])
      ])
    let device = harness.devices[0]
    let first = await Self.sync(harness)
    #expect(first.failure == nil)
    #expect(first.reportedTotal == nil)
    device.receiveSMS(from: "95588", content: "late", at: Self.ago(days: 20))
    device.receiveSMS(from: "10086", content: "after it")
    let later = await Self.sync(harness)
    #expect(later.deepRead == "unaccounted")
    #expect(try Self.archived(harness) == Self.device(harness))

    device.receiveSMS(from: "95588", content: "late, newest", at: Self.ago(days: 19))
    #expect(await Self.sync(harness).deepRead == nil)
    harness.testStore.clock.advance(by: MessageSyncer.deepReadIntervalWithoutStats + 1)
    #expect(await Self.sync(harness).deepRead == "periodic")
    #expect(try Self.archived(harness) == Self.device(harness))
    await harness.stop()
  }

  @Test("bursts while a sync pages, and steady traffic without a deep read every time")
  func liveTraffic() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "A", smsCount: 400, seed: 13, smsCases: [.burst(count: 3)])
      ])
    let device = harness.devices[0]
    let first = await Self.sync(harness, pageSize: 50)
    #expect(first.failure == nil)
    #expect(first.pages > 8)
    device.setSMSCases([])
    _ = await Self.sync(harness, pageSize: 50)
    #expect(try Self.archived(harness) == Self.device(harness))

    // Steady traffic (identical pairs among it) during 12 syncs: no deep read every time.
    device.setSMSCases([.identical])
    var deep = 0
    try await Self.whileTrafficRuns(on: device) {
      for _ in 0..<12 {
        let result = await Self.sync(harness, pageSize: 50)
        #expect(result.failure == nil)
        if result.deepRead != nil { deep += 1 }
        try await Task.sleep(for: .milliseconds(40))
      }
    }
    // A message between the stats and the page answer can cost one now and then, no more.
    #expect(deep <= 3)
    _ = await Self.sync(harness, pageSize: 50)
    #expect(try Self.archived(harness) == Self.device(harness))

    // Late messages among the traffic: found while it runs, exactly once.
    device.setSMSCases([.late(minutes: 600), .identical, .burst(count: 2)])
    try await Self.whileTrafficRuns(on: device) {
      for _ in 0..<6 {
        #expect(await Self.sync(harness, pageSize: 50).failure == nil)
      }
    }
    device.setSMSCases([])
    _ = await Self.sync(harness, pageSize: 50)
    #expect(try Self.archived(harness) == Self.device(harness))
    await harness.stop()
  }

  /// Runs `body` while `device` receives a live message every 5 ms.
  static func whileTrafficRuns(
    on device: SimulatedDevice, _ body: () async throws -> Void
  ) async throws {
    let running = Locked(true)
    let traffic = Task.detached {
      while running.current {
        device.receiveLiveTraffic(count: 1)
        try? await Task.sleep(for: .milliseconds(5))
      }
    }
    defer { running.withLock { $0 = false } }
    try await body()
    running.withLock { $0 = false }
    await traffic.value
  }

  @Test("invalid UTF-8 becomes U+FFFD, marked as repaired in show and --json")
  func invalidUTF8() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 3)])
    let device = harness.devices[0]
    let raw: [UInt8] = Array("验证码 ".utf8) + [0xFF, 0xC3] + Array(" 4821".utf8)
    device.storeSMS(direction: "incoming", phoneNumber: "10690", content: "", contentBytes: raw)
    device.storeSMS(direction: "incoming", phoneNumber: "10690", content: "clean \u{FFFD} text")
    let result = await Self.sync(harness)
    #expect(result.failure == nil)
    let rows = try harness.archive.list(filter: MessageFilter(peerKey: "10690"), limit: 10)
    let broken = try #require(rows.first { $0.body.hasPrefix("验证码") })
    #expect(broken.body == "验证码 \u{FFFD}\u{FFFD} 4821")
    #expect(broken.repaired)
    #expect(rows.first { $0.body.hasPrefix("clean") }?.repaired == false)
    #expect(try Self.archived(harness) == Self.device(harness))

    let show = try await harness.run(["messages", "show", "10690"])
    #expect(
      TextRenderer.render(show.view, options: RenderOptions(width: 100)).contains(
        "invalid UTF-8 from the device replaced"))
    let json = String(decoding: try JSONOutputTest.encode(show.payload), as: UTF8.self)
    #expect(json.contains(#""repaired":true"#))
    #expect(json.contains(#""repaired":false"#))
    await harness.stop()
  }

  @Test("messages stats shows per instance what the device reports and what is archived")
  func statsCommand() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "A", smsCount: 25, seed: 1),
        DeviceProfile(name: "B", smsCount: 12, seed: 2, smsCases: [.noStats]),
      ])
    _ = await harness.syncer(pageSize: 10).sync(harness.instances)
    harness.devices[0].deleteMessages(ids: [1, 2])
    _ = await harness.syncer(pageSize: 10).sync(harness.instances)
    let result = try await harness.run(["messages", "stats"])
    let stats = try #require(result.payload as? ArchiveStats)
    let a = try #require(stats.instances.first { $0.instanceName == "A" })
    #expect(a.deviceReported == 23)
    #expect(a.count == 25)
    let b = try #require(stats.instances.first { $0.instanceName == "B" })
    #expect(b.deviceReported == nil)
    #expect(b.count == 12)
    let text = TextRenderer.render(result.view, options: RenderOptions(width: 100))
    #expect(text.contains("On device"))
    #expect(text.contains("Archived"))
    await harness.stop()
  }

  @Test("a version 2 archive upgrades and gets back identical messages it had merged")
  func upgradesVersion2() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 20)],
      store: .messagesArchive(version: 2))
    let device = harness.devices[0]
    let second = Date().addingTimeInterval(-90)
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "收到", at: second)
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "收到", at: second)
    // What version 2 archived: one row per identity, so one 收到.
    let instance = harness.instances[0].id
    var keys = Set<String>()
    for message in device.messages() {
      let key = MessageIdentity.key(
        instanceID: instance, direction: message.direction, peer: message.phoneNumber,
        timestamp: message.timestamp, body: message.content, marker: message.pdu)
      guard keys.insert(key).inserted else { continue }
      try harness.store.database.run(
        """
        INSERT INTO messages (instance_id, instance_name, direction, peer_raw, peer_key, body,
          device_at, device_timestamp, status, upstream_id, marker, dedupe_key, synced_at)
        VALUES (?, 'A', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          instance, message.direction, message.phoneNumber, PeerNumber.key(message.phoneNumber),
          message.content, BeijingTime.date(from: message.timestamp) ?? Date(), message.timestamp,
          message.status, message.id, message.pdu, key, Date(),
        ])
    }
    try harness.store.database.run(
      "INSERT INTO message_sync_state (instance_id, instance_name, history_complete) VALUES (?, 'A', 1)",
      [instance])
    #expect(try harness.store.schemaVersions()["messages"] == 2)

    let upgraded = try Store.open(
      directory: harness.testStore.directory.url, modules: [Messages.schema],
      clock: harness.testStore.clock.clock)
    #expect(try upgraded.schemaVersions()["messages"] == Messages.schema.latestVersion)
    let archive = MessageArchive(store: upgraded)
    #expect(try archive.count() == 21)
    let syncer = MessageSyncer(
      archive: archive, connector: harness.connector, clock: harness.testStore.clock.clock)
    let result = await syncer.syncOne(harness.instances[0])
    #expect(result.deepRead == "first")
    #expect(result.inserted == 1)
    #expect(try archive.list(limit: 100).map(messageIdentity).sorted() == Self.device(harness))
    #expect(try upgraded.database.integrityCheck().isEmpty)
    await harness.stop()
  }
}
