import Essentials
import HTTPKit

/// A request a simulated device received, kept so tests can check what a client sent
/// (HTTPKit's ``ServerRequest``, by the name the simulator's users know it by).
public typealias RecordedRequest = ServerRequest

/// The answer a handler builds (HTTPKit's ``ServerResponse``). Inside the simulator this name
/// shadows HTTPKit's `HTTPResponse`, the response a client receives.
typealias HTTPResponse = ServerResponse

/// What the server does with one request once faults are taken into account (HTTPKit's
/// ``ServerReply``, carried out on sockets by ``HTTPServer`` and without them by
/// ``InMemoryTransport``).
typealias ResponsePlan = ServerReply

extension ServerResponse {
  /// A JSON response.
  static func json(_ value: JSONValue, status: Int = 200) -> ServerResponse {
    var json = JSONWriter(format: .compact, capacity: 256)
    json.value(value)
    return ServerResponse(
      status: status, headers: [("content-type", "application/json")], body: json.bytes)
  }

  /// `{"status":"ok","message":…,"data":…}`.
  static func ok(_ data: JSONValue, message: String = "Success") -> ServerResponse {
    json(.fields([("status", .string("ok")), ("message", .string(message)), ("data", data)]))
  }

  /// `{"status":"error","message":…}` (no `data`), HTTP 200 unless told otherwise.
  static func error(_ message: String, status: Int = 200) -> ServerResponse {
    json(.fields([("status", .string("error")), ("message", .string(message))]), status: status)
  }
}
