import Essentials
import EssentialsTesting
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import SimAdminSimulator
import Testing

/// Issue 29 point 9: statuses that misled. A device without a modem searches for it for at
/// least 5 s and remembers the failure only 30 s, so its status flapped between "no modem" and
/// "modem not answering"; mobile data switched off on purpose showed Degraded forever.
@Suite(.serialized) struct StatusTruthTests {
  static func test(_ harness: FeatureHarness, _ name: String, timeout: String = "1.5") async throws
    -> ProbeResult
  {
    let outcome = await harness.outcome(["fleet", "test", name, "--timeout", timeout])
    return try #require(try outcome.payload(TestPayload.self).results.first)
  }

  @Test func aDeviceWithoutAModemStaysNoModemWhenItsSearchOutlivesTheProbe() async throws {
    let deviceClock = TestClock()
    let fleet = try await SimulatedFleet.start(
      [DeviceProfile(name: "bare", hasModem: false, smsCount: 0, modemLookupSeconds: 2.5)],
      clock: deviceClock.clock)
    defer { Task { await fleet.stop() } }
    let harness = try FeatureHarness(.fleet)
    await harness.register(fleet)
    // Its first search outlives the probe: nothing else is known yet.
    let first = try await Self.test(harness, "bare")
    #expect(first.reason == .modemTimeout)
    // Within the device's 30 s memory of the failure: no modem.
    let second = try await Self.test(harness, "bare")
    #expect(second.status == .degraded)
    #expect(second.reason == .noModem)
    // 30 s later the device searches again, slower than the probe: still no modem.
    for _ in 0..<2 {
      deviceClock.advance(by: 31)
      let again = try await Self.test(harness, "bare")
      #expect(again.status == .degraded)
      #expect(again.reason == .noModem, "not 'modem not answering after 1.5 s'")
      #expect(again.detail?.contains("No ModemManager modem found") == true)
    }
    // A modem plugged back in is seen at once.
    fleet.devices[0].setHasModem(true)
    let back = try await Self.test(harness, "bare")
    #expect(back.status == .online)
  }

  @Test func aModemThatStopsAnsweringIsStillSaidSo() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(
        name: "hung modem", smsCount: 0,
        faults: [
          FaultRule(.hang, pathPrefix: "/api/device"), FaultRule(.hang, pathPrefix: "/api/sim"),
          FaultRule(.hang, pathPrefix: "/api/network"),
        ])
    ])
    defer { Task { await fleet.stop() } }
    let harness = try FeatureHarness(.fleet)
    await harness.register(fleet)
    // Never "no modem" without having been told so.
    #expect(try await Self.test(harness, "hung modem").reason == .modemTimeout)
    #expect(try await Self.test(harness, "hung modem").reason == .modemTimeout)
  }

  @Test func mobileDataSwitchedOffIsOnlineWithANote() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "sms only", smsCount: 0)])
    defer { Task { await fleet.stop() } }
    fleet.devices[0].setDataEnabled(false)
    let harness = try FeatureHarness(.fleet)
    await harness.register(fleet)
    let outcome = await harness.outcome(["fleet", "test", "sms only"])
    #expect(outcome.exitCode == .success)
    let result = try #require(try outcome.payload(TestPayload.self).results.first)
    #expect(result.status == .online)
    #expect(result.reason == .dataOff)
    #expect(result.layers.data == .off)
    #expect(outcome.text(width: 120).contains("Online · data off"))
    let list = await harness.outcome(["fleet", "list"], language: .simplifiedChinese)
    #expect(list.text(width: 120).contains("数据已关闭"))
  }
}
