import FeatureKitTesting
import Foundation
import SimAdminClient
import SimAdminSimulator
import Testing

@testable import FleetFeature

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

/// The slots that take device after device give the same results, in the same order, as the
/// scheduling they replaced (a task group whose parent handed each freed slot on).
@Suite(.serialized) struct SlotSchedulingTests {
  /// A result without what depends on the moment (when, how long).
  static func timeless(_ result: ProbeResult) -> String {
    var copy = result
    copy.checkedAt = Date(timeIntervalSince1970: 0)
    copy.latencyMS = 0
    copy.requests = copy.requests.map {
      var request = $0
      request.milliseconds = 0
      return request
    }.sorted { ($0.route, $0.method) < ($1.route, $1.method) }
    return String(reflecting: copy)
  }

  @Test(arguments: [1, 3, 32]) func slotsGiveTheSameResultsAsTheParentHandOff(width: Int)
    async throws
  {
    var profiles: [DeviceProfile] = []
    for index in 0..<5 {
      profiles.append(
        DeviceProfile(
          name: "fast\(index)", smsCount: index,
          faults: [FaultRule(.latency(milliseconds: 5 * index))]))
    }
    profiles += [
      DeviceProfile(name: "locked", password: "right-pw", smsCount: 2),
      DeviceProfile(name: "nomodem", hasModem: false, smsCount: 0),
      DeviceProfile(name: "reset", smsCount: 0, faults: [FaultRule(.reset)]),
      DeviceProfile(name: "broken", smsCount: 0, faults: [FaultRule(.serverError)]),
      DeviceProfile(name: "slow", smsCount: 1, faults: [FaultRule(.latency(milliseconds: 120))]),
    ]
    let fleet = try await SimulatedFleet.start(profiles)
    let harness = try FeatureHarness(.fleet)
    await harness.register(fleet, passwords: ["locked": "right-pw"])
    let instances = try harness.registry.list()
    // The same instance twice: both ways keep the last result of an id for each place.
    let asked = instances + [instances[0]]
    let credentials = harness.store.credentials
    func prober() -> Prober {
      Prober(
        connector: SimAdminConnector(timeout: 5, userAgentVersion: "test") { id in
          try? credentials.password(for: id)
        },
        credentials: credentials, clock: .system, timeout: 5)
    }
    var seenBySlots: [String] = []
    let bySlots = await prober().probe(asked, width: width) { seenBySlots.append($0.instanceID) }
    var seenByParent: [String] = []
    let byParent = await prober().probeThroughParent(asked, width: width) {
      seenByParent.append($0.instanceID)
    }
    await fleet.stop()

    #expect(bySlots.count == asked.count)
    #expect(bySlots.map(\.instanceID) == asked.map(\.id))
    #expect(bySlots.map(Self.timeless) == byParent.map(Self.timeless))
    // Every result is seen once as it arrives, whichever way.
    #expect(seenBySlots.sorted() == asked.map(\.id).sorted())
    #expect(seenByParent.sorted() == seenBySlots.sorted())
    #expect(bySlots.contains { $0.status == .online })
    #expect(bySlots.contains { $0.status == .offline })
    #expect(bySlots.contains { $0.status == .degraded })
  }
}
