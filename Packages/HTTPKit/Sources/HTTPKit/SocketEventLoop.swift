import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one thread of a ``SocketTransport``: it waits on every socket (one ``ReadinessSet``,
/// epoll on Linux, kept across turns: a connection's interest is changed only when it
/// changes), moves requests through their connections, keeps the per-origin pools and ends
/// requests at their deadlines.
///
/// Other threads only post commands (``submit(_:)``, ``cancel(_:)``, ``stop()``) and wake it
/// through a pipe; everything else runs on the loop's thread, which is what makes the
/// unchecked `Sendable` sound. The thread starts with the first request and ends when the
/// transport goes away.
final class SocketEventLoop: @unchecked Sendable {
  /// How the pools behave.
  struct Settings: Sendable {
    /// Connections per origin, idle ones included; more requests wait.
    var maxConnectionsPerOrigin: Int
    /// Idle connections kept across all origins; the longest idle is closed beyond it.
    var maxIdleConnections: Int
    /// Seconds an idle connection is kept.
    var idleTimeout: Double
    /// A PEM file of certificates trusted besides the system's.
    var additionalCertificates: String?
  }

  private enum Command {
    case submit(Exchange)
    case cancel(Exchange)
    case resolved(connection: Int, Result<[SocketAddress], HTTPTransportError>)
    case stop
  }

  private struct Inbox {
    var commands: [Command] = []
    var wakePending = false
    var started = false
    var stopped = false
    var wakeWrite: Int32 = -1
  }

  private let settings: Settings
  private let inbox = Locked(Inbox())

  // MARK: Loop-thread state

  private var wakeRead: Int32 = -1
  private var connections: [Int: ClientConnection] = [:]
  /// The sockets waited on: each connection's under its id, the wake pipe's under 0.
  private var readiness: ReadinessSet?
  private var ready: [ReadinessSet.Event] = []
  /// Connections whose interest may have changed since the last wait.
  private var changed: [ClientConnection] = []
  private var pools: [Origin: OriginPool] = [:]
  private var exchanges: [ObjectIdentifier: Exchange] = [:]
  private var exchangeConnections: [ObjectIdentifier: Int] = [:]
  private var idleOrder = FIFO<(connection: ClientConnection, mark: Int)>()
  private var idleCount = 0
  private var nextConnectionID = 0
  private var tlsContext: Result<TLSContext, HTTPTransportError>?
  private var running = true
  private var lastIdleSweep: UInt64 = 0
  /// No exchange ends before this (it may be earlier than the true nearest deadline, which
  /// only costs an early wake-up and a rescan).
  private var nearestDeadline = UInt64.max
  private let scratch = UnsafeMutableRawBufferPointer.allocate(
    byteCount: 64 * 1024, alignment: MemoryLayout<UInt64>.alignment)

  init(settings: Settings) {
    self.settings = settings
  }

  deinit {
    scratch.deallocate()
  }

  // MARK: - Any thread

  /// Queues `exchange`; `false` when the loop cannot take it (stopped, or no wake pipe).
  func submit(_ exchange: Exchange) -> Bool {
    post(.submit(exchange))
  }

  /// Ends `exchange` (its caller was cancelled) and closes its connection.
  func cancel(_ exchange: Exchange) {
    post(.cancel(exchange))
  }

  /// Ends the thread after failing whatever is still pending; closes every connection.
  func stop() {
    post(.stop)
  }

  @discardableResult
  private func post(_ command: Command) -> Bool {
    let (accepted, wakeFD) = inbox.withLock { inbox -> (Bool, Int32) in
      guard !inbox.stopped else { return (false, -1) }
      if case .stop = command {
        inbox.stopped = true
        guard inbox.started else { return (false, -1) }
      } else if !inbox.started {
        guard startThread(&inbox) else { return (false, -1) }
      }
      inbox.commands.append(command)
      guard !inbox.wakePending else { return (true, -1) }
      inbox.wakePending = true
      return (true, inbox.wakeWrite)
    }
    if wakeFD >= 0 {
      var byte: UInt8 = 1
      _ = write(wakeFD, &byte, 1)
    }
    return accepted
  }

  /// Makes the wake pipe and the readiness set and starts the thread; called with the inbox
  /// locked.
  private func startThread(_ inbox: inout Inbox) -> Bool {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return false }
    for fd in ends {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    guard let set = try? ReadinessSet(),
      (try? set.watch(ends[0], token: 0, events: Int16(POLLIN))) != nil
    else {
      for fd in ends { SocketCalls.closeDescriptor(fd) }
      return false
    }
    readiness = set
    wakeRead = ends[0]
    inbox.wakeWrite = ends[1]
    inbox.started = true
    let thread = Thread { [self] in run() }
    thread.name = "HTTPKit.SocketTransport"
    thread.start()
    return true
  }

  // MARK: - The loop

  private func run() {
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &blocked, nil)
    guard let readiness else { return }
    while running {
      watchChanged(readiness)
      readiness.wait(timeoutMilliseconds: pollTimeout(), into: &ready)
      if !ready.isEmpty { dispatchEvents() }
      runCommands()
      expire(now: MonotonicClock.now())
    }
    tearDown()
  }

  /// Brings the set up to date with the connections that moved since the last wait. A socket
  /// the kernel will not watch fails its request as this computer's own failure.
  private func watchChanged(_ readiness: ReadinessSet) {
    while let connection = changed.popLast() {
      guard connection.phase != .closed, connection.fd >= 0 else { continue }
      do {
        try readiness.watch(
          connection.fd, token: UInt64(connection.id), events: connection.pollEvents)
      } catch {
        let detail = "\(error.call): \(String(cString: strerror(error.code)))"
        settle(connection, .failed(.localResource(detail), stale: false))
      }
    }
  }

  /// Milliseconds until the nearest deadline (at most a second while idle connections wait
  /// to expire); forever when nothing is pending.
  private func pollTimeout() -> Int32 {
    guard nearestDeadline != .max else { return idleCount > 0 ? 1000 : -1 }
    let nearest = nearestDeadline
    let now = MonotonicClock.now()
    guard nearest > now else { return 0 }
    return Int32(min((nearest - now) / 1_000_000 + 1, 1000))
  }

  private func dispatchEvents() {
    for event in ready {
      guard event.token != 0 else {
        drainWakePipe()
        continue
      }
      // An earlier event of this round may have closed it (or moved it to another socket).
      guard let connection = connections[Int(event.token)], connection.fd == event.fd,
        connection.phase != .closed
      else { continue }
      settle(connection, connection.handle(revents: event.revents, scratch: scratch))
    }
  }

  private func drainWakePipe() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(wakeRead, &buffer, buffer.count) > 0 {}
  }

  private func runCommands() {
    let commands = inbox.withLock { inbox -> [Command] in
      inbox.wakePending = false
      defer { inbox.commands.removeAll(keepingCapacity: true) }
      return inbox.commands
    }
    for command in commands {
      switch command {
      case .submit(let exchange): accept(exchange)
      case .cancel(let exchange): end(exchange, with: .cancelled)
      case .resolved(let id, let result): resolved(id, result)
      case .stop: running = false
      }
    }
  }

  private func tearDown() {
    for exchange in Array(exchanges.values) { complete(exchange, .failure(.cancelled)) }
    for connection in connections.values { connection.close() }
    connections = [:]
    changed = []
    pools = [:]
    let wakeWrite = inbox.withLock { inbox -> Int32 in
      inbox.commands.removeAll()
      defer { inbox.wakeWrite = -1 }
      return inbox.wakeWrite
    }
    readiness?.unwatch(wakeRead)
    SocketCalls.closeDescriptor(wakeRead)
    SocketCalls.closeDescriptor(wakeWrite)
    wakeRead = -1
    readiness = nil
  }

  // MARK: - Requests

  private func accept(_ exchange: Exchange) {
    guard !exchange.reply.isFinished else { return }
    exchanges[ObjectIdentifier(exchange)] = exchange
    nearestDeadline = min(nearestDeadline, exchange.deadline)
    let pool = pool(for: exchange.origin)
    pool.waiting.append(exchange)
    pump(pool, origin: exchange.origin)
  }

  /// Ends `exchange` with `error` (cancelled or timed out); its connection is closed, never
  /// pooled, since the rest of its response may still be on the way.
  private func end(_ exchange: Exchange, with error: HTTPTransportError) {
    guard !exchange.isDone else { return }
    // Taken before `complete`, which forgets which connection the exchange was on.
    let id = exchangeConnections.removeValue(forKey: ObjectIdentifier(exchange))
    complete(exchange, .failure(error))
    guard let id, let connection = connections[id] else { return }
    connection.detach()
    discard(connection)
    pump(origin: connection.origin)
  }

  private func complete(_ exchange: Exchange, _ reply: ReplySlot.Reply) {
    guard !exchange.isDone else { return }
    exchange.isDone = true
    let key = ObjectIdentifier(exchange)
    exchanges[key] = nil
    exchangeConnections[key] = nil
    if exchanges.isEmpty { nearestDeadline = .max }
    exchange.reply.finish(reply)
  }

  private func expire(now: UInt64) {
    if now >= nearestDeadline {
      let late = exchanges.values.filter { $0.deadline <= now }
      for exchange in late { end(exchange, with: .timeout) }
      nearestDeadline = exchanges.values.lazy.map(\.deadline).min() ?? .max
    }
    guard idleCount > 0, now &- lastIdleSweep >= 1_000_000_000 else { return }
    lastIdleSweep = now
    let limit = UInt64(settings.idleTimeout * 1_000_000_000)
    while let oldest = idleOrder.first {
      guard isCurrentIdle(oldest) else {
        idleOrder.removeFirst()
        continue
      }
      guard now &- oldest.connection.idleSince >= limit else { break }
      idleOrder.removeFirst()
      discard(oldest.connection)
      pump(origin: oldest.connection.origin)
    }
  }

  // MARK: - Pools

  private func pool(for origin: Origin) -> OriginPool {
    if let pool = pools[origin] { return pool }
    let pool = OriginPool()
    pools[origin] = pool
    return pool
  }

  private func pump(origin: Origin) {
    guard let pool = pools[origin] else { return }
    pump(pool, origin: origin)
  }

  /// Starts as many waiting requests of `pool` as idle connections and the limit allow.
  private func pump(_ pool: OriginPool, origin: Origin) {
    while let exchange = pool.waiting.first {
      if exchange.isDone || exchange.reply.isFinished {
        pool.waiting.removeFirst()
        if !exchange.isDone { end(exchange, with: .cancelled) }
        continue
      }
      if let connection = takeIdle(pool, for: exchange) {
        pool.waiting.removeFirst()
        exchangeConnections[ObjectIdentifier(exchange)] = connection.id
        settle(connection, connection.assign(exchange))
      } else if pool.openCount < settings.maxConnectionsPerOrigin {
        pool.waiting.removeFirst()
        open(for: exchange, in: pool)
      } else {
        break
      }
    }
    if pool.isUnused, pools[origin] === pool { pools[origin] = nil }
  }

  /// An idle connection for `exchange`. One that can no longer be sent on is closed; a
  /// request that may not be retried (not a GET) also skips one the server has closed.
  private func takeIdle(_ pool: OriginPool, for exchange: Exchange) -> ClientConnection? {
    while let connection = pool.takeIdle() {
      idleCount -= 1
      if exchange.method == .get || SocketCalls.looksOpen(connection.fd) { return connection }
      closeConnection(connection)
    }
    return nil
  }

  /// Opens a new connection for `exchange` (counted in `pool`).
  private func open(for exchange: Exchange, in pool: OriginPool) {
    let origin = exchange.origin
    var context: TLSContext?
    if origin.isSecure {
      switch loadTLSContext() {
      case .success(let loaded): context = loaded
      case .failure(let error):
        complete(exchange, .failure(error))
        return
      }
    }
    pool.openCount += 1
    nextConnectionID += 1
    let connection = ClientConnection(
      id: nextConnectionID, origin: origin, exchange: exchange, tlsContext: context)
    connections[connection.id] = connection
    connection.willCloseSocket = { [readiness] fd in readiness?.unwatch(fd) }
    exchangeConnections[ObjectIdentifier(exchange)] = connection.id
    if let address = SocketAddress(numericHost: origin.host, port: origin.port) {
      settle(connection, connection.connect(to: [address]))
      return
    }
    let id = connection.id
    SocketAddress.resolve(host: origin.host, port: origin.port) { [self] result in
      post(.resolved(connection: id, result))
    }
  }

  private func resolved(_ id: Int, _ result: Result<[SocketAddress], HTTPTransportError>) {
    guard let connection = connections[id], connection.phase == .resolving else { return }
    switch result {
    case .success(let addresses): settle(connection, connection.connect(to: addresses))
    case .failure(let error): settle(connection, .failed(error, stale: false))
    }
  }

  private func loadTLSContext() -> Result<TLSContext, HTTPTransportError> {
    if let tlsContext { return tlsContext }
    let made = TLSContext.make(additionalCertificates: settings.additionalCertificates)
    // A missing library stays missing; a context that failed for another reason is retried.
    if case .success = made { tlsContext = made }
    return made
  }

  // MARK: - Outcomes

  /// Acts on what a connection step led to.
  private func settle(_ connection: ClientConnection, _ outcome: ClientConnection.Outcome) {
    changed.append(connection)
    switch outcome {
    case .pending:
      return
    case .responded(let response, let reusable):
      if let exchange = connection.detach() { complete(exchange, .success(response)) }
      if reusable {
        makeIdle(connection)
      } else {
        discard(connection)
      }
      pump(origin: connection.origin)
    case .failed(let error, let stale):
      let exchange = connection.detach()
      discard(connection)
      if let exchange, !exchange.isDone {
        if stale, exchange.mayRetry, let pool = pools[connection.origin] {
          // The server closed the pooled connection as it was reused: once, on a new one.
          exchange.wasRetried = true
          open(for: exchange, in: pool)
        } else {
          complete(exchange, .failure(error))
        }
      }
      pump(origin: connection.origin)
    }
  }

  private func makeIdle(_ connection: ClientConnection) {
    guard let pool = pools[connection.origin] else { return discard(connection) }
    connection.becomeIdle(at: MonotonicClock.now())
    changed.append(connection)
    pool.idle.append(connection)
    idleCount += 1
    idleOrder.append((connection, connection.idleMark))
    while idleCount > settings.maxIdleConnections, let oldest = idleOrder.removeFirst() {
      guard isCurrentIdle(oldest) else { continue }
      discard(oldest.connection)
    }
  }

  private func isCurrentIdle(_ entry: (connection: ClientConnection, mark: Int)) -> Bool {
    entry.connection.phase == .idle && entry.connection.idleMark == entry.mark
  }

  /// Closes `connection` and frees its place in its pool (the caller pumps the pool).
  private func discard(_ connection: ClientConnection) {
    guard connection.phase != .closed || connections[connection.id] != nil else { return }
    if connection.phase == .idle, let pool = pools[connection.origin] {
      pool.removeIdle(connection)
      idleCount -= 1
    }
    closeConnection(connection)
  }

  private func closeConnection(_ connection: ClientConnection) {
    guard connections.removeValue(forKey: connection.id) != nil else { return }
    connection.close()
    pools[connection.origin]?.openCount -= 1
  }
}
