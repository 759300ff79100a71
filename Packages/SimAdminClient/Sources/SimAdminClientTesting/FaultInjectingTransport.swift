import Essentials
import Foundation
import SimAdminClient

/// Wraps a real transport and fails chosen endpoints with a chosen error, passing every
/// other request through; records the endpoints it saw.
public final class FaultInjectingTransport: HTTPTransport {
  private let base: any HTTPTransport
  private let faults: Locked<[String: SimAdminError]>
  private let seen = Locked<[String]>([])

  /// Wraps `base`; `faults` maps an endpoint (`GET /api/device`) to the error it fails with.
  public init(wrapping base: any HTTPTransport, faults: [String: SimAdminError] = [:]) {
    self.base = base
    self.faults = Locked(faults)
  }

  /// Makes `endpoint` fail with `error` from now on (`nil` heals it).
  public func setFault(_ error: SimAdminError?, for endpoint: String) {
    faults.withLock { $0[endpoint] = error }
  }

  /// Every endpoint requested through this transport, oldest first.
  public var endpoints: [String] { seen.current }

  /// Fails with the injected error, or forwards to the wrapped transport.
  public func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(SimAdminError)
    -> HTTPResponse
  {
    seen.withLock { $0.append(request.endpoint) }
    if let error = faults.current[request.endpoint] { throw error }
    return try await base.send(request, timeout: timeout)
  }
}
