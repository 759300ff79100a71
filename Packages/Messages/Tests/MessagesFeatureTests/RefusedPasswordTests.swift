import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import MessagesFeature
import SimAdminSimulator
import Testing

/// Issue 29 point 3 in the follow loops: `messages watch` and `code --wait` never log in with
/// a refused password again (before, every round did: 12 failed logins in 12 s).
@Suite struct RefusedPasswordFollowTests {
  @Test func watchAndCodeWaitTryARefusedPasswordOnce() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [DeviceProfile(name: "guarded", password: "right-one-1", smsCount: 2)],
      passwords: ["guarded": "wrong-one-1"])
    let device = harness.devices[0]
    let streams = CapturedStreams()
    var environment = harness.environment
    environment.streams = streams.streams
    let watching = Task { [environment] in
      try await harness.run(["messages", "watch", "--interval", "1s"], environment: environment)
    }
    // A few rounds after the first failed one (however slow the machine).
    for _ in 0..<300 where !streams.error.contains("guarded: failing") {
      try await Task.sleep(nanoseconds: 100_000_000)
    }
    try await Task.sleep(nanoseconds: 3_500_000_000)
    watching.cancel()
    _ = try await watching.value
    #expect(device.loginAttempts().count == 1, "one login in the whole watch")
    #expect(streams.error.contains("guarded: failing"))
    // A later command does not try it either.
    _ = await harness.outcome(["code", "--wait", "2s"])
    let sync = await harness.outcome(["messages", "sync"])
    #expect(sync.exitCode == .failure)
    #expect(device.loginAttempts().count == 1)
    #expect(device.securityAlerts().isEmpty)
    await harness.stop()
  }
}
