import Foundation
import Testing

@testable import Essentials

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

@Suite("CivilTime")
struct CivilTimeTests {
  static func reference(_ date: Date, offset: Int) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.calendar = Calendar(identifier: .gregorian)
    formatter.timeZone = TimeZone(secondsFromGMT: offset)
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter.string(from: date)
  }

  /// An instant beyond Int's seconds trapped (`Int(1e300)`): it reads as the farthest one.
  @Test("an instant far beyond any calendar reads as the farthest, never trapping")
  func farInstants() {
    let far = CivilTime(Date(timeIntervalSince1970: CivilTime.farthestSeconds), offsetSeconds: 0)
    for seconds in [1e300, .infinity, 9.3e18] {
      #expect(
        CivilTime(Date(timeIntervalSince1970: seconds), offsetSeconds: 28_800).year == far.year)
      #expect(CivilTime(Date(timeIntervalSince1970: -seconds), offsetSeconds: 0).year < 0)
    }
    #expect(CivilTime(Date(timeIntervalSince1970: .nan), offsetSeconds: 0).year == 1970)
  }

  @Test(
    "agrees with DateFormatter across leap days, year ends and instants before 1970",
    arguments: [0, 8 * 3_600, -5 * 3_600, 5 * 3_600 + 1_800, 13 * 3_600])
  func agreesWithDateFormatter(offset: Int) {
    var instants: [Double] = [0, -1, -86_400, 951_782_400, 1_709_164_800, 4_102_444_799]
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<2_000 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      instants.append(Double(Int64(bitPattern: seed >> 1) % 6_000_000_000) - 2_000_000_000)
    }
    for seconds in instants {
      let date = Date(timeIntervalSince1970: seconds + 0.75)
      let reading = CivilTime(date, offsetSeconds: offset)
      #expect(reading.text() == Self.reference(date, offset: offset), "at \(seconds)")
      #expect(
        reading.text(seconds: false) == String(Self.reference(date, offset: offset).prefix(16)))
      #expect(
        reading.instant(offsetSeconds: offset).timeIntervalSince1970 == seconds)
    }
  }

  @Test("day numbers and calendar days convert both ways")
  func dayNumbers() {
    for days in stride(from: -800_000, through: 800_000, by: 997) {
      let reading = CivilTime(Date(timeIntervalSince1970: Double(days) * 86_400), offsetSeconds: 0)
      #expect(reading.daysSince1970 == days)
      #expect(reading.secondOfDay == 0)
    }
  }

  @Test("fields out of range are refused")
  func refusesBadFields() {
    #expect(CivilTime(year: 2024, month: 2, day: 29, hour: 0, minute: 0, second: 0) != nil)
    #expect(CivilTime(year: 2100, month: 2, day: 29, hour: 0, minute: 0, second: 0) == nil)
    #expect(CivilTime(year: 2000, month: 2, day: 29, hour: 0, minute: 0, second: 0) != nil)
    #expect(CivilTime(year: 2026, month: 4, day: 31, hour: 0, minute: 0, second: 0) == nil)
    #expect(CivilTime(year: 2026, month: 0, day: 1, hour: 0, minute: 0, second: 0) == nil)
    #expect(CivilTime(year: 2026, month: 1, day: 1, hour: 24, minute: 0, second: 0) == nil)
    #expect(CivilTime(year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 60) == nil)
  }

  @Test("years outside four digits keep their sign and digits")
  func wideYears() throws {
    let late = try #require(
      CivilTime(year: 12_345, month: 6, day: 7, hour: 8, minute: 9, second: 10))
    #expect(late.text() == "12345-06-07 08:09:10")
    let early = try #require(
      CivilTime(year: -44, month: 3, day: 15, hour: 12, minute: 0, second: 0))
    #expect(early.text(seconds: false) == "-0044-03-15 12:00")
    #expect(CivilTime(early.instant(offsetSeconds: 0), offsetSeconds: 0) == early)
  }
}
