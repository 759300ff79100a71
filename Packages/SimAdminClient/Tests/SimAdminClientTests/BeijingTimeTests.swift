import Foundation
import Testing

@testable import SimAdminClient

@Suite("BeijingTime")
struct BeijingTimeTests {
  static func instant(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

  @Test(
    "device text → true instant (UTC+8)",
    arguments: [
      ("2026-01-01 00:30:00", "2025-12-31T16:30:00Z"),
      ("2024-02-29 08:00:00", "2024-02-29T00:00:00Z"),
      ("1970-01-01 08:00:00", "1970-01-01T00:00:00Z"),
      ("2026-06-15T12:34:56", "2026-06-15T04:34:56Z"),
    ])
  func parses(_ text: String, _ instant: String) throws {
    let expected = try #require(Self.instant(instant))
    #expect(BeijingTime.date(from: text) == expected)
    if !text.contains("T") {
      #expect(BeijingTime.string(from: expected) == text)
    }
  }

  @Test(
    "rejects what is not a valid device timestamp",
    arguments: [
      "", "garbage", "2026-01-01", "2026-13-01 00:00:00", "2025-02-29 00:00:00",
      "2026-01-01 24:00:00", "2026-01-01 00:60:00", "2026-01-01T00:00:00+08:00",
    ])
  func rejects(_ text: String) {
    #expect(BeijingTime.date(from: text) == nil)
  }

  @Test("fractional seconds are kept; formatting truncates")
  func fractions() throws {
    let date = try #require(BeijingTime.date(from: "2026-01-01 08:00:00.5"))
    #expect(date.timeIntervalSince1970 == 1_767_225_600.5)
    #expect(BeijingTime.string(from: date) == "2026-01-01 08:00:00")
  }

  @Test("before 1970 works too")
  func beforeEpoch() throws {
    let date = try #require(BeijingTime.date(from: "1969-12-31 23:00:00"))
    #expect(date.timeIntervalSince1970 == -9 * 3600)
    #expect(BeijingTime.string(from: date) == "1969-12-31 23:00:00")
  }
}
