/// An HTTP/1.1 response a server is about to write: status, header fields in order (a name
/// may repeat) and the body.
public struct ServerResponse: Sendable {
  /// The status code.
  public var status: Int
  /// Header fields in the order they are written; `content-length` and `connection` are
  /// added when written.
  public var headers: [(String, String)]
  /// The body.
  public var body: [UInt8]
  /// Set when the real answer comes later (the simulator's send waiting for its modem): the
  /// server writes nothing now and hands a ``ServerPending`` with this token to the handler
  /// given to ``HTTPServer/onPending(_:)``, which answers it when the time comes.
  public var deferredToken: Int?

  /// A response.
  public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// Reason phrases of the statuses a server here sends; others read `Status`.
  public static let reasons: [Int: String] = [
    200: "OK", 302: "Found", 303: "See Other", 400: "Bad Request", 401: "Unauthorized",
    403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 413: "Payload Too Large",
    415: "Unsupported Media Type", 422: "Unprocessable Entity", 500: "Internal Server Error",
    503: "Service Unavailable",
  ]

  /// A plain-text response.
  public static func text(_ text: String, status: Int) -> ServerResponse {
    ServerResponse(
      status: status, headers: [("content-type", "text/plain; charset=utf-8")],
      body: Array(text.utf8))
  }

  /// The head and body as bytes, with `content-length` and the connection decision.
  public func serialized(keepAlive: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reasons[status] ?? "Status")\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "content-length: \(body.count)\r\n"
    head += keepAlive ? "connection: keep-alive\r\n\r\n" : "connection: close\r\n\r\n"
    return Array(head.utf8) + body
  }
}
