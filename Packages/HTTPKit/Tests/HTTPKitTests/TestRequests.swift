import Foundation

@testable import HTTPKit

extension HTTPRequest {
  /// A `GET` of `target` (path and query, as encoded) on `origin`.
  static func get(_ target: String, _ origin: URL) -> HTTPRequest {
    let url = URL(string: origin.absoluteString + target) ?? origin
    let path = String(target.prefix { $0 != "?" })
    return HTTPRequest(
      method: .get, url: url, headers: [:], body: nil, endpoint: "GET \(path)")
  }
}
