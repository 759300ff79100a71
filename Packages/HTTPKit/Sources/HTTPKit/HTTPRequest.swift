import Foundation

/// One request on its way to a server: method, absolute URL, headers and body.
///
/// In the app only `SimAdminClient`'s routes build one (`SimAdminRoute.request(origin:)`): no
/// feature imports this package or builds a request itself (`scripts/lint` checks both), so no
/// free-form path or URL reaches a device. Transports read it.
public struct HTTPRequest: Sendable {
  /// The method.
  public let method: HTTPMethod
  /// The full URL: the origin plus the encoded path and query.
  public let url: URL
  /// Header names and values (the device session adds `Accept`, `User-Agent` and the cookie).
  public var headers: [String: String]
  /// The body, if any.
  public let body: Data?
  /// Method and path template, for logs and errors (`GET /api/sms/list`).
  public let endpoint: String

  /// A request to `url`; `endpoint` names it in logs without its parameters.
  public init(
    method: HTTPMethod, url: URL, headers: [String: String], body: Data?, endpoint: String
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.endpoint = endpoint
  }
}
