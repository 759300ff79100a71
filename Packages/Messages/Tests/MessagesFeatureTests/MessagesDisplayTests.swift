import Foundation
import Testing

@testable import MessagesFeature

@Suite("Message times")
struct MessagesDisplayTests {
  static func reference(_ date: Date, _ zone: TimeZone) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.calendar = Calendar(identifier: .gregorian)
    formatter.timeZone = zone
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.string(from: date)
  }

  @Test(arguments: ["UTC", "Asia/Shanghai", "America/New_York", "Asia/Kolkata", "Pacific/Apia"])
  func formatAgreesWithDateFormatter(zoneName: String) throws {
    let zone = try #require(TimeZone(identifier: zoneName))
    let display = MessagesDisplay(timeZone: zone)
    // The zone's offset at each instant (DST changes included) from 1963 to 2096, every 7.3
    // days or so and at an odd hour; the calendar arithmetic itself is Essentials' CivilTime,
    // checked there.
    for seconds in stride(from: -200_000_000.0, to: 3_800_000_000, by: 631_139) {
      let date = Date(timeIntervalSince1970: seconds + 0.75)
      #expect(display.format(date) == Self.reference(date, zone), "at \(seconds)")
    }
  }

  @Test func formatsAKnownInstant() {
    let display = MessagesDisplay(timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .current)
    #expect(display.format(Date(timeIntervalSince1970: 1_709_164_800)) == "2024-02-29 08:00")
  }
}
