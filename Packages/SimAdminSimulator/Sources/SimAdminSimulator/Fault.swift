/// A misbehaviour a simulated device can be told to show.
public enum Fault: Sendable, Hashable {
  /// Delays the answer by `milliseconds` plus up to `jitter` more (seeded).
  case latency(milliseconds: Int, jitter: Int = 0)
  /// Accepts the connection, reads the request, never answers (closed on `stop()`).
  case hang
  /// Closes the socket abruptly (`SO_LINGER` 0, so the peer sees a reset) after the request.
  case reset
  /// HTTP 500 with a small body.
  case serverError
  /// HTTP 200 with `application/json` but a truncated, unparsable body.
  case malformedJSON
  /// HTTP 200 JSON body of exactly `bytes` bytes.
  case oversized(bytes: Int)
  /// Sends the head at once, then the body at `bytesPerSecond`.
  case slowBody(bytesPerSecond: Int)
  /// HTTP 200 `text/html` page, as a captive portal would answer.
  case wrongContentType
  /// HTTP 302 to `to` (an absolute origin; the request's path and query are appended when
  /// `to` has no path of its own).
  case redirect(to: String)
  /// The device's port is closed (listener and open connections are closed).
  case down
  /// HTTP 200 `{"status":"error","message":"Failed: database is locked"}`, as SimAdmin answers
  /// when its database fails (`handlers.rs`: `Failed: {e}`); the message is the device's own
  /// text (hostile too under ``hostileText``).
  case deviceError
  /// The device's own text carries terminal attacks (``HostileText/payload``: clear screen,
  /// OSC 52 clipboard and OSC 0 title writes, BEL, BS, CR, the one-byte CSI U+009B and a bidi
  /// override): SMS bodies and numbers, modem model and manufacturer, operator names and
  /// error messages. The answer is otherwise normal; `pathPrefix` limits it like other faults.
  case hostileText
  /// Every JSON number of the answer is replaced by `text` (a number such as `1e308`,
  /// `-1e308` or `9223372036854775808`, or any other token: `"NaN"`, `1e400`): what a broken
  /// sensor, an old firmware or a hostile device could send where SimAdmin sends a
  /// temperature, an uptime, a byte count or a percentage. Text inside strings is left as is;
  /// `pathPrefix` limits it like other faults.
  case absurdNumbers(text: String)
}

/// A fault, optionally limited to the requests whose path starts with `pathPrefix`.
public struct FaultRule: Sendable, Hashable {
  /// What goes wrong.
  public var fault: Fault
  /// Only paths starting with this prefix are affected; `nil` means every path.
  /// Ignored for ``Fault/down``, which closes the whole port.
  public var pathPrefix: String?
  /// Only requests with this method (`POST`) are affected; `nil` means every method.
  public var method: String?

  /// A rule for `fault` on every path, or only under `pathPrefix` (and only for `method`).
  public init(_ fault: Fault, pathPrefix: String? = nil, method: String? = nil) {
    self.fault = fault
    self.pathPrefix = pathPrefix
    self.method = method
  }

  /// Whether the rule applies to a request for `path` (without the query) with `method`.
  func matches(path: String, method: String? = nil) -> Bool {
    if let wanted = self.method, let method, wanted != method { return false }
    guard let pathPrefix else { return true }
    return path.hasPrefix(pathPrefix)
  }
}
