import Essentials
import Foundation
import Testing

@testable import DeviceModulesFeature

@Suite("Value formatting")
struct DeviceFormatTests {
  @Test(
    "bytes use binary units",
    arguments: [
      (Int64(0), "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (1536, "1.5 KiB"),
      (432_013_312, "412.0 MiB"), (3_972_844_748, "3.7 GiB"),
    ])
  func bytes(_ value: Int64, _ expected: String) {
    #expect(DeviceFormat.bytes(value) == expected)
  }

  @Test("uptime as days and hours, hours and minutes, or minutes")
  func uptime() {
    #expect(DeviceFormat.uptime(3 * 86_400 + 4 * 3600 + 59, .english) == "3 d 4 h")
    #expect(DeviceFormat.uptime(4 * 3600 + 12 * 60, .english) == "4 h 12 min")
    #expect(DeviceFormat.uptime(59, .english) == "0 min")
    #expect(DeviceFormat.uptime(86_400, .simplifiedChinese) == "1 天 0 小时")
  }

  @Test("signal bar and figures")
  func signal() {
    #expect(DeviceFormat.signalBar(0) == "░░░░░")
    #expect(DeviceFormat.signalBar(62) == "███░░")
    #expect(DeviceFormat.signalBar(140) == "█████")
    // With the serving cell's RSRP the bar is drawn from the dBm, not the device's percent.
    #expect(DeviceFormat.signal(percent: 62, dBm: -95) == "███░░ -95 dBm · 62%")
    #expect(DeviceFormat.signal(percent: 90, dBm: -118) == "█░░░░ -118 dBm · 90%")
    #expect(DeviceFormat.signal(percent: 20, dBm: -89.3) == "████░ -89.3 dBm · 20%")
    #expect(DeviceFormat.percent(rsrp: -140) == 0 && DeviceFormat.percent(rsrp: -60) == 100)
    #expect(DeviceFormat.signal(percent: 62, dBm: nil) == "███░░ 62%")
  }

  @Test("temperatures in °C")
  func temperature() {
    #expect(
      DeviceFormat.temperature(48.25) == "48.2 °C" || DeviceFormat.temperature(48.25) == "48.3 °C")
    #expect(DeviceFormat.temperature(51) == "51.0 °C")
  }

  @Test(
    "identifiers keep the first and last 4 characters",
    arguments: [
      ("861234567890123", "8612•••••••0123"), ("89860012345678901234", "8986••••••••••••1234"),
      ("12345678", "••••••78"), ("", "—"), ("7", "7"),
    ])
  func mask(_ identifier: String, _ expected: String) {
    #expect(DeviceFormat.maskIdentifier(identifier) == expected)
  }

  @Test("ages")
  func age() {
    let now = Date(timeIntervalSince1970: 1_000_000)
    #expect(DeviceFormat.age(of: now, now: now, .english) == "just now")
    #expect(DeviceFormat.age(of: now - 12, now: now, .english) == "12 s ago")
    #expect(DeviceFormat.age(of: now - 180, now: now, .simplifiedChinese) == "3 分钟前")
    #expect(DeviceFormat.age(of: now - 7300, now: now, .english) == "2 h ago")
  }

  /// Issue 36 point 8: `uptime(1e308)`, `rate(1e308)` and `number(1e308)` trapped converting
  /// to an integer; a negative size printed `-5 B` and 150% a full bar.
  @Test(
    "absurd values are unknown",
    arguments: [1e308, -1e308, .infinity, -.infinity, .nan, 9.3e18, -9.3e18])
  func absurd(_ value: Double) {
    #expect(DeviceFormat.uptime(value, .english) == "—")
    #expect(DeviceFormat.rate(value) == "—")
    #expect(DeviceFormat.temperature(value) == "—")
    #expect(DeviceFormat.percent(value) == "—")
    #expect(DeviceFormat.number(value, .milliseconds) == "—")
    #expect(DeviceFormat.signal(percent: -1, dBm: value) == "—")
    #expect(DeviceFormat.signalLevel(percent: 150, dBm: value) == nil)
    #expect(
      DeviceFormat.age(
        of: Date(timeIntervalSince1970: value.isNaN ? 0 : value), now: Date(), .english) != "")
  }

  @Test("sizes, percentages and counts outside their range are unknown")
  func absurdIntegers() {
    #expect(DeviceFormat.bytes(-5) == "—")
    #expect(DeviceFormat.bytes(Int64.max) == "—")
    #expect(DeviceFormat.bytes(1 << 61) == "2.0 EiB")
    #expect(DeviceFormat.signal(percent: 150, dBm: nil) == "—")
    #expect(DeviceFormat.signal(percent: 150, dBm: -95) == "███░░ -95 dBm")
    #expect(DeviceFormat.count(-1) == "—")
    #expect(DeviceFormat.count(4) == "4")
    #expect(DeviceFormat.number(-95.5, .decibels) == "-95.5")
    // -1 is a believable temperature or level, but not an uptime, a rate or a share.
    #expect(DeviceFormat.uptime(-1, .english) == "—")
    #expect(DeviceFormat.rate(-1) == "—")
    #expect(DeviceFormat.percent(-1) == "—")
    #expect(DeviceFormat.temperature(-1) == "-1.0 °C")
  }
}
