import Foundation
import Testing

@testable import SimAdminClient

/// Numbers no working device sends (issue 36 point 8): the models keep what is finite, and
/// ``DeviceReading`` says what is believed.
@Suite("Absurd numbers from a device")
struct AbsurdNumberTests {
  /// 400 digits as text read as infinity; JSONEncoder refuses to write it back, so a snapshot
  /// or a `--json` answer holding it failed. Text reads stop at a finite number or give nil.
  @Test("a number written as 400 digits of text is unknown, not infinity")
  func infiniteTextIsUnknown() throws {
    let digits = "1" + String(repeating: "0", count: 400)
    let body = Data(
      #"{"status":"ok","message":"","data":{"memory":{"used_percent":"\#(digits)"},"uptime":{"uptime_seconds":"-\#(digits)"},"temperature":[{"zone":"z","temperature":"\#(digits)"}]}}"#
        .utf8)
    for fastPath in [true, false] {
      let stats = try SimAdminSession.decodePayload(
        body, as: SystemStats.Glance.self, enveloped: true, fastPath: fastPath)
      #expect(stats.temperatures.first?.temperature == nil)
      #expect(stats.memory?.usedPercent == 0)
      #expect(stats.uptime?.uptimeSeconds == 0)
      _ = try JSONEncoder().encode(
        try SimAdminSession.decodePayload(
          body, as: SystemStats.self, enveloped: true, fastPath: fastPath))
    }
  }

  /// A signal of 1e308 cannot be an integer: it read as 0% (a dead signal) before.
  @Test("a signal strength that is not an integer is unknown, not 0%")
  func signalUnknown() throws {
    for value in ["1e308", "-1e308", "9223372036854775808", "null", "\"strong\""] {
      let body = Data(
        #"{"status":"ok","message":"","data":{"registration_status":"registered","signal_strength":\#(value)}}"#
          .utf8)
      for fastPath in [true, false] {
        let network = try SimAdminSession.decodePayload(
          body, as: NetworkInfo.self, enveloped: true, fastPath: fastPath)
        #expect(network.signalStrength == nil, "\(value)")
      }
    }
  }

  /// Sizes and counts of 1e308 cannot be integers: they read as 0 B and 0 cores before.
  @Test("a size or a count that is not an integer is unknown, not 0")
  func sizesUnknown() throws {
    let body = Data(
      #"{"status":"ok","message":"","data":{"memory":{"total_bytes":1e308,"used_bytes":-1e308,"cached_bytes":9223372036854775808,"available_bytes":5},"disk":[{"mount_point":"/","total_bytes":1e308}],"cpu_load":{"core_count":1e308},"network_speed":{"interfaces":[{"interface":"w","total_rx_bytes":1e308}]}}}"#
        .utf8)
    for fastPath in [true, false] {
      let stats = try SimAdminSession.decodePayload(
        body, as: SystemStats.self, enveloped: true, fastPath: fastPath)
      #expect(stats.memory?.totalBytes == nil && stats.memory?.usedBytes == nil)
      #expect(stats.memory?.cachedBytes == nil && stats.memory?.buffersBytes == nil)
      #expect(stats.memory?.availableBytes == 5)
      #expect(stats.disks.first?.totalBytes == nil)
      #expect(stats.cpuLoad?.coreCount == nil)
      #expect(stats.networkSpeed?.interfaces.first?.totalRxBytes == nil)
      let glance = try SimAdminSession.decodePayload(
        body, as: SystemStats.Glance.self, enveloped: true, fastPath: fastPath)
      #expect(glance.memory == stats.memory)
    }
  }

  @Test(
    "readings outside their range are unknown",
    arguments: [
      (DeviceReading.celsius, 1e308, false), (.celsius, -1e308, false), (.celsius, 48.5, true),
      (.celsius, .nan, false), (.celsius, .infinity, false), (.percent, 100.5, false),
      (.percent, -1, false), (.percent, 0, true), (.seconds, 9.3e18, false),
      (.seconds, 86_400 * 365, true), (.bytesPerSecond, -5, false), (.decibels, -95.5, true),
      (.decibels, -1e6, false), (.milliseconds, 12.5, true), (.bytes, 1e19, false),
    ])
  func readings(reading: DeviceReading, value: Double, believed: Bool) {
    #expect((reading.checked(value) != nil) == believed)
    #expect((reading.rounded(value) != nil) == believed)
  }

  @Test("integers too: a negative byte count or a huge percentage is unknown")
  func integerReadings() {
    #expect(DeviceReading.bytes.checked(Int64(-1)) == nil)
    #expect(DeviceReading.bytes.checked(Int64.max) == nil)
    #expect(DeviceReading.bytes.checked(Int64(1 << 40)) == 1 << 40)
    #expect(DeviceReading.percent.checked(Int64(101)) == nil)
    #expect(DeviceReading.percent.checked(Int64(62)) == 62)
    #expect(DeviceReading.celsius.rounded(47.5) == 48)
  }
}
