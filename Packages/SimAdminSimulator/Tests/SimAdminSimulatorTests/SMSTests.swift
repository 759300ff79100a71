import Essentials
import EssentialsTesting
import Foundation
import Testing

@testable import SimAdminSimulator

@Suite("SMS routes")
struct SMSTests {
  func ids(_ response: TestResponse) throws -> [Int64] {
    let messages = try #require(try response.data()["messages"] as? [[String: Any]])
    return messages.compactMap { ($0["id"] as? NSNumber)?.int64Value }
  }

  @Test func listIsNewestFirstWithIdTieBreakAndNoTotal() async throws {
    let testClock = TestClock()
    let fleet = try await SimulatedFleet.start(
      [DeviceProfile(name: "sms", smsCount: 0)], clock: testClock.clock)
    let device = fleet.devices[0]
    let instant = testClock.clock.now()
    let a = device.receiveSMS(from: "10086", content: "one", at: instant)
    let b = device.receiveSMS(from: "10086", content: "two", at: instant)
    let older = device.receiveSMS(from: "+8613800000000", content: "old", at: instant - 3600)
    let response = try await TestHTTP.request(device.origin, "GET", "/api/sms/list")
    #expect(try ids(response) == [b.id, a.id, older.id])
    let data = try response.data()
    #expect(Array(data.keys) == ["messages"])
    let first = try #require((data["messages"] as? [[String: Any]])?.first)
    #expect(first["timestamp"] as? String == "2026-01-01 08:00:00")
    #expect(first["status"] as? String == "received")
    #expect((first["pdu"] as? String)?.hasPrefix("mmfp:") == true)
    #expect(
      Set(first.keys) == [
        "id", "direction", "phone_number", "content", "timestamp", "status", "pdu",
      ])
    #expect(device.messages().map(\.id) == [b.id, a.id, older.id])
    await fleet.stop()
  }

  @Test(arguments: [
    ("limit=5", 5, 0), ("limit=0", 50, 0), ("limit=-3", 50, 0), ("", 50, 0),
    ("limit=1000", 120, 0), ("limit=10&offset=115", 5, 115), ("limit=10&offset=-4", 10, 0),
  ])
  func listPagingQuirks(query: String, expected: Int, offset: Int) async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "page", smsCount: 120)])
    let device = fleet.devices[0]
    let all = device.messages().map(\.id)
    let response = try await TestHTTP.request(device.origin, "GET", "/api/sms/list?" + query)
    let got = try ids(response)
    #expect(got.count == expected)
    #expect(got == Array(all[offset..<(offset + expected)]))
    await fleet.stop()
  }

  @Test func pagingCoversEverythingOnce() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "walk", smsCount: 333)])
    let device = fleet.devices[0]
    var seen: [Int64] = []
    var offset = 0
    while true {
      let page = try ids(
        try await TestHTTP.request(device.origin, "GET", "/api/sms/list?limit=50&offset=\(offset)"))
      seen += page
      offset += page.count
      if page.count < 50 { break }
    }
    #expect(seen == device.messages().map(\.id))
    #expect(Set(seen).count == 333)
    await fleet.stop()
  }

  @Test func directionFilterAndBadValues() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "dir", smsCount: 200)])
    let device = fleet.devices[0]
    let origin = device.origin
    let outgoing = try await TestHTTP.request(
      origin, "GET", "/api/sms/list?limit=1000&direction=outgoing"
    ).data()
    let rows = try #require(outgoing["messages"] as? [[String: Any]])
    #expect(!rows.isEmpty)
    #expect(rows.allSatisfy { $0["direction"] as? String == "outgoing" && $0["pdu"] is NSNull })
    #expect(rows.count == device.messages().filter { $0.direction == "outgoing" }.count)
    let ignored = try ids(
      try await TestHTTP.request(origin, "GET", "/api/sms/list?limit=1000&direction=sideways"))
    #expect(ignored.count == 200)
    let bad = try await TestHTTP.request(origin, "GET", "/api/sms/list?limit=abc")
    #expect(bad.status == 400)
    await fleet.stop()
  }

  @Test func seededHistoryLooksReal() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "real", smsCount: 400, seed: 3)]
    )
    let messages = fleet.devices[0].messages()
    #expect(messages.count == 400)
    let numbers = Set(messages.map(\.phoneNumber))
    #expect(numbers.contains("10086"))
    #expect(numbers.contains { $0.hasPrefix("+86") })
    #expect(numbers.contains { $0.hasPrefix("1069") })
    #expect(numbers.contains("Google") || numbers.contains("Apple"))
    #expect(messages.contains { $0.content.count > 70 })
    #expect(messages.contains { $0.content.unicodeScalars.contains { $0.value >= 0x4E00 } })
    #expect(messages.contains { $0.content.contains("验证码") })
    let stamps = messages.map(\.timestamp)
    #expect(stamps == stamps.sorted(by: >))
    #expect(stamps.allSatisfy { $0.count == 19 })
    await fleet.stop()
  }

  @Test func conversationIsExactMatchWithLimit() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "conv", smsCount: 0)])
    let device = fleet.devices[0]
    for index in 0..<5 { device.receiveSMS(from: "+8613912345678", content: "plus \(index)") }
    device.receiveSMS(from: "13912345678", content: "bare")
    let origin = device.origin
    let plus = try await TestHTTP.request(
      origin, "GET", "/api/sms/conversation?phone_number=%2B8613912345678&limit=3")
    let rows = try #require(try plus.data()["messages"] as? [[String: Any]])
    #expect(rows.count == 3)
    #expect(rows.allSatisfy { $0["phone_number"] as? String == "+8613912345678" })
    let bare = try await TestHTTP.request(
      origin, "GET", "/api/sms/conversation?phone_number=13912345678")
    #expect((try bare.data()["messages"] as? [Any])?.count == 1)
    let missing = try await TestHTTP.request(origin, "GET", "/api/sms/conversation")
    #expect(missing.status == 400)
    await fleet.stop()
  }

  @Test func sendStoresOutgoingAndValidates() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "send", smsCount: 0)])
    let device = fleet.devices[0]
    let origin = device.origin
    let sent = try await TestHTTP.request(
      origin, "POST", "/api/sms/send", json: ["phone_number": "10086", "content": "CXYE"])
    let path = try #require(try sent.data()["path"] as? String)
    #expect(path.hasPrefix("/org/freedesktop/ModemManager1/SMS/"))
    let stored = try #require(device.messages().first)
    #expect(stored.direction == "outgoing" && stored.status == "sent" && stored.pdu == nil)
    #expect(stored.phoneNumber == "10086" && stored.content == "CXYE")
    for body in [["phone_number": "", "content": "x"], ["phone_number": "10086", "content": ""]] {
      let refused = try await TestHTTP.request(origin, "POST", "/api/sms/send", json: body)
      #expect(refused.status == 200)
      #expect(try refused.json()["status"] as? String == "error")
    }
    #expect(device.messages().count == 1)
    let stats = try await TestHTTP.request(origin, "GET", "/api/sms/stats").data()
    #expect(
      stats["total"] as? Int == 1 && stats["outgoing"] as? Int == 1
        && stats["incoming"] as? Int == 0)
    await fleet.stop()
  }

  @Test func deletesBatchAndClear() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "del", smsCount: 0)])
    let device = fleet.devices[0]
    let origin = device.origin
    let one = device.receiveSMS(from: "+86 138 0000 0000", content: "a")
    device.receiveSMS(from: "+86 138 0000 0000", content: "b")
    let keep = device.receiveSMS(from: "10010", content: "c")
    let other = device.receiveSMS(from: "Apple", content: "d")
    let extra = device.receiveSMS(from: "Google", content: "e")

    let single = try await TestHTTP.request(origin, "DELETE", "/api/sms/message/\(one.id)")
    #expect(try single.data()["deleted"] as? Int == 1)
    let again = try await TestHTTP.request(origin, "DELETE", "/api/sms/message/\(one.id)")
    #expect(try again.data()["deleted"] as? Int == 0)
    let thread = try await TestHTTP.request(
      origin, "DELETE", "/api/sms/conversation/%2B86%20138%200000%200000")
    #expect(try thread.data()["deleted"] as? Int == 1)
    let batch = try await TestHTTP.request(
      origin, "POST", "/api/sms/batch-delete",
      json: ["ids": [other.id], "phone_numbers": ["Google"]])
    #expect(try batch.data()["deleted"] as? Int == 2)
    #expect(device.messages().map(\.id) == [keep.id])
    _ = extra
    let empty = try await TestHTTP.request(
      origin, "POST", "/api/sms/batch-delete", json: ["ids": [Int](), "phone_numbers": [String]()])
    #expect(try empty.json()["status"] as? String == "error")
    let clear = try await TestHTTP.request(origin, "POST", "/api/sms/clear")
    #expect(try clear.data()["deleted"] as? Int == 1)
    #expect(device.messages().isEmpty)
    await fleet.stop()
  }

  @Test func resetDatabaseRestartsIds() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "reset", smsCount: 30)])
    let device = fleet.devices[0]
    device.resetDatabase(keepingMessages: 3)
    #expect(device.messages().map(\.id) == [3, 2, 1])
    #expect(device.receiveSMS(from: "10086", content: "new").id == 4)
    device.resetDatabase()
    #expect(device.messages().isEmpty)
    #expect(device.receiveSMS(from: "10086", content: "again").id == 1)
    await fleet.stop()
  }

  @Test func liveTrafficAddsIncomingMessages() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "live", smsCount: 2, trafficPerMinute: 1200)
    ])
    let device = fleet.devices[0]
    var grew = false
    for _ in 0..<100 where !grew {
      try await Task.sleep(for: .milliseconds(50))
      grew = device.messages().count >= 5
    }
    #expect(grew)
    let newest = try #require(device.messages().first)
    #expect(newest.direction == "incoming" && newest.id > 2)
    await fleet.stop()
  }
}
