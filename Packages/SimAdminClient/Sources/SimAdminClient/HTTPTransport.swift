import Foundation

/// Carries one request to a device and returns its response.
///
/// The real one is ``HTTPTransports/standard(maxResponseBytes:)``: ``SocketTransport`` on
/// Linux, `URLSessionTransport` on Apple platforms; tests may wrap it to inject faults. A transport
/// never follows a redirect (a 3xx comes back as the response), enforces its response size
/// cap and the given timeout, and reports failures as ``SimAdminError`` values:
/// `.timeout`, `.unreachable(_:)`, `.tooLarge(limit:)`, `.cancelled`.
public protocol HTTPTransport: Sendable {
  /// Sends `request` and waits at most `timeout` seconds for the whole response.
  func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(SimAdminError)
    -> HTTPResponse
}
