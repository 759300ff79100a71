import Foundation

/// RFC 3986 percent-encoding that leaves only the unreserved set (`A–Z a–z 0–9 - . _ ~`)
/// as is, so `+` becomes `%2B` in a query and `/` becomes `%2F` in a path segment.
enum PercentEncoding {
  static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// `value` with every byte outside the unreserved set percent-encoded (UTF-8).
  static func encode(_ value: String) -> String {
    value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }
}
