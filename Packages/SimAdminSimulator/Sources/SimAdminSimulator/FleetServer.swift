import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The sockets of a whole fleet on one event loop. All mutable state is touched only on the
/// loop's thread (or before it starts), which is what makes the unchecked `Sendable` sound.
final class FleetServer: @unchecked Sendable {
  let loop: EventLoop
  let clock: AppClock
  private var devices: [SimulatedDevice] = []
  private var listeners: [Int: Int32] = [:]
  /// Ports of devices that are down: bound, not listening (see `takeDown`).
  private var reserved: [Int: Int32] = [:]
  private var connections: [Int32: HTTPConnection] = [:]
  private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
  /// Requests in flight per device index, and how many devices had one in flight at once at
  /// most since the last reset (what a client's concurrency width bounds).
  private var inFlight: [Int: Int] = [:]
  /// Sends waiting for their device's modem, by device index and token: the connection to
  /// answer on and whether to keep it open.
  private var waitingSends: [Int: [Int: (HTTPConnection, Bool)]] = [:]
  private(set) var peakDevicesInFlight = 0

  init(clock: AppClock) throws {
    loop = try EventLoop()
    self.clock = clock
  }

  // MARK: - Setup (before the loop starts)

  func attach(_ devices: [SimulatedDevice]) {
    self.devices = devices
  }

  /// Opens `device`'s listener; returns the bound port. Loop thread (or before start).
  @discardableResult
  func openListener(index: Int, port: Int) throws -> Int {
    if listeners[index] != nil { return port }
    let fd: Int32
    let bound: Int
    if let reserved = reserved.removeValue(forKey: index) {
      try Socket.startListening(reserved, port: port)
      (fd, bound) = (reserved, port)
    } else {
      (fd, bound) = try Socket.listen(port: port)
    }
    do {
      try loop.register(fd) { [unowned self] _ in self.acceptAll(listener: fd, index: index) }
    } catch {
      close(fd)
      throw error
    }
    listeners[index] = fd
    return bound
  }

  /// Takes `device` down: no listener, every connection closed, but the port stays bound
  /// (refusing connections) so no other socket can take it meanwhile. Loop thread.
  func takeDown(index: Int, port: Int) {
    closeListener(index: index)
    if reserved[index] == nil, let fd = try? Socket.bound(port: port) {
      reserved[index] = fd
    }
  }

  /// Closes `device`'s listener and every connection to it. Loop thread.
  func closeListener(index: Int) {
    if let fd = listeners.removeValue(forKey: index) {
      loop.unregister(fd)
      close(fd)
    }
    for connection in connections.values where connection.deviceIndex == index {
      closeConnection(connection)
    }
  }

  /// Adds one live SMS every `60 / rate` seconds to `device`.
  func startTraffic(index: Int, perMinute rate: Double) {
    guard rate > 0 else { return }
    let interval = 60 / rate
    func tick() {
      guard index < devices.count else { return }
      devices[index].receiveLiveSMS()
      loop.schedule(after: interval, tick)
    }
    loop.schedule(after: interval, tick)
  }

  /// Closes everything. Loop thread.
  func closeAll() {
    for index in Array(listeners.keys) { closeListener(index: index) }
    for fd in reserved.values { close(fd) }
    reserved = [:]
    for connection in Array(connections.values) { closeConnection(connection) }
    devices = []
  }

  // MARK: - Accepting and reading

  private func acceptAll(listener: Int32, index: Int) {
    while let fd = Socket.accept(listener) {
      let connection = HTTPConnection(fd: fd, deviceIndex: index)
      do {
        try loop.register(fd) { [unowned self] event in self.handle(event, connection) }
        connections[fd] = connection
      } catch {
        close(fd)
      }
    }
  }

  private func handle(_ event: ReadinessSet.Event, _ connection: HTTPConnection) {
    guard connection.isOpen else { return }
    if event.writable { flush(connection) }
    guard connection.isOpen else { return }
    if event.readable || event.failed { readAvailable(connection) }
  }

  private func readAvailable(_ connection: HTTPConnection) {
    while connection.isOpen {
      switch Socket.read(connection.fd, into: &readBuffer) {
      case .bytes(let count):
        if connection.phase == .hung { continue }
        connection.input.append(contentsOf: readBuffer[0..<count])
      case .wouldBlock:
        processInput(connection)
        return
      case .closed:
        closeConnection(connection)
        return
      }
    }
  }

  private func processInput(_ connection: HTTPConnection) {
    guard connection.isOpen, connection.phase == .reading, !connection.input.isEmpty else {
      return
    }
    switch HTTPRequestParser.parse(connection.input) {
    case .incomplete:
      return
    case .invalid(let status, let message):
      connection.input.removeAll()
      connection.phase = .answering
      send(.text(message, status: status), on: connection, keepAlive: false, slowRate: nil)
    case .request(let request, let consumed, let keepAlive):
      connection.input.removeFirst(consumed)
      connection.phase = .answering
      dispatch(request, on: connection, keepAlive: keepAlive)
    }
  }

  // MARK: - Answering

  private func dispatch(_ request: RecordedRequest, on connection: HTTPConnection, keepAlive: Bool)
  {
    guard connection.deviceIndex < devices.count else { return closeConnection(connection) }
    startFlight(connection)
    let device = devices[connection.deviceIndex]
    let plan = device.plan(for: request, now: clock.now())
    let act = { [unowned self] in
      if case .respond(let response, _) = plan.action, let deferred = response.deferred {
        // A send waiting for the modem: answered when the modem has sent it.
        self.waitingSends[connection.deviceIndex, default: [:]][deferred.token] = (
          connection, keepAlive
        )
        self.pumpSends(connection.deviceIndex)
        return
      }
      guard connection.isOpen else { return }
      switch plan.action {
      case .hang:
        connection.phase = .hung
        connection.input.removeAll()
      case .reset:
        self.resetConnection(connection)
      case .respond(let response, let slowRate):
        self.send(response, on: connection, keepAlive: keepAlive, slowRate: slowRate)
      }
    }
    if plan.delay > 0 {
      loop.schedule(after: plan.delay, act)
    } else {
      act()
    }
  }

  /// Gives the device's modem its next send, one at a time (the device's modem lock): a send
  /// whose client left before its turn is dropped when the device cancels with the client;
  /// one the modem has taken is finished and answered (if its client still waits), then the
  /// next one starts.
  private func pumpSends(_ index: Int) {
    guard index < devices.count else { return }
    let device = devices[index]
    while let token = device.takeNextSend() {
      guard let (connection, keepAlive) = waitingSends[index]?[token] else {
        device.dropSend(token)
        continue
      }
      if !connection.isOpen, device.sendsEndWithTheirClient {
        waitingSends[index]?[token] = nil
        device.dropSend(token)
        continue
      }
      let seconds = device.beginSend(token)
      loop.schedule(after: seconds) { [unowned self] in
        self.waitingSends[index]?[token] = nil
        let answer = device.finishSend(token, clientGone: !connection.isOpen)
        if connection.isOpen {
          self.send(answer, on: connection, keepAlive: keepAlive, slowRate: nil)
        }
        self.pumpSends(index)
      }
      return
    }
  }

  private func send(
    _ response: HTTPResponse, on connection: HTTPConnection, keepAlive: Bool, slowRate: Int?
  ) {
    connection.keepAliveAfterResponse = keepAlive
    let bytes = response.serialized(keepAlive: keepAlive)
    if let slowRate, !response.body.isEmpty {
      let headLength = bytes.count - response.body.count
      connection.output = Array(bytes[0..<headLength])
      connection.outputOffset = 0
      connection.trickle = response.body
      connection.trickleOffset = 0
      flush(connection)
      scheduleTrickle(connection, bytesPerSecond: slowRate)
    } else {
      connection.output = bytes
      connection.outputOffset = 0
      flush(connection)
    }
  }

  private func scheduleTrickle(_ connection: HTTPConnection, bytesPerSecond: Int) {
    let perTick = max(1, bytesPerSecond / 10)
    let interval = Double(perTick) / Double(max(1, bytesPerSecond))
    loop.schedule(after: interval) { [unowned self] in
      guard connection.isOpen, connection.isTrickling else { return }
      let end = min(connection.trickle.count, connection.trickleOffset + perTick)
      connection.output.append(contentsOf: connection.trickle[connection.trickleOffset..<end])
      connection.trickleOffset = end
      self.flush(connection)
      if connection.isOpen, connection.isTrickling {
        self.scheduleTrickle(connection, bytesPerSecond: bytesPerSecond)
      }
    }
  }

  private func flush(_ connection: HTTPConnection) {
    while connection.hasPendingOutput {
      let result = connection.output.withUnsafeBytes { buffer in
        Socket.write(
          connection.fd, UnsafeRawBufferPointer(rebasing: buffer[connection.outputOffset...]))
      }
      switch result {
      case .bytes(let count):
        connection.outputOffset += count
      case .wouldBlock:
        if !connection.wantsWrite {
          connection.wantsWrite = true
          loop.setWriteInterest(connection.fd, true)
        }
        return
      case .closed:
        closeConnection(connection)
        return
      }
    }
    connection.output.removeAll(keepingCapacity: true)
    connection.outputOffset = 0
    if connection.wantsWrite {
      connection.wantsWrite = false
      loop.setWriteInterest(connection.fd, false)
    }
    guard connection.phase == .answering, !connection.isTrickling else { return }
    endFlight(connection)
    connection.trickle = []
    connection.trickleOffset = 0
    if connection.keepAliveAfterResponse {
      connection.phase = .reading
      processInput(connection)
    } else {
      closeConnection(connection)
    }
  }

  // MARK: - Requests in flight

  private func startFlight(_ connection: HTTPConnection) {
    guard !connection.isInFlight else { return }
    connection.isInFlight = true
    let count = inFlight[connection.deviceIndex, default: 0] + 1
    inFlight[connection.deviceIndex] = count
    if count == 1 { peakDevicesInFlight = max(peakDevicesInFlight, inFlight.count) }
  }

  private func endFlight(_ connection: HTTPConnection) {
    guard connection.isInFlight else { return }
    connection.isInFlight = false
    let count = inFlight[connection.deviceIndex, default: 1] - 1
    inFlight[connection.deviceIndex] = count > 0 ? count : nil
  }

  /// Starts counting the peak of devices in flight afresh (from those in flight now).
  func resetPeakDevicesInFlight() {
    peakDevicesInFlight = inFlight.count
  }

  // MARK: - Closing

  private func closeConnection(_ connection: HTTPConnection) {
    guard connection.isOpen else { return }
    endFlight(connection)
    connection.isOpen = false
    connection.closedAt = Uptime.seconds()
    connections[connection.fd] = nil
    loop.unregister(connection.fd)
    close(connection.fd)
  }

  private func resetConnection(_ connection: HTTPConnection) {
    guard connection.isOpen else { return }
    endFlight(connection)
    connection.isOpen = false
    connection.closedAt = Uptime.seconds()
    connections[connection.fd] = nil
    loop.unregister(connection.fd)
    Socket.resetAndClose(connection.fd)
  }
}
