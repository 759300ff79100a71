import Essentials
import EssentialsTesting
import Foundation
import Testing

@testable import SimAdminSimulator

@Suite("SMS cases")
struct SMSCaseTests {
  @Test func specParsesEveryCaseAndRefusesBadItems() throws {
    let cases = try SMSCaseSpec.parse(
      "1=late,2=clock-reset,2=identical,3=renumber:20,*=burst:2,1=deletes,2=invalid-utf8,3=no-stats",
      deviceCount: 3)
    #expect(cases[1] == [.late(minutes: 90), .burst(count: 2), .deletes(every: 5)])
    #expect(cases[3] == [.renumber(every: 20), .burst(count: 2), .noStats])
    #expect(try SMSCaseSpec.parse("", deviceCount: 2).isEmpty)
    #expect(throws: SMSCaseSpecError.badItem("late")) {
      try SMSCaseSpec.parse("late", deviceCount: 2)
    }
    #expect(throws: SMSCaseSpecError.badIndex(item: "4=late", deviceCount: 2)) {
      try SMSCaseSpec.parse("4=late", deviceCount: 2)
    }
    #expect(throws: SMSCaseSpecError.unknownCase(item: "1=slow", name: "slow")) {
      try SMSCaseSpec.parse("1=slow", deviceCount: 2)
    }
    #expect(throws: SMSCaseSpecError.badArgument(item: "1=burst:0", argument: "0")) {
      try SMSCaseSpec.parse("1=burst:0", deviceCount: 2)
    }
    let message = SMSCaseSpecError.unknownCase(item: "1=slow", name: "slow")
    #expect(message.localizedMessage(.english).contains("no-stats"))
    #expect(message.localizedMessage(.simplifiedChinese).contains("未知场景"))
  }

  @Test func liveTrafficProducesEachCase() async throws {
    let clock = TestClock()
    let fleet = try await SimulatedFleet.start(
      [DeviceProfile(name: "cases", smsCount: 10)], clock: clock.clock)
    let device = fleet.devices[0]
    let newest = try #require(device.messages().first)

    device.setSMSCases([.late(minutes: 90)])
    device.receiveLiveTraffic(count: 3)
    let late = try #require(device.messages().max { $0.id < $1.id })
    #expect(late.timestamp == BeijingTime.string(from: clock.clock.now() - 5_400))
    #expect(device.messages().first?.id != late.id)

    device.setSMSCases([.identical])
    device.receiveLiveTraffic(count: 1)  // the fourth tick
    let pair = device.messages().prefix(2)
    #expect(pair.count == 2 && pair.allSatisfy { $0.content == "收到" })
    #expect(Set(pair.map(\.id)).count == 2)
    #expect(pair.first?.timestamp == pair.last?.timestamp)

    device.setSMSCases([.clockReset])
    device.receiveLiveTraffic(count: 1)
    #expect(device.messages().last?.timestamp.hasPrefix("2000-01-01") == true)

    let before = device.messages().count
    device.setSMSCases([.deletes(every: 1)])
    device.receiveLiveTraffic(count: 1)
    #expect(device.messages().count == before)

    device.setSMSCases([.renumber(every: 1)])
    device.receiveLiveTraffic(count: 1)
    #expect(device.messages().map(\.id).sorted() == Array(1...Int64(before + 1)))
    #expect(device.messages().contains { $0.content == newest.content })

    device.setSMSCases([.invalidUTF8])
    device.receiveLiveTraffic(count: 5)
    let list = try await TestHTTP.request(device.origin, "GET", "/api/sms/list?limit=3")
    #expect(String(data: list.body, encoding: .utf8) == nil)
    #expect(list.body.contains(0xFF))

    device.setSMSCases([.burst(count: 4)])
    let count = device.messages().count
    _ = try await TestHTTP.request(device.origin, "GET", "/api/sms/list?limit=3")
    #expect(device.messages().count == count)
    _ = try await TestHTTP.request(device.origin, "GET", "/api/sms/list?limit=3&offset=3")
    #expect(device.messages().count == count + 4)

    device.setSMSCases([.noStats])
    let stats = try await TestHTTP.request(device.origin, "GET", "/api/sms/stats")
    #expect(stats.status == 404)
    #expect(stats.text == "API endpoint not found")
    await fleet.stop()
  }
}

/// The cases that shape the SMS list answer itself (issue 36): what a broken or hostile device
/// lists, as a client receives it.
@Suite("SMS list cases")
struct SMSListCaseTests {
  static func rows(_ origin: URL, _ query: String) async throws -> [Any] {
    let list = try await TestHTTP.request(origin, "GET", "/api/sms/list?" + query).json()
    return try #require((list["data"] as? [String: Any])?["messages"] as? [Any])
  }

  static func ids(_ rows: [Any]) -> [Int64] {
    rows.compactMap { row -> Int64? in
      guard let number = (row as? [String: Any])?["id"] as? NSNumber,
        Double(number.int64Value) == number.doubleValue
      else { return nil }
      return number.int64Value
    }
  }

  @Test func specParsesTheListCases() throws {
    let cases = try SMSCaseSpec.parse(
      "1=ignore-offset,1=endless,2=unreadable,2=repeated-ids:9,3=huge-bodies:100,3=unreadable:3",
      deviceCount: 3)
    #expect(cases[1] == [.ignoresOffset, .endless])
    #expect(cases[2] == [.unreadable(every: 7), .repeatedIDs(modulus: 9)])
    #expect(cases[3] == [.hugeBodies(characters: 100), .unreadable(every: 3)])
    #expect(throws: SMSCaseSpecError.badArgument(item: "1=endless:3", argument: "3")) {
      try SMSCaseSpec.parse("1=endless:3", deviceCount: 1)
    }
  }

  @Test func eachListCaseShapesTheAnswer() async throws {
    let fleet = try await SimulatedFleet.start(
      [DeviceProfile(name: "list-cases", smsCount: 30)], clock: TestClock().clock)
    let device = fleet.devices[0]
    let origin = device.origin
    let stored = device.messages().map(\.id)

    device.setSMSCases([.ignoresOffset])
    #expect(Self.ids(try await Self.rows(origin, "limit=10&offset=20")) == Array(stored.prefix(10)))

    device.setSMSCases([.endless])
    let tail = Self.ids(try await Self.rows(origin, "limit=10&offset=25"))
    #expect(tail.count == 10)
    #expect(Array(tail.prefix(5)) == Array(stored.suffix(5)))
    let deeper = Self.ids(try await Self.rows(origin, "limit=10&offset=1000000"))
    #expect(deeper.count == 10 && Set(deeper).count == 10)
    // The same position is the same row at every request, and older below.
    #expect(
      Self.ids(try await Self.rows(origin, "limit=10&offset=1000005")).prefix(5) == deeper.suffix(5)
    )
    let stats = try await TestHTTP.request(origin, "GET", "/api/sms/stats").json()
    #expect(((stats["data"] as? [String: Any])?["total"] as? NSNumber)?.intValue == 30)

    device.setSMSCases([.unreadable(every: 3)])
    let broken = try await Self.rows(origin, "limit=30")
    #expect(broken.count == 30)
    #expect(Self.ids(broken).count == 20)
    #expect(broken.contains { $0 is NSNull })
    #expect(broken.contains { ($0 as? [String: Any])?["id"] is String })
    #expect(broken.contains { ($0 as? [String: Any]).map { $0["id"] == nil } == true })

    device.setSMSCases([.repeatedIDs(modulus: 7)])
    let repeated = Self.ids(try await Self.rows(origin, "limit=30"))
    #expect(repeated.count == 30 && Set(repeated).count == 7)

    device.setSMSCases([.hugeBodies(characters: 17_000)])
    let huge = try await TestHTTP.request(origin, "GET", "/api/sms/list?limit=20")
    #expect(huge.body.count > 20 * 17_000 * 3)
    await fleet.stop()
  }
}

/// What SimAdmin's source does to its SMS rows that issue 29 points 5–8 and issue 36 point 6
/// rest on, pinned on the simulator: a restored backup (`backup.rs` `import_sms_row`),
/// v1.0.0–1.0.5's timestamps and markers (`db.rs` `Utc::now().to_rfc3339()`,
/// `sms_listener.rs` `mm:<path>`) and v1.0.6's rewrite (`normalize_existing_sms_timestamps`),
/// a device clock SimAdmin never sets, a SIM swap, and texts that name no time.
@Suite("SMS rows as SimAdmin keeps them")
struct SMSRowFactTests {
  static func fleet(_ clock: TestClock) async throws -> SimulatedDevice {
    let fleet = try await SimulatedFleet.start(
      [DeviceProfile(name: "rows", smsCount: 0)], clock: clock.clock)
    return fleet.devices[0]
  }

  @Test func aRestoredBackupComesBackUnderNewHigherIds() async throws {
    let clock = TestClock()
    let device = try await Self.fleet(clock)
    device.receiveSMS(from: "10086", content: "余额")
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "CXYE")
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "CXYE")
    let backup = device.backup()
    device.restoreBackup(replacing: true)
    let restored = device.messages()
    // Identical rows of the backup come back once; every id is above every earlier one.
    #expect(restored.count == 2)
    #expect(restored.allSatisfy { $0.id > 3 })
    for row in restored {
      #expect(
        backup.contains {
          $0.direction == row.direction && $0.phoneNumber == row.phoneNumber
            && $0.content == row.content && $0.timestamp == row.timestamp && $0.pdu == row.pdu
        })
    }
    // Merge: only rows not present come back.
    device.deleteMessages(ids: [restored[0].id])
    device.restoreBackup(backup, replacing: false)
    #expect(device.messages().count == 2)
    #expect(device.messages().map(\.id).max() == 6)
  }

  @Test func legacyFirmwareStampsRFC3339AndTheUpgradeRewritesInPlace() async throws {
    let clock = TestClock()
    let device = try await Self.fleet(clock)
    device.setLegacyFirmware(true)
    let at = clock.clock.now().addingTimeInterval(0.5)
    let incoming = device.receiveSMS(from: "10086", content: "余额", at: at)
    #expect(incoming.timestamp == "2026-01-01T00:00:00.500000000+00:00")
    #expect(incoming.pdu == "mm:/org/freedesktop/ModemManager1/SMS/1")
    device.upgradeRewritingTimestamps()
    let rewritten = try #require(device.messages().first)
    #expect(rewritten.id == incoming.id && rewritten.pdu == incoming.pdu)
    #expect(rewritten.timestamp == "2026-01-01 08:00:00")
    #expect(device.receiveSMS(from: "10086", content: "新").pdu?.hasPrefix("mmfp:") == true)
  }

  @Test func theDeviceClockStampsLiveMessagesAndSends() async throws {
    let clock = TestClock()
    let device = try await Self.fleet(clock)
    device.setClockOffset(-600)
    #expect(
      device.receiveSMS(from: "10086", content: "慢").timestamp
        == BeijingTime.string(from: clock.clock.now() - 600))
    device.receiveLiveTraffic(count: 1)
    #expect(device.messages().allSatisfy { $0.timestamp == "2026-01-01 07:50:00" })
  }

  @Test func aSIMSwapChangesTheNumberAndLeavesTheRows() async throws {
    let clock = TestClock()
    let device = try await Self.fleet(clock)
    device.receiveSMS(from: "10086", content: "before")
    let before = device.messages()
    device.swapSIM(phoneNumber: "+8613900000002")
    let sim = try #require(
      try await TestHTTP.request(device.origin, "GET", "/api/sim").json()["data"]
        as? [String: Any])
    #expect(sim["phone_numbers"] as? [String] == ["+8613900000002"])
    #expect(device.messages() == before)
  }

  @Test func aTimestampIsAnsweredAsStored() async throws {
    let clock = TestClock()
    let device = try await Self.fleet(clock)
    for text in ["", "0000-00-00 00:00:00", "2026-02-30 10:00:00", "1767225600"] {
      #expect(
        device.storeSMS(direction: "incoming", phoneNumber: "1", content: "x", timestamp: text)
          .timestamp == text)
    }
  }
}

/// The live-traffic cases that let `msa simulate` show issue 29 points 5–8 and issue 36 point 6
/// to a person: a clock off, times that name none, a restored backup, the v1.0.6 rewrite and a
/// SIM swap, each over time.
@Suite("SMS time and identity cases")
struct SMSTimeCaseTests {
  @Test func specParsesTheTimeCases() throws {
    let cases = try SMSCaseSpec.parse(
      "1=clock,1=bad-dates,2=clock:-30,2=restore:4,3=legacy,3=sim-swap:2,3=clock:90",
      deviceCount: 3)
    #expect(cases[1] == [.clockOffset(minutes: -10), .badDates])
    #expect(cases[2] == [.clockOffset(minutes: -30), .restore(every: 4)])
    #expect(cases[3] == [.legacy(ticks: 5), .simSwap(every: 2), .clockOffset(minutes: 90)])
    for bad in ["1=clock:0", "1=clock:x", "1=bad-dates:2", "1=restore:0", "1=sim-swap:-1"] {
      #expect(throws: SMSCaseSpecError.self) { try SMSCaseSpec.parse(bad, deviceCount: 1) }
    }
    #expect(throws: SMSCaseSpecError.badClock(item: "1=clock:0", argument: "0")) {
      try SMSCaseSpec.parse("1=clock:0", deviceCount: 1)
    }
    let message = SMSCaseSpecError.unknownCase(item: "1=x", name: "x")
    #expect(message.localizedMessage(.english).contains("sim-swap"))
    #expect(message.localizedMessage(.simplifiedChinese).contains("bad-dates"))
  }

  @Test func liveTrafficShowsEachTimeCase() async throws {
    let clock = TestClock()
    let fleet = try await SimulatedFleet.start(
      [DeviceProfile(name: "time", smsCount: 0)], clock: clock.clock)
    let device = fleet.devices[0]

    device.setSMSCases([.clockOffset(minutes: -10)])
    device.receiveLiveTraffic(count: 1)
    #expect(device.messages().first?.timestamp == BeijingTime.string(from: clock.clock.now() - 600))

    device.setSMSCases([.badDates])
    device.receiveLiveTraffic(count: 6)
    let texts = Set(device.messages().map(\.timestamp))
    #expect(texts.isSuperset(of: ["", "0000-00-00 00:00:00", "9999-12-31 23:59:59"]))
    #expect(texts.contains { $0.contains("\u{1B}]0;") })

    let before = device.messages()
    device.setSMSCases([.restore(every: 1)])
    device.receiveLiveTraffic(count: 1)
    let restored = device.messages()
    #expect(restored.count == before.count + 1)
    #expect(restored.allSatisfy { row in !before.contains { $0.id == row.id } })

    device.setSMSCases([.simSwap(every: 1)])
    device.receiveLiveTraffic(count: 1)
    let sim = try #require(
      try await TestHTTP.request(device.origin, "GET", "/api/sim").json()["data"]
        as? [String: Any])
    #expect((sim["phone_numbers"] as? [String])?.first?.hasPrefix("+86139") == true)
    await fleet.stop()
  }

  @Test func legacyFirmwareIsRewrittenAfterItsTicks() async throws {
    let clock = TestClock()
    let fleet = try await SimulatedFleet.start(
      [DeviceProfile(name: "legacy", smsCount: 0, smsCases: [.legacy(ticks: 2)])],
      clock: clock.clock)
    let device = fleet.devices[0]
    device.receiveLiveTraffic(count: 2)
    let old = device.messages()
    #expect(old.count == 2 && old.allSatisfy { $0.timestamp.hasSuffix("+00:00") })
    device.receiveLiveTraffic(count: 1)
    let now = device.messages()
    #expect(now.count == 3 && now.allSatisfy { !$0.timestamp.contains("T") })
    #expect(Set(now.map(\.id)).isSuperset(of: old.map(\.id)))
    await fleet.stop()
  }
}

/// ``Fault/deviceError``: SimAdmin's own error answer, hostile too when asked.
@Suite("Device error fault")
struct DeviceErrorFaultTests {
  @Test func answersTheDevicesErrorInItsOwnWords() async throws {
    let fleet = try await SimulatedFleet.start(
      [
        DeviceProfile(
          name: "plain", smsCount: 3,
          faults: [FaultRule(.deviceError, pathPrefix: "/api/sms/list")]),
        DeviceProfile(
          name: "hostile", smsCount: 3,
          faults: [FaultRule(.deviceError, pathPrefix: "/api/sms/list"), FaultRule(.hostileText)]),
      ], clock: TestClock().clock)
    let plain = try await TestHTTP.request(fleet.devices[0].origin, "GET", "/api/sms/list").json()
    #expect(plain["status"] as? String == "error")
    #expect(plain["message"] as? String == "Failed: database is locked")
    let hostile = try await TestHTTP.request(fleet.devices[1].origin, "GET", "/api/sms/list")
      .json()
    #expect(hostile["message"] as? String == HostileText.wrap("Failed: database is locked"))
    // Other routes answer as usual.
    let stats = try await TestHTTP.request(fleet.devices[0].origin, "GET", "/api/sms/stats").json()
    #expect(stats["status"] as? String == "ok")
    #expect(
      try FaultSpec.parse("1=error@/api/sms", deviceCount: 1)[1]?.first?.fault == .deviceError)
    await fleet.stop()
  }
}
