import Essentials
import Foundation
import HTTPKit

/// The devices of a fleet on one HTTPKit ``HTTPServer``: one listener per device, tagged with
/// the device's index, every request answered by that device's plan (its router and faults).
/// Setup calls run on the server's loop thread or before it starts, which is what makes the
/// unchecked `Sendable` sound; the devices themselves are read from any thread (the in-memory
/// transport asks from the caller's task).
final class FleetServer: @unchecked Sendable {
  let http: HTTPServer
  let clock: AppClock
  private let devices: Locked<[SimulatedDevice]>
  /// Sends waiting for their device's modem, by device index and token. Loop thread only.
  private var waitingSends: [Int: [Int: ServerPending]] = [:]

  init(clock: AppClock) throws {
    let devices = Locked<[SimulatedDevice]>([])
    do {
      http = try HTTPServer { request, index in
        let device = devices.withLock { index < $0.count ? $0[index] : nil }
        return device?.plan(for: request, now: clock.now())
      }
    } catch {
      throw SimulatorError.eventLoopFailed(call: error.call, errno: error.code)
    }
    self.devices = devices
    self.clock = clock
    http.onPending { [weak self] pending in
      guard let self else { return }
      _ = self.loop.execute { [weak self] in self?.wait(pending) }
    }
  }

  /// The loop every socket of the fleet runs on.
  var loop: ServerEventLoop { http.loop }

  // MARK: - Setup (before the loop starts)

  func attach(_ devices: [SimulatedDevice]) {
    self.devices.withLock { $0 = devices }
  }

  /// Opens `device`'s listener; returns the bound port. Loop thread (or before start).
  @discardableResult
  func openListener(index: Int, port: Int) throws -> Int {
    do {
      return try http.openListener(tag: index, port: port)
    } catch {
      throw SimulatorError.listenFailed(port: port, call: error.call, errno: error.code)
    }
  }

  /// Takes `device` down: no listener, every connection closed, but the port stays bound
  /// (refusing connections) so no other socket can take it meanwhile. Loop thread.
  func takeDown(index: Int, port: Int) {
    http.takeDown(tag: index, port: port)
  }

  /// Closes `device`'s listener and every connection to it. Loop thread.
  func closeListener(index: Int) {
    http.closeListener(tag: index)
  }

  /// Adds one live SMS every `60 / rate` seconds to `device`.
  func startTraffic(index: Int, perMinute rate: Double) {
    guard rate > 0 else { return }
    let interval = 60 / rate
    func tick() {
      guard let device = devices.withLock({ index < $0.count ? $0[index] : nil }) else { return }
      device.receiveLiveSMS()
      loop.schedule(after: interval, tick)
    }
    loop.schedule(after: interval, tick)
  }

  /// Closes everything. Loop thread.
  func closeAll() {
    http.closeAll()
    devices.withLock { $0 = [] }
    waitingSends = [:]
  }

  // MARK: - Sends waiting for the modem (loop thread)

  /// A send waiting for the modem (its device answered with a deferred token): answered when
  /// the modem has sent it.
  private func wait(_ pending: ServerPending) {
    waitingSends[pending.tag, default: [:]][pending.token] = pending
    pumpSends(pending.tag)
  }

  /// Gives the device's modem its next send, one at a time (the device's modem lock): a send
  /// whose client left before its turn is dropped when the device cancels with the client;
  /// one the modem has taken is finished and answered (if its client still waits), then the
  /// next one starts.
  private func pumpSends(_ index: Int) {
    guard let device = devices.withLock({ index < $0.count ? $0[index] : nil }) else { return }
    while let token = device.takeNextSend() {
      guard let pending = waitingSends[index]?[token] else {
        device.dropSend(token)
        continue
      }
      if !pending.isWaiting, device.sendsEndWithTheirClient {
        waitingSends[index]?[token] = nil
        device.dropSend(token)
        continue
      }
      let seconds = device.beginSend(token)
      loop.schedule(after: seconds) { [unowned self] in
        self.waitingSends[index]?[token] = nil
        let answer = device.finishSend(token, clientGone: !pending.isWaiting)
        if pending.isWaiting { pending.answer(answer) }
        self.pumpSends(index)
      }
      return
    }
  }

  // MARK: - Requests in flight

  /// The most devices that had a request in flight at once since the last reset.
  var peakDevicesInFlight: Int { http.peakTagsInFlight }

  /// Starts counting the peak of devices in flight afresh (from those in flight now).
  func resetPeakDevicesInFlight() {
    http.resetPeakTagsInFlight()
  }
}
