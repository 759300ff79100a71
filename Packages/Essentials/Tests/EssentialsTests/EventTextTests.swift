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
  /// The bound is issue 35's 100 years, whose nanoseconds still fit a timer's integer.
  @Test func lengthsPastTheLongestAreRefused() {
    #expect(TimeArgument.seconds("36525d") == TimeArgument.longestSeconds)
    #expect(TimeArgument.seconds("36526d") == nil)
    #expect(TimeArgument.seconds("3652500d") == nil)
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

  /// Each refusal says why: a length below zero, one too long for a date (before, 1e15 days
  /// crashed every command converting the date to milliseconds), or not of the form.
  @Test(arguments: [
    ("-5d", TimeArgument.Problem.negative), ("-1", .negative), ("999999999999999d", .tooLong),
    ("36526d", .tooLong), ("1e400", .malformed), ("1.5.5h", .malformed),
    ("1" + String(repeating: "0", count: 400), .tooLong),
    ("7x", .malformed), ("", .malformed), ("-", .malformed), ("--5d", .malformed),
    ("nan", .malformed), ("inf", .malformed), ("5d ago", .malformed),
  ])
  func refusedLengthsSayWhy(text: String, problem: TimeArgument.Problem) {
    #expect(TimeArgument.duration(text) == .failure(problem))
    #expect(TimeArgument.seconds(text) == nil)
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    // As a point in time (a length back from now needs its unit there).
    if text.last?.isLetter == true {
      #expect(TimeArgument.pointInTime(text, now: now) == .failure(problem))
    }
  }

  @Test func theLongestLengthIsAcceptedAndFitsEveryClock() throws {
    let seconds = try TimeArgument.duration(TimeArgument.longestText).get()
    #expect(seconds == TimeArgument.longest)
    #expect(TimeArgument.duration("0") == .success(0))
    #expect(TimeArgument.duration("-0") == .success(0))
    // As milliseconds before or after any date of this century, and as nanoseconds of a wait.
    #expect(seconds * 1_000 * 3 < Double(Int64.max))
    #expect(seconds * 1_000_000_000 < Double(Int64.max))
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    let point = try TimeArgument.pointInTime("36525d", now: now).get()
    #expect(point == now.addingTimeInterval(-TimeArgument.longest))
  }
}
