import Foundation

/// The deterministic twin of ``SocketTransport`` for tests: a request to a port an
/// ``HTTPServer`` holds on 127.0.0.1 goes straight to the server's handler, without a socket.
///
/// The request is encoded and parsed as it would be on the wire (``RequestEncoder``,
/// ``HTTPRequestParser``: the same header rules, the same 400 and 413 answers) and the
/// response is read back by ``ResponseParser`` (the same size cap, the same headers), so the
/// client sees what it would see over a socket:
///
/// - a port whose listener is down: `.unreachable(.refused)`;
/// - the reply's delay, then its action; a ``ServerReply/Action/hang`` waits for the
///   caller's deadline (`.timeout`; unlike a socket, which the server closes when it stops, a
///   stopped server does not end it sooner); a ``ServerReply/Action/reset`` is
///   `.unreachable(.reset)`; a trickled body takes as long as the server would take to send
///   it, and ends at the deadline when that is later;
/// - a response with a ``ServerResponse/deferredToken``: the wait for its ``ServerPending``
///   answer, until the deadline (`.timeout`; the pending then says the client left);
/// - a body over ``maxResponseBytes``: `.tooLarge(limit:)`, at once (the head announces it);
/// - the caller's cancellation: `.cancelled`.
///
/// Requests count in the server's requests in flight until answered or abandoned. Any other
/// origin (`https`, another host, a port the server never held) goes to the `fallback`
/// transport, or is refused without one.
public struct InMemoryTransport: HTTPTransport {
  /// The largest body accepted, bytes.
  public let maxResponseBytes: Int
  private let server: HTTPServer
  private let fallback: (any HTTPTransport)?

  /// A transport into `server`'s handler.
  ///
  /// - Parameters:
  ///   - maxResponseBytes: the response size cap (default 8 MiB, as the standard transport).
  ///   - fallback: carries requests to origins the server does not hold; `nil` refuses them.
  public init(
    server: HTTPServer, maxResponseBytes: Int = 8 * 1024 * 1024,
    fallback: (any HTTPTransport)? = nil
  ) {
    self.server = server
    self.maxResponseBytes = max(0, maxResponseBytes)
    self.fallback = fallback
  }

  /// Whether a request to `url` reaches the server (a port it holds on 127.0.0.1, over plain
  /// `http`, listening or taken down) rather than the fallback.
  public func holds(_ url: URL) -> Bool {
    guard let origin = Origin(url), !origin.isSecure, origin.host == "127.0.0.1" else {
      return false
    }
    return server.listener(on: origin.port) != nil
  }

  /// Sends `request` and waits at most `timeout` seconds for the whole response.
  public func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(HTTPTransportError)
    -> HTTPResponse
  {
    guard let origin = Origin(request.url) else {
      throw .invalidOrigin(request.url.absoluteString)
    }
    guard !origin.isSecure, origin.host == "127.0.0.1",
      let listener = server.listener(on: origin.port)
    else {
      guard let fallback else { throw .unreachable(.refused) }
      return try await fallback.send(request, timeout: timeout)
    }
    if Task.isCancelled { throw .cancelled }
    guard listener.isListening else { throw .unreachable(.refused) }
    let deadline = MonotonicClock.deadline(after: timeout)
    switch HTTPRequestParser.parse(RequestEncoder.encode(request, origin: origin)) {
    case .incomplete:
      throw .unreachable(.reset)
    case .invalid(let status, let message):
      return try read(.text(message, status: status), keepAlive: false)
    case .request(let received, _, let keepAlive):
      server.flights.start(listener.tag)
      defer { server.flights.end(listener.tag) }
      guard let reply = server.handler(received, listener.tag) else {
        throw .unreachable(.reset)
      }
      try await Self.wait(reply.delay, until: deadline)
      switch reply.action {
      case .hang:
        try await Self.wait(.infinity, until: deadline)
        throw .timeout
      case .reset:
        throw .unreachable(.reset)
      case .respond(let response, let slowRate):
        if let token = response.deferredToken {
          let wait = PendingWait(deadline: deadline)
          let pending = ServerPending(
            tag: listener.tag, token: token, isWaiting: { wait.isWaiting },
            answer: { wait.answer($0) })
          if server.hold(pending) {
            let later = try await wait.response()
            return try read(later, keepAlive: keepAlive)
          }
        }
        let answer = try read(response, keepAlive: keepAlive)
        if let slowRate, !response.body.isEmpty {
          try await Self.wait(Self.trickleSeconds(response.body.count, slowRate), until: deadline)
        }
        return answer
      }
    }
  }

  /// `response` as the client reads it off the wire.
  private func read(_ response: ServerResponse, keepAlive: Bool) throws(HTTPTransportError)
    -> HTTPResponse
  {
    var parser = ResponseParser(limit: maxResponseBytes)
    let bytes = response.serialized(keepAlive: keepAlive)
    var complete = false
    var failure: ResponseParser.Failure?
    bytes.withUnsafeBytes { buffer in
      do throws(ResponseParser.Failure) {
        complete = try parser.feed(buffer)
      } catch {
        failure = error
      }
    }
    switch failure {
    case .tooLarge: throw .tooLarge(limit: maxResponseBytes)
    case .malformed(let detail): throw .malformedResponse(detail)
    case nil:
      guard complete || parser.finishAtEndOfStream() else { throw .unreachable(.reset) }
    }
    return HTTPResponse(status: parser.status, lowercasedHeaders: parser.headers, body: parser.body)
  }

  /// How long ``HTTPServer`` takes to trickle `count` body bytes at `bytesPerSecond`.
  static func trickleSeconds(_ count: Int, _ bytesPerSecond: Int) -> Double {
    let step = HTTPServer.trickleStep(bytesPerSecond: max(1, bytesPerSecond))
    let ticks = (count + step.perTick - 1) / step.perTick
    return Double(ticks) * step.interval
  }

  /// Sleeps `seconds`, or until `deadline` (monotonic nanoseconds) and then `.timeout` when
  /// that comes first; `.cancelled` when the caller's task is cancelled.
  static func wait(_ seconds: Double, until deadline: UInt64) async throws(HTTPTransportError) {
    guard seconds > 0 else { return }
    let now = MonotonicClock.now()
    let left = deadline > now ? deadline - now : 0
    let wanted = seconds.isFinite ? UInt64(min(seconds, 1e9) * 1_000_000_000) : UInt64.max
    do {
      try await Task.sleep(nanoseconds: min(wanted, left))
    } catch {
      throw .cancelled
    }
    if wanted >= left { throw .timeout }
  }
}
