import Essentials
import FeatureKit
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import SimAdminClient
import SimAdminSimulator
import Testing
import ViewKit

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

  /// What changed the device: every request but reads (and logins, which change nothing).
  func writes(_ device: SimulatedDevice) -> [String] {
    device.requests().filter { $0.method != "GET" && !$0.target.hasPrefix("/api/auth/") }
      .map(\.target)
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
    HubBinding.standalone(), .standalone(leftoverURL: "http://10.0.0.2:3001"), .waiting,
    .bound(url: "http://10.0.0.9:3001"),
  ])
  func removingNeverWritesToTheDevice(_ binding: HubBinding) async throws {
    let (fleet, harness) = try await setUp(
      [DeviceProfile(name: "mine", hub: binding, smsCount: 0)], password: nil)
    let device = fleet.devices[0]
    let before = try await hubAnswer(device, harness)
    device.clearRequests()
    let outcome = await harness.outcome(["fleet", "remove", "mine", "--yes"])
    let requests = device.requests().map(\.target)
    let after = try await hubAnswer(device, harness)
    await fleet.stop()
    #expect(outcome.exitCode == .success, "\(outcome.message)")
    let report = try #require(try outcome.payload(RemovePayload.self).removals.first)
    #expect(report.release == .leftAsIs)
    #expect(report.deleted)
    #expect(try harness.registry.list().isEmpty)
    // Read, never written: the device's own answer is byte for byte what it was.
    #expect(after == before)
    #expect(writes(device) == [])
    #expect(requests == ["/api/hub"])
    #expect(device.hubBinding == binding)
    switch binding {
    case .bound(let url):
      #expect(report.hub == .bound)
      #expect(report.hubURL == url)
      #expect(outcome.text(width: 200).contains("bound to \(url), left as is"))
      #expect(!device.isClaimable, "still its Hub's, never opened to the LAN")
    case .waiting: #expect(report.hub == .waiting)
    case .standalone: #expect(report.hub == .standalone)
    }
  }

  @Test func whatRemovalLeavesIsSaidEvenWhenTheDeviceCannotBeRead() async throws {
    let (fleet, harness) = try await setUp([
      DeviceProfile(name: "old", version: "1.1.8", smsCount: 0),
      DeviceProfile(
        name: "refusing", password: "other-pw", hub: .bound(url: "http://h:3001"), smsCount: 0),
      DeviceProfile(name: "gone", smsCount: 0, faults: [FaultRule(.down)]),
    ])
    let outcome = await harness.outcome(["fleet", "remove", "old", "refusing", "gone", "--yes"])
    await fleet.stop()
    #expect(outcome.exitCode == .success, "removal is local: nothing keeps an instance")
    let reports = Dictionary(
      uniqueKeysWithValues: try outcome.payload(RemovePayload.self).removals.map { ($0.name, $0) })
    #expect(reports["old"]?.hub == .notSupported)
    #expect(reports["refusing"]?.hub == .unreadable)
    #expect(reports["refusing"]?.hubReason == "wrongPassword")
    #expect(reports["gone"]?.hub == .unreadable)
    #expect(reports.values.allSatisfy { $0.deleted && $0.release == .leftAsIs })
    #expect(try harness.registry.list().isEmpty)
    #expect(try harness.store.credentials.instanceIDsWithPasswords().isEmpty)
    for device in fleet.devices { #expect(writes(device) == []) }
    let text = outcome.text(width: 200)
    #expect(text.contains("no Hub routes"))
    #expect(text.contains("Hub binding unreadable"))
  }

  @Test func releasingIsAnExplicitChoiceThatNamesTheHubAndLeavesTheDeviceStandalone()
    async throws
  {
    let (fleet, harness) = try await setUp([
      DeviceProfile(name: "bound", hub: .bound(url: "http://10.0.0.9:3001"), smsCount: 0),
      DeviceProfile(name: "alone", hub: .standalone(), smsCount: 0),
    ])
    let bound = fleet.devices[0]
    // The device's own fallback settings, which a release must keep.
    _ = try await harness.connector.transport.send(
      SimAdminRoute.hubSave(
        enabled: true, url: "http://10.0.0.9:3001", localFallbackTimeoutSeconds: 300,
        localFallbackEnabled: false
      ).request(origin: bound.origin), timeout: 10)
    bound.clearRequests()
    // Without --yes: the question names each device's Hub, read now; nothing is written.
    let asked = await harness.outcome(["fleet", "remove", "bound", "alone", "--release-hub"])
    #expect(asked.exitCode == .failure)
    #expect(asked.message.contains("bound to http://10.0.0.9:3001"))
    #expect(asked.message.contains("alone: standalone"))
    #expect(asked.message.contains("--yes"))
    #expect(writes(bound) == [])
    #expect(try harness.registry.list().count == 2)
    let outcome = await harness.outcome([
      "fleet", "remove", "bound", "alone", "--release-hub", "--yes",
    ])
    #expect(outcome.exitCode == .success, "\(outcome.message)")
    let reports = Dictionary(
      uniqueKeysWithValues: try outcome.payload(RemovePayload.self).removals.map { ($0.name, $0) })
    #expect(reports["bound"]?.release == .released)
    #expect(reports["alone"]?.release == .nothingToRelease)
    // Standalone, the rest of its configuration as it was, never claimable; no unbind.
    #expect(bound.hubBinding == .standalone(leftoverURL: "http://10.0.0.9:3001"))
    #expect(!bound.isClaimable)
    #expect(writes(bound) == ["/api/hub"])
    let config =
      try JSONSerialization.jsonObject(with: try await hubAnswer(bound, harness)) as? [String: Any]
    let saved = (config?["data"] as? [String: Any])?["config"] as? [String: Any]
    #expect(saved?["local_fallback_timeout_seconds"] as? Int == 300)
    #expect(saved?["local_fallback_enabled"] as? Bool == false)
    #expect(writes(fleet.devices[1]) == [])
    #expect(outcome.text(width: 200).contains("released from http://10.0.0.9:3001"))
    await fleet.stop()
  }

  @Test func aFailedOrUnansweredReleaseKeepsTheInstanceUnlessForced() async throws {
    let (fleet, harness) = try await setUp([
      DeviceProfile(
        name: "broken", hub: .bound(url: "http://h:3001"), smsCount: 0,
        faults: [FaultRule(.serverError, pathPrefix: "/api/hub", method: "POST")]),
      DeviceProfile(
        name: "slow", hub: .bound(url: "http://h:3001"), smsCount: 0,
        faults: [FaultRule(.latency(milliseconds: 8_000), pathPrefix: "/api/hub", method: "POST")]),
      DeviceProfile(
        name: "gone", hub: .bound(url: "http://h:3001"), smsCount: 0, faults: [FaultRule(.down)]),
    ])
    let outcome = await harness.outcome([
      "fleet", "remove", "broken", "slow", "gone", "--release-hub", "--yes",
    ])
    #expect(outcome.exitCode == .failure)
    let reports = Dictionary(
      uniqueKeysWithValues: try outcome.payload(RemovePayload.self).removals.map { ($0.name, $0) })
    #expect(reports["broken"]?.release == .failed)
    #expect(reports["broken"]?.releaseReason == "http500")
    // The device answered GET /api/hub: a release it does not answer in time is not
    // "unreachable", it may have happened.
    #expect(reports["slow"]?.release == .unanswered)
    #expect(reports["slow"]?.hub == .bound)
    #expect(reports["gone"]?.release == .failed)
    #expect(reports["gone"]?.hub == .unreadable)
    #expect(reports.values.allSatisfy { !$0.deleted })
    #expect(try harness.registry.list().count == 3)
    let text = outcome.text(width: 220)
    #expect(text.contains("release failed"))
    let slowLine = text.split(separator: "\n").first { $0.hasPrefix("slow") } ?? ""
    #expect(slowLine.contains("may have been released"))
    #expect(!slowLine.contains("nreachable"))
    #expect(text.contains("--force"))
    let forced = await harness.outcome([
      "fleet", "remove", "broken", "gone", "--release-hub", "--yes", "--force",
    ])
    await fleet.stop()
    #expect(forced.exitCode == .success)
    #expect(
      try forced.payload(RemovePayload.self).removals.allSatisfy {
        $0.deleted && $0.mayStillBeBound
      })
    #expect(forced.text(width: 200).contains("may still be bound"))
    #expect(try harness.registry.list().map(\.name) == ["slow"])
  }

  @Test func theConsolesReleaseScreenNamesTheHubItWouldRelease() async throws {
    let (fleet, harness) = try await setUp(
      [DeviceProfile(name: "bound", hub: .bound(url: "http://10.0.0.9:3001"), smsCount: 0)],
      password: nil)
    let route = try #require(
      Fleet.module.routes.first { $0.pattern.description == "fleet/:ref/release" })
    let node = await route.render(
      RouteRequest(
        path: "fleet/bound/release", parameters: ["ref": "bound"],
        environment: harness.environment))
    await fleet.stop()
    guard case .screen(let screen) = node else {
      Issue.record("expected a screen, got \(node)")
      return
    }
    // The confirmation names the screen: "Release bound · bound to http://10.0.0.9:3001…".
    #expect(screen.title == "bound · bound to http://10.0.0.9:3001")
    #expect(writes(fleet.devices[0]) == [])
  }

  @Test func chineseOutcomes() async throws {
    let (fleet, harness) = try await setUp([
      DeviceProfile(name: "gone", smsCount: 0, faults: [FaultRule(.down)])
    ])
    let outcome = await harness.outcome(
      ["fleet", "remove", "gone", "--release-hub", "--yes"], language: .simplifiedChinese)
    await fleet.stop()
    let rendered = outcome.text(width: 140, language: .simplifiedChinese)
    #expect(rendered.contains("无法读取 Hub 绑定"))
    #expect(rendered.contains("--force"))
  }
}
