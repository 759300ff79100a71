import Essentials
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import SimAdminClient
import SimAdminSimulator
import Testing

@Suite struct RemoveTests {
  func setUp(_ profiles: [DeviceProfile], password: String? = "stored-pw") async throws -> (
    SimulatedFleet, FeatureHarness
  ) {
    let fleet = try await SimulatedFleet.start(profiles)
    let harness = try FeatureHarness(.fleet)
    harness.attach(fleet)
    for device in fleet.devices {
      var arguments = [
        "fleet", "add", "--name", device.profile.name, "--url", device.origin.absoluteString,
      ]
      if password != nil { arguments.append("--password-stdin") }
      let outcome = await harness.outcome(arguments, input: password)
      #expect(outcome.exitCode == .success)
    }
    return (fleet, harness)
  }

  /// `GET /api/hub` exactly as the device answers it, bytes and all (through the harness's
  /// transport, bypassing its connector).
  func hubAnswer(_ device: SimulatedDevice, _ harness: FeatureHarness) async throws -> Data {
    let request = try SimAdminRoute.hub.request(origin: device.origin)
    let response = try await harness.connector.transport.send(request, timeout: 10)
    #expect(response.status == 200)
    return response.body
  }

  func writes(_ device: SimulatedDevice) -> [String] {
    device.requests().filter { $0.method != "GET" }.map(\.target)
  }

  @Test func withoutYesNothingIsDeleted() async throws {
    let (fleet, harness) = try await setUp([DeviceProfile(name: "a", smsCount: 0)])
    let before = try harness.fingerprint()
    let outcome = await harness.outcome(["fleet", "remove", "a"])
    await fleet.stop()
    #expect(outcome.exitCode == .failure)
    #expect(outcome.message.contains("--yes"))
    #expect(outcome.message.contains("a"))
    #expect(outcome.message.contains("1"))
    #expect(try harness.fingerprint() == before)
    #expect(fleet.devices[0].requests().isEmpty)
  }

  @Test(arguments: [
    HubBinding.standalone(), .standalone(leftoverURL: "ws://10.0.0.2:3001"), .waiting,
  ])
  func aDeviceThatIsNotBoundIsNeverWrittenTo(_ binding: HubBinding) async throws {
    let (fleet, harness) = try await setUp(
      [DeviceProfile(name: "mine", hub: binding, smsCount: 0)], password: nil)
    let device = fleet.devices[0]
    let before = try await hubAnswer(device, harness)
    device.clearRequests()
    let outcome = await harness.outcome(["fleet", "remove", "mine", "--yes"])
    let after = try await hubAnswer(device, harness)
    await fleet.stop()
    #expect(outcome.exitCode == .success, "\(outcome.message)")
    let report = try #require(try outcome.payload(RemovePayload.self).removals.first)
    #expect(report.release == .nothingToRelease)
    #expect(report.deleted)
    #expect(try harness.registry.list().isEmpty)
    // Read, never written: the device's own answer is byte for byte what it was.
    #expect(after == before)
    #expect(writes(device) == [])
    #expect(device.requests().first?.target == "/api/hub")
  }

  @Test func outcomesReleasedNotSupportedAndKept() async throws {
    let (fleet, harness) = try await setUp([
      DeviceProfile(name: "bound", hub: .bound(url: "ws://10.0.0.9:3001"), smsCount: 0),
      DeviceProfile(name: "old", version: "1.1.8", smsCount: 0),
      DeviceProfile(
        name: "refusing", password: "other-pw", hub: .bound(url: "ws://h:3001"), smsCount: 0),
      DeviceProfile(name: "gone", smsCount: 0, faults: [FaultRule(.down)]),
      DeviceProfile(
        name: "no admin pw", protectedWithoutPassword: true, hub: .bound(url: "ws://h:3001"),
        smsCount: 0),
      DeviceProfile(
        name: "broken unbind", hub: .bound(url: "ws://h:3001"), smsCount: 0,
        faults: [FaultRule(.serverError, pathPrefix: "/api/hub/unbind")]),
    ])
    let outcome = await harness.outcome([
      "fleet", "remove", "bound", "old", "refusing", "gone", "no admin pw", "broken unbind",
      "--yes",
    ])
    #expect(outcome.exitCode == .failure)
    let reports = Dictionary(
      uniqueKeysWithValues: try outcome.payload(RemovePayload.self).removals.map { ($0.name, $0) })
    #expect(reports["bound"]?.release == .released)
    #expect(reports["bound"]?.deleted == true)
    #expect(reports["old"]?.release == .notSupported)
    #expect(reports["old"]?.deleted == true)
    #expect(reports["gone"]?.release == .unreachable)
    #expect(reports["gone"]?.deleted == false)
    #expect(reports["refusing"]?.release == .loginRequired)
    #expect(reports["refusing"]?.deleted == false)
    #expect(reports["no admin pw"]?.release == .loginRequired)
    #expect(reports["no admin pw"]?.releaseReason == "passwordNotSet")
    #expect(reports["broken unbind"]?.release == .refused)
    #expect(reports["broken unbind"]?.deleted == false)
    #expect(
      try harness.registry.list().map(\.name).sorted()
        == ["broken unbind", "gone", "no admin pw", "refusing"])
    // The bound device was released: back to waiting for a Hub.
    let released = try await hubAnswer(fleet.devices[0], harness)
    #expect(String(decoding: released, as: UTF8.self).contains(#""url":"""#))
    // Removed instances lose their stored password; kept ones keep theirs.
    #expect(try harness.store.credentials.instanceIDsWithPasswords().count == 4)
    let text = outcome.text(width: 140)
    #expect(text.contains("release refused"))
    #expect(text.contains("--force"))

    let forced = await harness.outcome(["fleet", "remove", "refusing", "gone", "--yes", "--force"])
    await fleet.stop()
    #expect(forced.exitCode == .success)
    let forcedReports = try forced.payload(RemovePayload.self).removals
    #expect(forcedReports.allSatisfy { $0.deleted && $0.mayStillBeBound })
    #expect(forced.text(width: 200).contains("may still be bound"))
    #expect(try harness.registry.list().count == 2)
  }

  @Test func chineseOutcomes() async throws {
    let (fleet, harness) = try await setUp([
      DeviceProfile(name: "gone", smsCount: 0, faults: [FaultRule(.down)])
    ])
    let outcome = await harness.outcome(
      ["fleet", "remove", "gone", "--yes"], language: .simplifiedChinese)
    await fleet.stop()
    let rendered = outcome.text(width: 140, language: .simplifiedChinese)
    #expect(rendered.contains("无法连接"))
    #expect(rendered.contains("--force"))
  }
}
