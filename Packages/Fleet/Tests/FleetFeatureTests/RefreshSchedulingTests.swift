import FeatureKitTesting
import FleetFeature
import Foundation
import SimAdminSimulator
import Testing

/// How `fleet test` spreads a refresh over its width (issue 19): a slot that frees goes to the
/// next device at once, a slow device holds only its own slot, and no more devices than the
/// width are ever asked at the same moment (counted at the simulated fleet).
@Suite(.serialized) struct RefreshSchedulingTests {
  /// Registers a simulated fleet of `profiles`, runs `fleet test --all` at `width` and
  /// returns its outcome, the most devices the fleet saw asked at once, and the (stopped)
  /// fleet.
  func refresh(_ profiles: [DeviceProfile], width: Int) async throws -> (
    FeatureHarness.Outcome, Int, SimulatedFleet
  ) {
    let fleet = try await SimulatedFleet.start(profiles)
    let harness = try FeatureHarness(.fleet)
    await harness.register(fleet)
    await fleet.resetPeakDevicesInFlight()
    let outcome = await harness.outcome(
      ["fleet", "test", "--all", "--timeout", "10", "--concurrency", String(width)])
    let peak = await fleet.peakDevicesInFlight()
    await fleet.stop()
    return (outcome, peak, fleet)
  }

  @Test func aSlowDeviceHoldsOnlyItsOwnSlotAndTheWidthHolds() async throws {
    // The first device answers after 3 s; the five others at once (10 ms).
    var profiles = [
      DeviceProfile(name: "slow", smsCount: 1, faults: [FaultRule(.latency(milliseconds: 3000))])
    ]
    for index in 1...5 {
      profiles.append(
        DeviceProfile(
          name: "fast\(index)", smsCount: 1, faults: [FaultRule(.latency(milliseconds: 10))]))
    }
    let (outcome, peak, _) = try await refresh(profiles, width: 2)

    #expect(outcome.exitCode == .success, "\(outcome.stderr)")
    // Two slots: the slow device's and one the five fast devices take in turn.
    #expect(peak == 2)
    // Progress lines come in completion order: every fast device ends before the slow one,
    // so the slot the slow device holds never kept them waiting.
    let finished = outcome.stderr.split(separator: "\n").compactMap { line in
      profiles.map(\.name).first { line.contains("] \($0):") || line.contains("] \($0)：") }
    }
    #expect(finished.count == 6, "\(outcome.stderr)")
    #expect(finished.last == "slow", "\(outcome.stderr)")
    let results = try outcome.payload(TestPayload.self).results
    #expect(Set(results.map(\.instanceName)) == Set(profiles.map(\.name)))
    #expect(results.allSatisfy { $0.status == .online })
  }

  @Test func theWidthBoundsTheDevicesAskedAtOnce() async throws {
    let profiles = (1...12).map {
      DeviceProfile(name: "dev\($0)", smsCount: 1, faults: [FaultRule(.latency(milliseconds: 100))])
    }
    let (outcome, peak, fleet) = try await refresh(profiles, width: 4)

    #expect(outcome.exitCode == .success, "\(outcome.stderr)")
    // Every device's seven calls went out, never more than four devices at once, and the
    // four slots were used (each call waits 100 ms: the slots overlap).
    #expect(peak == 4)
    for device in fleet.devices {
      #expect(device.requests().count == 7, "\(device.profile.name)")
    }
  }
}
