import Foundation

/// One device request as the logs keep it: method, route template, status, bytes and
/// milliseconds — never a cookie, a password, a query value or a body.
public struct DeviceRequest: Sendable, Hashable, Codable {
  /// `GET`, `POST` …
  public var method: String
  /// The route's template (`/api/sms/list`), without query values.
  public var route: String
  /// The HTTP status, `nil` when no answer came.
  public var status: Int?
  /// The answer's body size, `nil` when no answer came.
  public var bytes: Int?
  /// Milliseconds from sending to the answer (or the failure).
  public var milliseconds: Int
  /// Why no answer came (a reason code such as `timeout`), `nil` when one did.
  public var failure: String?

  /// A request record.
  public init(
    method: String, route: String, status: Int?, bytes: Int?, milliseconds: Int,
    failure: String? = nil
  ) {
    self.method = method
    self.route = route
    self.status = status
    self.bytes = bytes
    self.milliseconds = milliseconds
    self.failure = failure
  }

  /// One line: `GET /api/health 200 512 B 12 ms` or `GET /api/stats timeout 5000 ms`.
  public var line: String {
    if let status {
      return "\(method) \(route) \(status) \(bytes ?? 0) B \(milliseconds) ms"
    }
    return "\(method) \(route) \(failure ?? "failed") \(milliseconds) ms"
  }
}
