/// Why a server could not be reached at all.
public enum UnreachableReason: Sendable, Hashable {
  /// Nothing listens on the port (connection refused).
  case refused
  /// The host name does not resolve.
  case dns
  /// The TLS handshake or certificate failed.
  case tls
  /// The connection was reset or dropped before a full response arrived.
  case reset
  /// Anything else, with the system's text.
  case other(String)
}

/// How an exchange failed below HTTP: what every ``HTTPTransport`` throws. An HTTP status,
/// however bad, is a response, never one of these. `SimAdminClient` maps each case to the
/// `SimAdminError` case of the same name.
public enum HTTPTransportError: Error, Sendable, Hashable {
  /// No complete response within the timeout.
  case timeout
  /// The server could not be reached.
  case unreachable(UnreachableReason)
  /// The response exceeded the size cap (bytes) and was abandoned while arriving.
  case tooLarge(limit: Int)
  /// The bytes were not an HTTP/1.x response; the detail names what was wrong.
  case malformedResponse(String)
  /// The URL is not `http(s)://host[:port]…`.
  case invalidOrigin(String)
  /// The caller cancelled the request.
  case cancelled
  /// This computer, not the server, failed: out of file descriptors (`EMFILE`, `ENFILE`),
  /// memory or buffers.
  case localResource(String)
  /// The phone's owner has not allowed the app on the local network (iOS only; see
  /// ``LocalNetworkAccess``): nothing reached the server, which may be up or down.
  case localNetworkDenied

  /// Whether the failure is this computer's, not the server's.
  public var isLocal: Bool {
    switch self {
    case .localResource, .localNetworkDenied: true
    default: false
    }
  }
}
