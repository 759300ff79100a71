import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One HTTP/1.1 connection to an origin, plain or TLS: connects (trying each resolved
/// address), shakes hands, writes a request, reads its response, then waits idle for the
/// next one. It reports what happened; the event loop decides what follows (pool, retry,
/// close). Used on the loop's thread only.
final class ClientConnection {
  /// Where the connection is in its life.
  enum Phase {
    case resolving
    case connecting
    case handshaking
    case sending
    case receiving
    case idle
    case closed
  }

  /// What a step led to.
  enum Outcome {
    /// Waiting for the socket again.
    case pending
    /// The response is complete; `reusable` when the connection may carry another request.
    case responded(HTTPResponse, reusable: Bool)
    /// The exchange failed; `stale` when a connection reused from the pool ended before any
    /// byte of the response (the server had closed it meanwhile).
    case failed(HTTPTransportError, stale: Bool)
  }

  /// The loop's key for it.
  let id: Int
  /// Called with the socket just before it is closed (the loop stops watching it, so a
  /// number the kernel hands out again does not inherit its registration).
  var willCloseSocket: ((Int32) -> Void)?
  /// Where it goes.
  let origin: Origin
  /// The socket, or -1 while resolving or once closed.
  private(set) var fd: Int32 = -1
  /// Where it is.
  private(set) var phase = Phase.resolving
  /// The exchange it carries, if any.
  private(set) var exchange: Exchange?
  /// Responses completed on it so far (more than 0: it came from the pool).
  private(set) var servedCount = 0
  /// When it last became idle (monotonic nanoseconds), and how many times it did: an idle
  /// entry of the loop's eviction queue is current only when its mark matches.
  private(set) var idleSince: UInt64 = 0
  private(set) var idleMark = 0

  private let tlsContext: TLSContext?
  private var tls: TLSStream?
  private var addresses: [SocketAddress] = []
  private var nextAddress = 0
  private var lastError = HTTPTransportError.unreachable(.refused)
  private var written = 0
  private var parser = ResponseParser(limit: 0)
  private var wantsWrite = false

  /// A connection for `exchange`, not yet connected; `tlsContext` for an https origin.
  init(id: Int, origin: Origin, exchange: Exchange, tlsContext: TLSContext?) {
    self.id = id
    self.origin = origin
    self.exchange = exchange
    self.tlsContext = tlsContext
  }

  /// The `poll` events it waits for now (0: none, e.g. while the name resolves); the loop
  /// watches it for them (``ReadinessSet``).
  var pollEvents: Int16 {
    switch phase {
    case .resolving, .closed: 0
    case .connecting: Int16(POLLOUT)
    case .handshaking, .sending, .receiving: wantsWrite ? Int16(POLLOUT) : Int16(POLLIN)
    // Idle connections are not watched (with hundreds of them, a poll() would pay for each).
    // One the server closed meanwhile is found when reused (see `Outcome.failed`).
    case .idle: 0
    }
  }

  // MARK: - Steps

  /// Starts connecting to the first of `addresses` that takes it.
  func connect(to addresses: [SocketAddress]) -> Outcome {
    self.addresses = addresses
    nextAddress = 0
    return tryNextAddress()
  }

  /// Sends `exchange` on this idle connection.
  func assign(_ exchange: Exchange) -> Outcome {
    self.exchange = exchange
    return startSending()
  }

  /// Takes the exchange off the connection (after it completed or failed).
  @discardableResult
  func detach() -> Exchange? {
    defer { exchange = nil }
    return exchange
  }

  /// Marks the connection idle in the pool.
  func becomeIdle(at now: UInt64) {
    phase = .idle
    idleSince = now
    idleMark += 1
  }

  /// Acts on the socket being ready (`revents` from `poll`); `scratch` receives reads.
  func handle(revents: Int16, scratch: UnsafeMutableRawBufferPointer) -> Outcome {
    switch phase {
    case .connecting:
      let code = SocketCalls.pendingError(fd)
      if code == 0 { return connected() }
      lastError = SocketCalls.connectError(code)
      closeSocket()
      return tryNextAddress()
    case .handshaking: return handshake()
    case .sending: return writeRequest()
    case .receiving: return readResponse(scratch)
    case .idle, .resolving, .closed: return .pending
    }
  }

  /// Closes the socket.
  ///
  /// An idle connection let go (evicted, expired, transport ended) carries nothing either way:
  /// a TLS one says close_notify first; a plain one is closed with a reset. An orderly close
  /// would leave it in TIME_WAIT on this side for a minute, and a client that churns through
  /// a large fleet piles up thousands of those, making every later connect slower, while the
  /// device does more work for the same result.
  func close() {
    if phase == .idle {
      if let tls {
        tls.shutDown()
      } else if fd >= 0 {
        SocketCalls.resetOnClose(fd)
      }
    }
    closeSocket()
    phase = .closed
  }

  // MARK: - Connecting

  private func tryNextAddress() -> Outcome {
    while nextAddress < addresses.count {
      let address = addresses[nextAddress]
      nextAddress += 1
      switch SocketCalls.openStream(family: address.family) {
      case .failure(let error):
        lastError = error
      case .success(let socket):
        fd = socket
        let code = SocketCalls.startConnect(socket, to: address)
        if code == 0 { return connected() }
        if code == EINPROGRESS {
          phase = .connecting
          return tlsContext == nil ? sendWhileConnecting() : .pending
        }
        lastError = SocketCalls.connectError(code)
        closeSocket()
      }
    }
    phase = .closed
    return .failed(lastError, stale: false)
  }

  /// On loopback or a LAN the handshake has often completed by the time `connect` returns
  /// `EINPROGRESS`: a plain request is written at once, saving a trip through `poll`. A socket
  /// still connecting takes nothing (`poll` then says when it is ready); a refused one fails
  /// the write with the connect's own error.
  private func sendWhileConnecting() -> Outcome {
    guard let exchange else { return .pending }
    let result = exchange.bytes.withUnsafeBytes { SocketCalls.writeWhileConnecting(fd, $0) }
    switch result {
    case .bytes(let count):
      phase = .sending
      written = count
      parser = ResponseParser(limit: exchange.limit)
      return writeRequest()
    case .wouldBlock, .closed:
      return .pending
    case .failed(let error):
      lastError = error
      closeSocket()
      return tryNextAddress()
    }
  }

  private func connected() -> Outcome {
    guard let tlsContext else { return startSending() }
    guard
      let stream = tlsContext.makeStream(
        fd: fd, host: origin.host,
        isIPLiteral: SocketAddress(numericHost: origin.host, port: 0) != nil)
    else {
      return .failed(.unreachable(.tls), stale: false)
    }
    tls = stream
    phase = .handshaking
    return handshake()
  }

  private func handshake() -> Outcome {
    guard let tls else { return .failed(.unreachable(.tls), stale: false) }
    switch tls.handshake() {
    case .bytes:
      wantsWrite = false
      return startSending()
    case .wouldBlock(let write):
      wantsWrite = write
      return .pending
    case .closed:
      return .failed(.unreachable(.tls), stale: false)
    case .failed(let error):
      return .failed(error, stale: false)
    }
  }

  // MARK: - Exchanging

  private var isReused: Bool { servedCount > 0 }

  private func startSending() -> Outcome {
    guard let exchange else { return .failed(.unreachable(.reset), stale: false) }
    phase = .sending
    written = 0
    parser = ResponseParser(limit: exchange.limit)
    return writeRequest()
  }

  private func writeRequest() -> Outcome {
    guard let exchange else { return .failed(.unreachable(.reset), stale: false) }
    let bytes = exchange.bytes
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { buffer in
        let rest = UnsafeRawBufferPointer(rebasing: buffer[written...])
        return tls?.write(rest) ?? SocketCalls.write(fd, rest)
      }
      switch result {
      case .bytes(let count):
        written += count
      case .wouldBlock(let write):
        wantsWrite = write
        return .pending
      case .closed:
        return .failed(.unreachable(.reset), stale: isReused)
      case .failed(let error):
        return .failed(error, stale: isReused && error == .unreachable(.reset))
      }
    }
    phase = .receiving
    wantsWrite = false
    return .pending
  }

  private func readResponse(_ scratch: UnsafeMutableRawBufferPointer) -> Outcome {
    guard let exchange else { return .failed(.unreachable(.reset), stale: false) }
    while true {
      let result = tls?.read(into: scratch) ?? SocketCalls.read(fd, into: scratch)
      switch result {
      case .bytes(let count):
        do throws(ResponseParser.Failure) {
          if try parser.feed(UnsafeRawBufferPointer(rebasing: scratch[0..<count])) {
            return complete()
          }
        } catch {
          switch error {
          case .tooLarge: return .failed(.tooLarge(limit: exchange.limit), stale: false)
          case .malformed(let detail): return .failed(.malformedResponse(detail), stale: false)
          }
        }
        // A short plain read drained the socket; poll says when more arrives. TLS may hold
        // decrypted bytes the socket no longer shows, so it reads until it would block.
        if tls == nil, count < scratch.count { return .pending }
      case .wouldBlock(let write):
        wantsWrite = write
        return .pending
      case .closed:
        if parser.finishAtEndOfStream() { return complete() }
        return .failed(.unreachable(.reset), stale: isReused && !parser.hasStarted)
      case .failed(let error):
        let stale = isReused && !parser.hasStarted && error == .unreachable(.reset)
        return .failed(error, stale: stale)
      }
    }
  }

  private func complete() -> Outcome {
    servedCount += 1
    let response = HTTPResponse(
      status: parser.status, lowercasedHeaders: parser.headers, body: parser.body)
    let reusable = parser.keepAlive && !parser.hasExcess
    parser = ResponseParser(limit: 0)
    return .responded(response, reusable: reusable)
  }

  private func closeSocket() {
    tls = nil
    if fd >= 0 {
      willCloseSocket?(fd)
      SocketCalls.closeDescriptor(fd)
    }
    fd = -1
  }
}
