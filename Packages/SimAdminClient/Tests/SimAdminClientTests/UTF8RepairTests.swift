import Foundation
import SimAdminSimulator
import Testing

@testable import SimAdminClient

/// Issue 14: invalid UTF-8 from a device becomes U+FFFD and its message is marked repaired;
/// nothing becomes an empty string, and a device's own U+FFFD is not taken for a repair.
@Suite("Invalid UTF-8 in SMS pages")
struct UTF8RepairTests {
  @Test func overHTTPTheBadBytesBecomeReplacementCharactersAndAreMarked() async throws {
    try await withFleet([DeviceProfile(name: "bytes", smsCount: 2)]) { fleet in
      let device = fleet.devices[0]
      let raw: [UInt8] = Array("码 ".utf8) + [0xFF] + Array(" ok ".utf8) + [0xE4, 0xBD]
      device.storeSMS(direction: "incoming", phoneNumber: "10690", content: "", contentBytes: raw)
      // A device's own U+FFFD and the noncharacter the repair would pick first.
      let own = "own \u{FFFD} " + String(Character(Unicode.Scalar(0xFDD0)!))
      device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: own)
      let session = makeSession(device)
      let messages = try await session.smsList(limit: 10)
      #expect(messages.count == 4)
      let repaired = try #require(messages.first { $0.phoneNumber == "10690" })
      #expect(repaired.content == "码 \u{FFFD} ok \u{FFFD}")
      #expect(repaired.repaired)
      let sent = try #require(messages.first { $0.phoneNumber == "10086" })
      #expect(sent.content == own)
      #expect(!sent.repaired)
      #expect(messages.filter(\.repaired).count == 1)
    }
  }

  @Test func bothDecodingPathsRepairTheSameWay() throws {
    let body =
      Data(
        #"{"status":"ok","message":"","data":{"messages":[{"id":1,"direction":"incoming","phone_number":"1"#
          .utf8)
      + [0xC0] + Data(#"","content":"a"#.utf8) + [0xF5, 0x80]
      + Data(#"b","timestamp":"2026-01-01 00:00:00","status":"received","pdu":null}]}}"#.utf8)
    for fast in [true, false] {
      let list = try SimAdminSession.decodePayload(
        body, as: SmsMessageList.self, enveloped: true, fastPath: fast)
      #expect(list.messages.map(\.phoneNumber) == ["1\u{FFFD}"])
      #expect(list.messages.map(\.content) == ["a\u{FFFD}\u{FFFD}b"])
      #expect(list.messages.map(\.repaired) == [true])
    }
    #expect(UTF8Repair.marking(Data("valid ✓".utf8)) == nil)
  }
}
