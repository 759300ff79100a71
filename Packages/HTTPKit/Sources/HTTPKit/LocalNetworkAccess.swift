/// How a refused local-network permission shows in a URL error on iOS 14 and later: the
/// request fails as "not connected to the Internet" (-1009) and the network path it carries
/// says the local network is prohibited. Apart from URLSession so Linux tests reach it.
public enum LocalNetworkAccess {
  /// The URL error's user-info key holding the network path (`NWPath`) the request met.
  public static let pathKey = "_NSURLErrorNWPathKey"

  /// `NSURLErrorNotConnectedToInternet`.
  public static let notConnectedCode = -1009

  /// Whether an error of `code` whose network path reads `pathDescription` (e.g.
  /// `unsatisfied (Local network prohibited), interface: en0[802.11]`) is iOS refusing the
  /// app the local network, rather than the network being down.
  public static func isDenial(code: Int, pathDescription: String?) -> Bool {
    guard code == notConnectedCode, let pathDescription else { return false }
    return pathDescription.lowercased().contains("local network prohibited")
  }
}
