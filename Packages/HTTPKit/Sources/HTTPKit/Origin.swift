import Foundation

/// Where a request goes: scheme, host and port. The key of a connection pool, so a
/// connection (and whatever it carries) is only ever reused for the same origin.
struct Origin: Hashable, Sendable, CustomStringConvertible {
  /// `https`: the connection speaks TLS.
  var isSecure: Bool
  /// The host name or address literal, without IPv6 brackets.
  var host: String
  /// The port (80 or 443 when the URL names none).
  var port: Int

  /// The origin of `url`, or `nil` when it is not `http(s)://host[:port]…`.
  init?(_ url: URL) {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      var host = url.host, !host.isEmpty
    else { return nil }
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    isSecure = scheme == "https"
    self.host = host
    port = url.port ?? (isSecure ? 443 : 80)
    guard (1...65_535).contains(port) else { return nil }
  }

  /// Whether the host is an IPv6 literal.
  var isIPv6Literal: Bool { host.utf8.contains(UInt8(ascii: ":")) }

  /// The `Host` header: brackets around an IPv6 literal, the port only when not the default.
  var hostHeader: String {
    let name = isIPv6Literal ? "[\(host)]" : host
    return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
  }

  /// `scheme://host:port`, for diagnostics.
  var description: String { "\(isSecure ? "https" : "http")://\(hostHeader)" }
}
