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
}
