import Foundation
import Testing

@testable import Essentials

@Suite struct EventTextTests {
  /// Every event and reason the catalogue knows is words in both languages, filled.
  @Test func everyEventAndReasonIsWords() throws {
    let known = EventText.knownCodes
    #expect(known.events.count >= 20)
    #expect(known.reasons.count >= 25)
    let sample: [String: String] = [
      "instance_name": "Shop router", "count": "3", "path": "/tmp/x", "format": "csv",
      "peer": "10086", "reason": "timeout", "from": "online", "to": "offline",
      "status": "degraded", "instances": "2", "inserted": "5", "failed": "1", "id": "7",
      "backup": "/tmp/y", "detail": "refused", "interval": "5s", "rounds": "4", "received": "2",
    ]
    for language in AppLanguage.allCases {
      for code in known.events {
        let text = try #require(EventText.event(code, language, sample))
        #expect(!text.contains("{") && !text.contains("}"), "\(code): \(text)")
      }
      for code in known.reasons {
        #expect(EventText.reasonIfKnown(code, language) != nil, "\(code)")
        #expect(
          EventText.reason(code, .english) != EventText.reason(code, .simplifiedChinese),
          "\(code)")
      }
    }
    #expect(
      EventText.event("fleet.statusChanged", .simplifiedChinese, sample)
        == "Shop router：在线 → 离线")
    #expect(EventText.event("free text of an old record", .english) == nil)
    #expect(EventText.reason("somethingNew", .english) == "somethingNew")
  }

  @Test(arguments: [
    ("7d", 604_800.0), ("12h", 43_200.0), ("30m", 1_800.0), ("90", 90.0), ("90s", 90.0),
    ("1.5h", 5_400.0),
  ])
  func lengthsOfTime(text: String, seconds: Double) {
    #expect(TimeArgument.seconds(text) == seconds)
  }

  /// `--wait`, `--since` and `--interval` of 10^29 days crashed turning the length into
  /// milliseconds or nanoseconds (issue 36 point 8: no number reaches an integer unchecked).
  @Test func lengthsPastTenThousandYearsAreRefused() {
    #expect(TimeArgument.seconds("3652500d") == 315_576_000_000)
    #expect(TimeArgument.seconds("3652501d") == nil)
    #expect(TimeArgument.seconds("99999999999999999999999999999d") == nil)
    #expect(TimeArgument.seconds(String(repeating: "9", count: 400)) == nil)
    #expect(TimeArgument.date("99999999999999999999999999999d", now: Date()) == nil)
  }

  @Test func timesAreLengthsDaysOrInstants() {
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    let utc = TimeZone(identifier: "UTC") ?? .current
    #expect(TimeArgument.date("7d", now: now) == now.addingTimeInterval(-604_800))
    #expect(
      TimeArgument.date("2026-01-01", now: now, timeZone: utc)
        == Date(timeIntervalSince1970: 1_767_225_600))
    #expect(
      TimeArgument.date("2026-01-01", now: now, endOfDay: true, timeZone: utc)
        == Date(timeIntervalSince1970: 1_767_312_000))
    #expect(
      TimeArgument.date("2026-01-01T08:00:00+08:00", now: now)
        == Date(timeIntervalSince1970: 1_767_225_600))
    for bad in ["", "d", "-7d", "7x", "2026-02-30", "yesterday", "7 d"] {
      #expect(TimeArgument.date(bad, now: now) == nil, "\(bad)")
    }
  }
}
