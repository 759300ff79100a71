import Foundation

/// Carries one request to a server and returns its response.
///
/// The real one is ``HTTPTransports/standard(maxResponseBytes:)``: ``SocketTransport`` on
/// Linux, `URLSessionTransport` on Apple platforms; ``InMemoryTransport`` hands requests to a
/// server's handler in the same process (tests); tests may wrap any of them to inject faults.
/// A transport never follows a redirect (a 3xx comes back as the response), enforces its
/// response size cap and the given timeout, and reports failures as ``HTTPTransportError``
/// values: `.timeout`, `.unreachable(_:)`, `.tooLarge(limit:)`, `.cancelled` …
public protocol HTTPTransport: Sendable {
  /// Sends `request` and waits at most `timeout` seconds for the whole response.
  func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(HTTPTransportError)
    -> HTTPResponse
}
