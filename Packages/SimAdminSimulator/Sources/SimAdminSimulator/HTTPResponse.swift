import Essentials

/// An HTTP/1.1 response before it is written.
struct HTTPResponse {
  var status: Int
  var headers: [(String, String)] = []
  var body: [UInt8] = []
  /// Set when the real answer comes later (a send waiting for the modem): the server asks the
  /// device for it when the time comes.
  var deferred: DeferredAnswer?

  static let reasons: [Int: String] = [
    200: "OK", 302: "Found", 303: "See Other", 400: "Bad Request", 401: "Unauthorized",
    403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 413: "Payload Too Large",
    415: "Unsupported Media Type", 422: "Unprocessable Entity", 500: "Internal Server Error",
    503: "Service Unavailable",
  ]

  /// A JSON response.
  static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
    var writer = JSONWriter()
    writer.write(value)
    return HTTPResponse(
      status: status, headers: [("content-type", "application/json")], body: writer.bytes)
  }

  /// `{"status":"ok","message":…,"data":…}`.
  static func ok(_ data: JSONValue, message: String = "Success") -> HTTPResponse {
    json(.fields([("status", .string("ok")), ("message", .string(message)), ("data", data)]))
  }

  /// `{"status":"error","message":…}` (no `data`), HTTP 200 unless told otherwise.
  static func error(_ message: String, status: Int = 200) -> HTTPResponse {
    json(.fields([("status", .string("error")), ("message", .string(message))]), status: status)
  }

  /// A plain-text response.
  static func text(_ text: String, status: Int) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("content-type", "text/plain; charset=utf-8")],
      body: Array(text.utf8))
  }

  /// The head and body as bytes, with `content-length` and the connection decision.
  func serialized(keepAlive: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reasons[status] ?? "Status")\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "content-length: \(body.count)\r\n"
    head += keepAlive ? "connection: keep-alive\r\n\r\n" : "connection: close\r\n\r\n"
    return Array(head.utf8) + body
  }

  /// The length of the head in ``serialized(keepAlive:)``.
  func headLength(keepAlive: Bool) -> Int {
    serialized(keepAlive: keepAlive).count - body.count
  }
}
