import Essentials
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import SimAdminClient
import SimAdminSimulator
import Testing

/// Issue 29 point 3: a password the device refused is remembered as refused (per instance,
/// until the password or the origin changes). The device counts every login; it alerts its
/// owner after 5 failed ones in 5 minutes.
@Suite struct RefusedPasswordTests {
  @Test func aRefusedPasswordIsTriedOnceAcrossCommandsUntilItChanges() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "guarded", password: "right-one-1", smsCount: 0)
    ])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    let harness = try FeatureHarness(.fleet)
    await harness.register(fleet, passwords: ["guarded": "wrong-one-1"])
    for _ in 0..<4 {
      let outcome = await harness.outcome(["fleet", "test", "guarded"])
      let result = try #require(try outcome.payload(TestPayload.self).results.first)
      #expect(result.status == .loginRequired)
      #expect(result.reason == .wrongPassword)
    }
    #expect(device.loginAttempts().count == 1, "one login in four tests, not one per call")
    #expect(device.securityAlerts().isEmpty)
    // Logging in with the refused stored password is refused here, naming the way out.
    let login = await harness.outcome(["fleet", "login", "guarded"])
    #expect(login.exitCode == .failure)
    #expect(login.message.contains("--password-stdin"))
    #expect(device.loginAttempts().count == 1)
    // A new password is tried (and kept).
    let edit = await harness.outcome(
      ["fleet", "edit", "guarded", "--password-stdin"], input: "right-one-1")
    #expect(edit.exitCode == .success)
    let fixed = await harness.outcome(["fleet", "test", "guarded"])
    #expect(try fixed.payload(TestPayload.self).results.first?.status == .online)
    #expect(device.loginAttempts().map(\.accepted) == [false, true])
  }

  @Test func aNewOriginIsTriedOnceAgain() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "guarded", password: "right-one-1", smsCount: 0)
    ])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    let harness = try FeatureHarness(.fleet)
    await harness.register(fleet, passwords: ["guarded": "wrong-one-1"])
    _ = await harness.outcome(["fleet", "test", "guarded"])
    _ = await harness.outcome(["fleet", "test", "guarded"])
    #expect(device.loginAttempts().count == 1)
    // The same device under another address: the refusal was the old origin's.
    let moved = await harness.outcome(
      ["fleet", "edit", "guarded", "--url", "http://localhost:\(device.port)"])
    #expect(moved.exitCode == .success, "\(moved.message)")
    _ = await harness.outcome(["fleet", "test", "guarded"])
    _ = await harness.outcome(["fleet", "test", "guarded"])
    #expect(device.loginAttempts().count == 2)
  }

  @Test func aLoginThatDoesNotAnswerIsNotRepeatedWithinTheDevicesWindow() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(
        name: "slow login", password: "right-one-1", smsCount: 0,
        faults: [FaultRule(.hang, pathPrefix: "/api/auth/login")])
    ])
    defer { Task { await fleet.stop() } }
    let device = fleet.devices[0]
    let harness = try FeatureHarness(.fleet, timeout: 1)
    await harness.register(fleet, passwords: ["slow login": "right-one-1"])
    let connector = harness.connector
    let instance = try #require(try harness.registry.list().first)
    let session = connector.session(
      for: instance.id, name: instance.name, origin: instance.origin.url)
    for _ in 0..<3 {
      await #expect(throws: SimAdminFailure.self) { _ = try await session.device() }
    }
    #expect(device.requests().count { $0.target == "/api/auth/login" } == 1)
    harness.clock.advance(by: SimAdminSession.loginRetryAfter + 1)
    await #expect(throws: SimAdminFailure.self) { _ = try await session.device() }
    #expect(device.requests().count { $0.target == "/api/auth/login" } == 2)
  }
}
