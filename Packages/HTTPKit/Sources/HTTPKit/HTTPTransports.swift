import Foundation

/// The platform's standard ``HTTPTransport``.
public enum HTTPTransports {
  /// A new transport of the platform's standard kind: ``SocketTransport`` on Linux (no
  /// FoundationNetworking, no libcurl), `URLSessionTransport` on Apple platforms, where
  /// URLSession is the system's own stack. `SimAdminConnector` uses it by default.
  ///
  /// - Parameter maxResponseBytes: the response size cap (default 8 MiB).
  public static func standard(maxResponseBytes: Int = 8 * 1024 * 1024) -> any HTTPTransport {
    #if canImport(Darwin)
      URLSessionTransport(maxResponseBytes: maxResponseBytes)
    #else
      SocketTransport(maxResponseBytes: maxResponseBytes)
    #endif
  }
}
