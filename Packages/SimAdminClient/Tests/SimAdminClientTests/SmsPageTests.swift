import Foundation
import SimAdminSimulator
import Testing

@testable import SimAdminClient

/// `smsPage`: a page of the SMS list with the entries it could not read counted, so a sync
/// knows the page's true length and can say how many rows it skipped (issue 36 point 4).
@Suite("SMS pages: unreadable entries")
struct SmsPageTests {
  @Test("both decoding paths count the entries they skip")
  func bothPathsCount() throws {
    let list =
      #"{"messages":[{"id":2,"direction":"incoming","phone_number":"10086","content":"a","timestamp":"2026-01-01 00:30:00","status":"received","pdu":null},null,{"id":"bad"},{"direction":"incoming"},{"id":1e30},7,{"id":1,"direction":"outgoing","phone_number":"10086","content":"b","timestamp":"2026-01-01 00:00:00","status":"sent","pdu":null}]}"#
    let body = Data((#"{"status":"ok","message":"Success","data":"# + list + "}").utf8)
    for fastPath in [true, false] {
      let page = try SimAdminSession.decodePayload(
        body, as: SmsMessageList.self, enveloped: true, fastPath: fastPath,
        endpoint: "GET /api/sms/list")
      #expect(page.messages.map(\.id) == [2, 1], "fast path: \(fastPath)")
      #expect(page.unreadable == 5, "fast path: \(fastPath)")
      #expect(page.unreadablePositions == [1, 2, 3, 4, 5], "fast path: \(fastPath)")
    }
    let plain = try JSONDecoder().decode(SmsMessageList.self, from: Data(list.utf8))
    #expect(plain.unreadable == 5)
  }

  @Test("a device listing unreadable rows: the page's length is kept")
  func deviceWithUnreadableRows() async throws {
    try await withFleet([
      DeviceProfile(name: "broken", smsCount: 30, smsCases: [.unreadable(every: 3)])
    ]) { fleet in
      let session = makeSession(fleet.devices[0])
      let page = try await session.smsPage(limit: 30, offset: 0)
      #expect(page.messages.count == 20)
      #expect(page.unreadable == 10)
      #expect(page.unreadablePositions == Array(stride(from: 0, to: 30, by: 3)))
      let rest = try await session.smsPage(limit: 30, offset: 30)
      #expect(rest.messages.isEmpty && rest.unreadable == 0)
    }
  }
}
