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
    // Leap days, year ends, DST changes and instants before 1970, a few hours apart.
    var instants: [Double] = [0, -1, -86_400, 951_782_400, 1_709_164_800, 4_102_444_799]
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<2_000 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      instants.append(Double(Int64(bitPattern: seed >> 1) % 4_000_000_000) - 200_000_000)
    }
    for seconds in instants {
      let date = Date(timeIntervalSince1970: seconds + 0.75)
      #expect(display.format(date) == Self.reference(date, zone), "at \(seconds)")
    }
  }

  @Test func formatsAKnownInstant() {
    let display = MessagesDisplay(timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .current)
    #expect(display.format(Date(timeIntervalSince1970: 1_709_164_800)) == "2024-02-29 08:00")
  }
}
