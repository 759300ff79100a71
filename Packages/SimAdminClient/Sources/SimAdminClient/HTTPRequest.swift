import Foundation

/// One request to a SimAdmin device, built only by ``SimAdminRoute/request(origin:)``.
///
/// Its initialiser is internal: no code outside this module can aim a request at a
/// free-form URL. Transports read it.
public struct HTTPRequest: Sendable {
  /// The method.
  public let method: HTTPMethod
  /// The full URL: the instance's origin plus the route's encoded path and query.
  public let url: URL
  /// Header names and values (the session adds `Accept`, `User-Agent` and the cookie).
  public internal(set) var headers: [String: String]
  /// The JSON body, if any.
  public let body: Data?
  /// Method and path template, for logs and errors.
  public let endpoint: String

  init(method: HTTPMethod, url: URL, headers: [String: String], body: Data?, endpoint: String) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.endpoint = endpoint
  }
}
