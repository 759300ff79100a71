import Essentials
import Foundation
import SimAdminSimulator
import Testing

@testable import SimAdminClient

/// Starts a simulated fleet on loopback for one test and always stops it.
func withFleet<Result>(
  _ profiles: [DeviceProfile], _ body: (SimulatedFleet) async throws -> Result
) async throws -> Result {
  let fleet = try await SimulatedFleet.start(profiles)
  do {
    let result = try await body(fleet)
    await fleet.stop()
    return result
  } catch {
    await fleet.stop()
    throw error
  }
}

/// A session on `device` through a real `SocketTransport`.
func makeSession(
  _ device: SimulatedDevice, password: String? = nil, timeout: TimeInterval = 5,
  transport: any HTTPTransport = SocketTransport(), logger: Logger = .disabled
) -> SimAdminSession {
  SimAdminSession(
    instanceName: device.profile.name, origin: device.origin, transport: transport,
    credentials: { password }, userAgentVersion: "9.9-test", timeout: timeout, logger: logger)
}

/// The error a call failed with, or `nil` when it succeeded.
func failure<T: Sendable>(_ call: () async throws -> T) async -> SimAdminFailure? {
  do {
    _ = try await call()
    return nil
  } catch let error as SimAdminFailure {
    return error
  } catch {
    Issue.record("not a SimAdminFailure: \(error)")
    return nil
  }
}

/// Seconds a call took, measured on the monotonic clock.
func timed<T>(_ body: () async -> T) async -> (T, Double) {
  let start = ContinuousClock.now
  let value = await body()
  let elapsed = ContinuousClock.now - start
  return (value, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}
