import Foundation
import SimAdminClient

/// A transport that fails every request with one error, for tests of how features show an
/// unreachable, timed-out or refusing device without waiting for a real one.
public struct FailingTransport: HTTPTransport {
  /// What every request fails with.
  public let error: SimAdminError

  /// Fails every request with `error` (default: connection refused).
  public init(_ error: SimAdminError = .unreachable(.refused)) {
    self.error = error
  }

  /// Throws ``error``.
  public func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(SimAdminError)
    -> HTTPResponse
  {
    throw error
  }
}
