import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1 for many listeners at once, all on one
/// ``ServerEventLoop`` thread: each listener has a tag (the simulator's device index), every
/// request is read by ``HTTPRequestParser`` and answered as the handler's ``ServerReply``
/// says (after its delay: a response, written at once or trickled; a hang; a reset), with
/// keep-alive. ``inMemoryTransport(maxResponseBytes:)`` reaches the same handler without a
/// socket.
///
/// Setup calls (``openListener(tag:port:)``, ``takeDown(tag:port:)``, ``closeListener(tag:)``,
/// ``closeAll()``) run on the loop's thread or before ``loop`` starts; that is what makes the
/// unchecked `Sendable` sound. The handler may be called from any thread (the in-memory
/// transport calls it from the caller's task), so it must be thread-safe.
public final class HTTPServer: @unchecked Sendable {
  /// Answers one request received by the listener with the given tag; `nil` closes the
  /// connection without an answer.
  public typealias Handler = @Sendable (ServerRequest, _ tag: Int) -> ServerReply?

  /// The loop every socket of the server runs on; start it once the listeners are open.
  public let loop: ServerEventLoop
  let handler: Handler
  let flights = InFlight()
  private let pendingHandler = Locked<(@Sendable (ServerPending) -> Void)?>(nil)
  /// Every port a listener holds, listening (`true`) or taken down (`false`), with its tag,
  /// readable from any thread (the in-memory transport).
  let ports = Locked<[Int: (tag: Int, isListening: Bool)]>([:])
  private var listeners: [Int: (fd: Int32, port: Int)] = [:]
  /// Ports of listeners that are down: bound, not listening (see ``takeDown(tag:port:)``).
  private var reserved: [Int: Int32] = [:]
  private var connections: [Int32: ServerConnection] = [:]
  private let readBuffer = UnsafeMutableRawBufferPointer.allocate(
    byteCount: 64 * 1024, alignment: MemoryLayout<UInt64>.alignment)

  /// A server whose requests `handler` answers; its loop has not started.
  public init(handler: @escaping Handler) throws(SystemCallFailure) {
    loop = try ServerEventLoop()
    self.handler = handler
  }

  deinit {
    readBuffer.deallocate()
  }

  /// Sets what takes a reply whose response has a ``ServerResponse/deferredToken``: the
  /// client waits (over a socket or in memory) until `handler`'s ``ServerPending`` is
  /// answered. Without one, such a response is written as it is.
  public func onPending(_ handler: @escaping @Sendable (ServerPending) -> Void) {
    pendingHandler.withLock { $0 = handler }
  }

  /// Hands `pending` to the pending handler; `false` when there is none.
  func hold(_ pending: ServerPending) -> Bool {
    guard let handler = pendingHandler.withLock({ $0 }) else { return false }
    handler(pending)
    return true
  }

  // MARK: - Listeners (loop thread, or before the loop starts)

  /// Opens the listener tagged `tag` on 127.0.0.1:`port` (0: an ephemeral port), or reopens
  /// the port it was taken down on; returns the bound port.
  @discardableResult
  public func openListener(tag: Int, port: Int) throws(SystemCallFailure) -> Int {
    if let open = listeners[tag] { return open.port }
    let fd: Int32
    let bound: Int
    if let reserved = reserved.removeValue(forKey: tag) {
      try ServerSockets.startListening(reserved)
      (fd, bound) = (reserved, port)
    } else {
      (fd, bound) = try ServerSockets.listen(port: port)
    }
    do {
      try loop.register(fd) { [unowned self] _ in self.acceptAll(listener: fd, tag: tag) }
    } catch {
      close(fd)
      throw error
    }
    listeners[tag] = (fd, bound)
    ports.withLock { $0[bound] = (tag, true) }
    return bound
  }

  /// Takes the listener tagged `tag` down: no listener, every connection closed, but the port
  /// stays bound (refusing connections) so no other socket can take it meanwhile.
  public func takeDown(tag: Int, port: Int) {
    closeListener(tag: tag)
    if reserved[tag] == nil, let fd = try? ServerSockets.bound(port: port) {
      reserved[tag] = fd
      ports.withLock { $0[port] = (tag, false) }
    }
  }

  /// Closes the listener tagged `tag` and every connection it accepted.
  public func closeListener(tag: Int) {
    if let listener = listeners.removeValue(forKey: tag) {
      ports.withLock { $0[listener.port] = nil }
      loop.unregister(listener.fd)
      close(listener.fd)
    }
    for connection in connections.values where connection.tag == tag {
      closeConnection(connection)
    }
  }

  /// Closes every listener, reserved port and connection.
  public func closeAll() {
    for tag in Array(listeners.keys) { closeListener(tag: tag) }
    for fd in reserved.values { close(fd) }
    reserved = [:]
    ports.withLock { $0.removeAll() }
    for connection in Array(connections.values) { closeConnection(connection) }
  }

  /// The listener holding `port`: its tag and whether it listens (any thread).
  func listener(on port: Int) -> (tag: Int, isListening: Bool)? {
    ports.withLock { $0[port] }
  }

  // MARK: - Requests in flight (any thread)

  /// The most tags that had a request in flight (received, not yet answered in full) at the
  /// same moment since the server started or ``resetPeakTagsInFlight()``, over sockets and
  /// the in-memory transport alike.
  public var peakTagsInFlight: Int { flights.peak }

  /// Starts counting ``peakTagsInFlight`` afresh (from the tags in flight now).
  public func resetPeakTagsInFlight() {
    flights.resetPeak()
  }

  // MARK: - Accepting and reading

  private func acceptAll(listener: Int32, tag: Int) {
    while let fd = ServerSockets.accept(listener) {
      let connection = ServerConnection(fd: fd, tag: tag)
      do {
        try loop.register(fd) { [unowned self] event in self.handle(event, connection) }
        connections[fd] = connection
      } catch {
        close(fd)
      }
    }
  }

  private func handle(_ event: ReadinessSet.Event, _ connection: ServerConnection) {
    guard connection.isOpen else { return }
    if event.writable { flush(connection) }
    guard connection.isOpen else { return }
    if event.readable || event.failed { readAvailable(connection) }
  }

  private func readAvailable(_ connection: ServerConnection) {
    while connection.isOpen {
      switch SocketCalls.read(connection.fd, into: readBuffer) {
      case .bytes(let count):
        if connection.phase == .hung { continue }
        connection.input.append(contentsOf: readBuffer[0..<count])
      case .wouldBlock:
        processInput(connection)
        return
      case .closed, .failed:
        closeConnection(connection)
        return
      }
    }
  }

  private func processInput(_ connection: ServerConnection) {
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

  private func dispatch(_ request: ServerRequest, on connection: ServerConnection, keepAlive: Bool)
  {
    startFlight(connection)
    guard let reply = handler(request, connection.tag) else {
      return closeConnection(connection)
    }
    let act = { [unowned self] in
      // A deferred answer is handed over even when the client has left meanwhile: what the
      // handler's owner does then is its own (a device's send may still go out).
      if case .respond(let response, _) = reply.action, let token = response.deferredToken,
        self.hold(self.pending(token, on: connection, keepAlive: keepAlive))
      {
        return
      }
      guard connection.isOpen else { return }
      switch reply.action {
      case .hang:
        connection.phase = .hung
        connection.input.removeAll()
      case .reset:
        self.resetConnection(connection)
      case .respond(let response, let slowRate):
        self.send(response, on: connection, keepAlive: keepAlive, slowRate: slowRate)
      }
    }
    if reply.delay > 0 {
      loop.schedule(after: reply.delay, act)
    } else {
      act()
    }
  }

  /// The answer `connection` waits for under `token`. The connection is touched on the
  /// loop's thread only: `isWaiting` is read there (the pending handler's contract) and the
  /// answer hops there.
  private func pending(_ token: Int, on connection: ServerConnection, keepAlive: Bool)
    -> ServerPending
  {
    let held = LoopBound(connection)
    return ServerPending(
      tag: connection.tag, token: token,
      isWaiting: { held.value.isOpen },
      answer: { [weak self] answer in
        _ = self?.loop.execute { [weak self] in
          guard let self, held.value.isOpen else { return }
          self.send(answer, on: held.value, keepAlive: keepAlive, slowRate: nil)
        }
      })
  }

  private func send(
    _ response: ServerResponse, on connection: ServerConnection, keepAlive: Bool, slowRate: Int?
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

  private func scheduleTrickle(_ connection: ServerConnection, bytesPerSecond: Int) {
    let (perTick, interval) = Self.trickleStep(bytesPerSecond: bytesPerSecond)
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

  /// A trickled body goes out `perTick` bytes every `interval` seconds: ten ticks a second.
  static func trickleStep(bytesPerSecond: Int) -> (perTick: Int, interval: Double) {
    let perTick = max(1, bytesPerSecond / 10)
    return (perTick, Double(perTick) / Double(max(1, bytesPerSecond)))
  }

  private func flush(_ connection: ServerConnection) {
    while connection.hasPendingOutput {
      let result = connection.output.withUnsafeBytes { buffer in
        SocketCalls.write(
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
      case .closed, .failed:
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

  private func startFlight(_ connection: ServerConnection) {
    guard !connection.isInFlight else { return }
    connection.isInFlight = true
    flights.start(connection.tag)
  }

  private func endFlight(_ connection: ServerConnection) {
    guard connection.isInFlight else { return }
    connection.isInFlight = false
    flights.end(connection.tag)
  }

  // MARK: - Closing

  private func closeConnection(_ connection: ServerConnection) {
    guard connection.isOpen else { return }
    endFlight(connection)
    connection.isOpen = false
    connections[connection.fd] = nil
    loop.unregister(connection.fd)
    close(connection.fd)
  }

  private func resetConnection(_ connection: ServerConnection) {
    guard connection.isOpen else { return }
    endFlight(connection)
    connection.isOpen = false
    connections[connection.fd] = nil
    loop.unregister(connection.fd)
    SocketCalls.resetOnClose(connection.fd)
    close(connection.fd)
  }
}

/// Requests in flight per tag, and how many tags had one at once at most since the last
/// reset (what a client's concurrency width bounds). Any thread.
final class InFlight: Sendable {
  private let state = Locked((counts: [Int: Int](), peak: 0))

  /// A request of `tag` was received.
  func start(_ tag: Int) {
    state.withLock { state in
      let count = state.counts[tag, default: 0] + 1
      state.counts[tag] = count
      if count == 1 { state.peak = max(state.peak, state.counts.count) }
    }
  }

  /// A request of `tag` was answered in full, or abandoned.
  func end(_ tag: Int) {
    state.withLock { state in
      let count = state.counts[tag, default: 1] - 1
      state.counts[tag] = count > 0 ? count : nil
    }
  }

  /// The peak since the last reset.
  var peak: Int { state.withLock { $0.peak } }

  /// Whether no request is in flight.
  var isIdle: Bool { state.withLock { $0.counts.isEmpty } }

  /// Counts the peak afresh from the tags in flight now.
  func resetPeak() {
    state.withLock { $0.peak = $0.counts.count }
  }
}

extension HTTPServer {
  /// Raises the process's soft open-files limit to the hard limit: a server with a thousand
  /// listeners and their connections needs many descriptors.
  public static func raiseOpenFileLimit() {
    ServerSockets.raiseOpenFileLimit()
  }
}
