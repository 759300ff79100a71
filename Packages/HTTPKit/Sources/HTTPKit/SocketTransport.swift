import Foundation

/// The transport on Linux: HTTP/1.1 over non-blocking POSIX sockets, all driven by one
/// `poll` thread, with keep-alive connection pools per origin. It needs no networking
/// library; `https` loads the system's OpenSSL (`libssl.so.3`) at run time, on first use.
///
/// - Pools: at most ``maxConnectionsPerOrigin`` connections per `scheme://host:port`
///   (8 by default, so a device's 8 probe calls go out at once); further requests wait for
///   one. Idle connections are reused, the most recent first, and closed after 30 s idle
///   or when more than 64 are idle across all origins (the longest idle first).
/// - A pooled connection the server closed meanwhile (it ends before any byte of the
///   response) is replaced by a fresh one once, for a `GET` only; a `POST` or `DELETE` is
///   never sent twice. Before one of those is sent on a pooled connection, a connection the
///   server has visibly closed is skipped.
/// - Redirects are never followed (a 3xx is the response) and cookies are left alone: the
///   session adds its own, so a cookie never reaches another host.
/// - The response size cap is enforced while bytes arrive: an announced `Content-Length` (or
///   chunk) over ``maxResponseBytes`` fails at once with `.tooLarge`, as do received bytes
///   passing it; the connection is closed and nothing past the cap is kept.
/// - The timeout bounds the whole exchange (name lookup, connect, TLS, send, the whole body):
///   a hanging server or a trickling body ends at `.timeout`. Cancelling the caller's task
///   ends the request at once with `.cancelled`. Either way the connection is closed.
/// - Errors: connection refused → `.unreachable(.refused)`; a name that does not resolve →
///   `.dns`; reset or end before a complete response → `.reset`; a certificate or handshake
///   failure → `.tls`; a response that is not HTTP/1.x → `.malformedResponse`.
/// - TLS verifies the peer's certificate against the system's trusted CAs (plus
///   ``init(maxResponseBytes:maxConnectionsPerOrigin:additionalTrustedCertificates:)``'s
///   extra file, meant for tests) and its name or IP address, and sends SNI for names.
public final class SocketTransport: HTTPTransport {
  /// The largest body accepted, bytes.
  public let maxResponseBytes: Int
  /// Connections per origin, busy or idle.
  public let maxConnectionsPerOrigin: Int
  private let loop: SocketEventLoop

  /// A transport.
  ///
  /// - Parameters:
  ///   - maxResponseBytes: the response size cap (default 8 MiB).
  ///   - maxConnectionsPerOrigin: concurrent connections per origin (default 8).
  ///   - additionalTrustedCertificates: a PEM file of CA certificates trusted for `https`
  ///     besides the system's — for tests with a throwaway CA; `nil` in production.
  public init(
    maxResponseBytes: Int = 8 * 1024 * 1024, maxConnectionsPerOrigin: Int = 8,
    additionalTrustedCertificates: URL? = nil
  ) {
    self.maxResponseBytes = max(0, maxResponseBytes)
    self.maxConnectionsPerOrigin = max(1, maxConnectionsPerOrigin)
    loop = SocketEventLoop(
      settings: SocketEventLoop.Settings(
        maxConnectionsPerOrigin: max(1, maxConnectionsPerOrigin), maxIdleConnections: 64,
        idleTimeout: 30, additionalCertificates: additionalTrustedCertificates?.path))
  }

  deinit {
    loop.stop()
  }

  /// Sends `request` and waits for its whole response, at most `timeout` seconds.
  public func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(HTTPTransportError)
    -> HTTPResponse
  {
    guard let origin = Origin(request.url) else {
      throw .invalidOrigin(request.url.absoluteString)
    }
    if Task.isCancelled { throw .cancelled }
    let exchange = Exchange(
      origin: origin, method: request.method,
      bytes: RequestEncoder.encode(request, origin: origin),
      deadline: MonotonicClock.deadline(after: timeout), limit: maxResponseBytes)
    let loop = self.loop
    let reply = await withTaskCancellationHandler {
      await withUnsafeContinuation { continuation in
        guard exchange.reply.install(continuation) else { return }
        if !loop.submit(exchange) {
          let detail = HTTPKitStrings.text("transport.loopUnavailable", .english)
          exchange.reply.finish(.failure(.localResource(detail)))
        }
      }
    } onCancel: {
      if exchange.reply.finish(.failure(.cancelled)) { loop.cancel(exchange) }
    }
    // The transport (whose end stops the loop) must outlive the exchange, even when the
    // caller dropped it right after calling.
    withExtendedLifetime(self) {}
    return try reply.get()
  }
}
