import Essentials
import FleetFeature
import Foundation
import LocalStore
import SimAdminSimulator
import Testing

@Suite struct RemoveTests {
  func setUp(_ profiles: [DeviceProfile]) async throws -> (SimulatedFleet, Harness) {
    let fleet = try await SimulatedFleet.start(profiles)
    let harness = try Harness()
    for device in fleet.devices {
      let outcome = await harness.run(
        [
          "fleet", "add", "--name", device.profile.name, "--url", device.origin.absoluteString,
          "--password-stdin",
        ], input: "stored-pw")
      #expect(outcome.exitCode == .success)
    }
    return (fleet, harness)
  }

  @Test func withoutYesNothingIsDeleted() async throws {
    let (fleet, harness) = try await setUp([DeviceProfile(name: "a", smsCount: 0)])
    let before = try harness.fingerprint()
    let outcome = await harness.run(["fleet", "remove", "a"])
    await fleet.stop()
    #expect(outcome.exitCode == .failure)
    #expect(outcome.message.contains("--yes"))
    #expect(outcome.message.contains("a"))
    #expect(outcome.message.contains("1"))
    #expect(try harness.fingerprint() == before)
    #expect(fleet.devices[0].requests().allSatisfy { !$0.target.hasPrefix("/api/hub/unbind") })
  }

  @Test func releasedSkippedAndFailed() async throws {
    let (fleet, harness) = try await setUp([
      DeviceProfile(name: "new", smsCount: 0),
      DeviceProfile(name: "old", version: "1.1.8", smsCount: 0),
      DeviceProfile(name: "refusing", password: "other-pw", smsCount: 0),
      DeviceProfile(name: "gone", smsCount: 0, faults: [FaultRule(.down)]),
    ])
    let outcome = await harness.run(["fleet", "remove", "new", "old", "refusing", "gone", "--yes"])
    #expect(outcome.exitCode == .failure)
    let reports = Dictionary(
      uniqueKeysWithValues: try outcome.payload(RemovePayload.self).removals.map { ($0.name, $0) })
    #expect(reports["new"]?.release == .released)
    #expect(reports["new"]?.deleted == true)
    #expect(reports["old"]?.release == .skipped)
    #expect(reports["old"]?.deleted == true)
    #expect(reports["gone"]?.release == .skipped)
    #expect(reports["gone"]?.deleted == true)
    #expect(reports["refusing"]?.release == .failed)
    #expect(reports["refusing"]?.deleted == false)
    #expect(try harness.registry.list().map(\.name) == ["refusing"])
    // Removed instances lose their stored password; the kept one keeps it.
    #expect(try harness.store.credentials.instanceIDsWithPasswords().count == 1)
    #expect(outcome.text(width: 120).contains("release failed"))

    let forced = await harness.run(["fleet", "remove", "refusing", "--yes", "--force"])
    await fleet.stop()
    #expect(forced.exitCode == .success)
    #expect(try forced.payload(RemovePayload.self).removals.first?.release == .failed)
    #expect(try harness.registry.list().isEmpty)
    #expect(try harness.store.credentials.instanceIDsWithPasswords().isEmpty)
  }
}
