import Essentials
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import SimAdminClient
import SimAdminSimulator
import Testing

/// Status layers with their own budgets: a device that answered health is never Offline,
/// and calls that feed no status never change it.
@Suite(.serialized) struct LayeredStatusTests {
  func test(_ profiles: [DeviceProfile], timeout: String, passwords: [String: String] = [:])
    async throws -> (FeatureHarness, [String: ProbeResult], FeatureHarness.Outcome)
  {
    let fleet = try await SimulatedFleet.start(profiles)
    let harness = try FeatureHarness(.fleet)
    await harness.register(fleet, passwords: passwords)
    let outcome = await harness.outcome(["fleet", "test", "--all", "--timeout", timeout])
    await fleet.stop()
    let results = try outcome.payload(TestPayload.self).results
    return (
      harness, Dictionary(uniqueKeysWithValues: results.map { ($0.instanceName, $0) }), outcome
    )
  }

  @Test func slowLayersAreDegradedNamingTheLayerNeverOffline() async throws {
    let (harness, results, outcome) = try await test(
      [
        // A device without a modem whose first modem lookup takes longer than the budget.
        DeviceProfile(name: "slow modem", hasModem: false, smsCount: 0, modemLookupSeconds: 6),
        // The same device with a budget long enough: the real reason shows.
        DeviceProfile(
          name: "hang sim", smsCount: 0, faults: [FaultRule(.hang, pathPrefix: "/api/sim")]),
        // A protected device whose login never answers: the layer calls wait for it.
        DeviceProfile(
          name: "hang auth", password: "pw-1", smsCount: 0,
          faults: [FaultRule(.hang, pathPrefix: "/api/auth")]),
        DeviceProfile(
          name: "bad network", smsCount: 0,
          faults: [FaultRule(.malformedJSON, pathPrefix: "/api/network")]),
        DeviceProfile(name: "hang health", smsCount: 0, faults: [FaultRule(.hang)]),
      ], timeout: "2", passwords: ["hang auth": "pw-1"])
    #expect(results["slow modem"]?.status == .degraded)
    #expect(results["slow modem"]?.reason == .modemTimeout)
    #expect(results["slow modem"]?.layers.reachable == .ok)
    #expect(results["hang sim"]?.status == .degraded)
    #expect(results["hang sim"]?.reason == .simTimeout)
    #expect(results["hang sim"]?.layers.modem == .ok)
    #expect(results["hang auth"]?.status == .degraded)
    #expect(results["hang auth"]?.reason == .authTimeout)
    #expect(results["hang auth"]?.layers.reachable == .ok)
    // It ended at its own budget, not at the hanging login's transport timeout (10 s).
    #expect((results["hang auth"]?.latencyMS ?? .max) < 5_000)
    #expect(results["bad network"]?.status == .degraded)
    #expect(results["bad network"]?.reason == .protocolError)
    // Only a device that never answered health is Offline.
    #expect(results["hang health"]?.status == .offline)
    #expect(results["hang health"]?.reason == .timeout)
    #expect(outcome.text(width: 200).contains("Degraded · modem not answering"))
    let shown = await harness.outcome(["fleet", "show", "slow modem"])
    #expect(shown.text(width: 160).contains("modem not answering after 2 s"))
    let chinese = await harness.outcome(
      ["fleet", "show", "slow modem"], language: .simplifiedChinese)
    #expect(chinese.text(width: 160).contains("调制解调器 2 秒内无应答"))
  }

  @Test func aSlowModemWithEnoughTimeShowsTheRealReason() async throws {
    let (_, results, _) = try await test(
      [DeviceProfile(name: "slow modem", hasModem: false, smsCount: 0, modemLookupSeconds: 1.5)],
      timeout: "6")
    #expect(results["slow modem"]?.status == .degraded)
    #expect(results["slow modem"]?.reason == .noModem)
  }

  @Test func callsThatFeedNoStatusNeverChangeIt() async throws {
    let (harness, results, outcome) = try await test(
      [
        DeviceProfile(
          name: "hang stats", smsCount: 2, faults: [FaultRule(.hang, pathPrefix: "/api/stats")]),
        DeviceProfile(
          name: "broken sms", smsCount: 2,
          faults: [FaultRule(.serverError, pathPrefix: "/api/sms/list")]),
      ], timeout: "2")
    let stats = try #require(results["hang stats"])
    #expect(stats.status == .online)
    #expect(stats.snapshot?.temperatureCelsius == nil)
    #expect(stats.snapshot?.notes?.map(\.part) == [.stats])
    #expect(stats.snapshot?.operatorName != nil)
    #expect(results["broken sms"]?.status == .online)
    #expect(results["broken sms"]?.snapshot?.notes?.map(\.part) == [.latestSMS])
    let text = outcome.text(width: 200)
    #expect(text.contains("hang stats: temperature and resources unknown"), "\(text)")
    let shown = await harness.outcome(["fleet", "show", "hang stats"])
    #expect(shown.text(width: 160).contains("temperature and resources unknown"))
  }

  @Test func protectionWithoutAPasswordIsItsOwnReason() async throws {
    let (harness, results, _) = try await test(
      [
        DeviceProfile(name: "unset", protectedWithoutPassword: true, smsCount: 0),
        DeviceProfile(name: "unset stored", protectedWithoutPassword: true, smsCount: 0),
        DeviceProfile(name: "locked", password: "pw-1", smsCount: 0),
      ], timeout: "3", passwords: ["unset stored": "whatever"])
    #expect(results["unset"]?.status == .loginRequired)
    #expect(results["unset"]?.reason == .passwordNotSet)
    // A stored password cannot help and is not blamed.
    #expect(results["unset stored"]?.status == .loginRequired)
    #expect(results["unset stored"]?.reason == .passwordNotSet)
    #expect(results["locked"]?.reason == .noPassword)
    let english = await harness.outcome(["fleet", "show", "unset stored"])
    #expect(english.text(width: 220).contains("the device has no admin password set"))
    #expect(!english.text(width: 220).contains("no password stored"))
    let chinese = await harness.outcome(["fleet", "show", "unset"], language: .simplifiedChinese)
    #expect(chinese.text(width: 220).contains("设备尚未设置管理员密码"))
  }

  @Test func anOversizedOrTruncatedAnswerIsAProtocolErrorNotAnEmptyState() async throws {
    let (_, results, _) = try await test(
      [
        DeviceProfile(
          name: "oversized sim", smsCount: 0,
          faults: [FaultRule(.oversized(bytes: 50_000), pathPrefix: "/api/sim")]),
        DeviceProfile(
          name: "truncated device", smsCount: 0,
          faults: [FaultRule(.malformedJSON, pathPrefix: "/api/device")]),
      ], timeout: "3")
    #expect(results["oversized sim"]?.status == .degraded)
    #expect(results["oversized sim"]?.reason == .protocolError)
    #expect(results["oversized sim"]?.detail?.contains("data.present") == true)
    #expect(results["truncated device"]?.reason == .protocolError)
  }
}
