import Dispatch
import Essentials
import Foundation
import HTTPKit

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
    HTTPServer.raiseOpenFileLimit()
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
  /// client's concurrency width must bound. Requests over sockets and through
  /// ``inMemoryTransport(maxResponseBytes:fallback:)`` count alike.
  public func peakDevicesInFlight() async -> Int {
    server.peakDevicesInFlight
  }

  /// Starts counting ``peakDevicesInFlight()`` afresh.
  public func resetPeakDevicesInFlight() async {
    server.resetPeakDevicesInFlight()
  }

  /// A transport that hands a request for one of these devices straight to the device (its
  /// router and faults) without a socket: HTTPKit's `InMemoryTransport`. What a client sees is
  /// what it would see over loopback HTTP: the same answers and headers, a device that is
  /// `.down` refuses, `latency` waits, `hang` runs into the client's timeout, `reset` resets,
  /// `slowBody` takes as long, `oversized` passes the cap. Requests to any other origin go to
  /// `fallback` (refused without one).
  public func inMemoryTransport(
    maxResponseBytes: Int = 8 * 1024 * 1024, fallback: (any HTTPTransport)? = nil
  ) -> InMemoryTransport {
    InMemoryTransport(server: server.http, maxResponseBytes: maxResponseBytes, fallback: fallback)
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
