import Dispatch
import Essentials
import Foundation

/// A running fleet of simulated SimAdmin devices, each on its own 127.0.0.1 port, all served
/// by one event-loop thread.
public final class SimulatedFleet: Sendable {
  /// The devices, in the order of the profiles given to ``start(_:basePort:clock:)``.
  public let devices: [SimulatedDevice]
  let server: FleetServer

  init(devices: [SimulatedDevice], server: FleetServer) {
    self.devices = devices
    self.server = server
  }

  /// Starts one listener per profile on 127.0.0.1. `basePort` nil → ephemeral ports (use
  /// this in tests); otherwise device *i* listens on `basePort + i`.
  public static func start(
    _ profiles: [DeviceProfile], basePort: Int? = nil, clock: AppClock = .system
  ) async throws -> SimulatedFleet {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          with: Result { try startNow(profiles, basePort: basePort, clock: clock) })
      }
    }
  }

  static func startNow(
    _ profiles: [DeviceProfile], basePort: Int?, clock: AppClock
  ) throws -> SimulatedFleet {
    if let basePort {
      for port in [basePort, basePort + max(0, profiles.count - 1)]
      where !(1...65_535).contains(port) {
        throw SimulatorError.invalidPort(port)
      }
    }
    Socket.raiseOpenFileLimit()
    let server = try FleetServer(clock: clock)
    var devices: [SimulatedDevice] = []
    devices.reserveCapacity(profiles.count)
    // The loop thread has not started yet, so its state may be set up from here.
    do {
      for (index, profile) in profiles.enumerated() {
        let wanted = basePort.map { $0 + index } ?? 0
        let port = try server.openListener(index: index, port: wanted)
        devices.append(
          SimulatedDevice(index: index, port: port, profile: profile, server: server, clock: clock))
        if profile.faults.contains(where: { $0.fault == .down }) {
          server.takeDown(index: index, port: port)
        }
        server.startTraffic(index: index, perMinute: profile.trafficPerMinute)
      }
    } catch {
      server.closeAll()
      throw error
    }
    server.attach(devices)
    server.loop.start()
    return SimulatedFleet(devices: devices, server: server)
  }

  /// The most devices that had a request in flight (received, not yet answered in full) at
  /// the same moment since the fleet started or ``resetPeakDevicesInFlight()``: what a
  /// client's concurrency width must bound.
  public func peakDevicesInFlight() async -> Int {
    await onLoop { $0.peakDevicesInFlight } ?? 0
  }

  /// Starts counting ``peakDevicesInFlight()`` afresh.
  public func resetPeakDevicesInFlight() async {
    _ = await onLoop { $0.resetPeakDevicesInFlight() }
  }

  private func onLoop<T: Sendable>(_ body: @escaping @Sendable (FleetServer) -> T) async -> T? {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
      DispatchQueue.global().async { [server] in
        continuation.resume(returning: server.loop.run { body(server) })
      }
    }
  }

  /// Closes every listener and connection (hung ones too); nothing stays listening.
  public func stop() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async { [server] in
        server.loop.shutdown { server.closeAll() }
        continuation.resume()
      }
    }
  }
}
