import HTTPKit

/// How a device's faults turn into the server's reply (``ResponsePlan`` is HTTPKit's
/// `ServerReply`: a delay, then respond, hang or reset).
extension ResponsePlan {
  /// Applies the device's fault rules to `request`; `answer` computes the normal response.
  static func make(
    rules: [FaultRule], request: RecordedRequest, noise: inout SplitMix64,
    answer: () -> HTTPResponse
  ) -> ResponsePlan {
    let path = request.path
    var delay = 0.0
    var chosen: Fault?
    var absurd: String?
    for rule in rules where rule.matches(path: path, method: request.method) {
      switch rule.fault {
      case .down, .hostileText: continue
      case .absurdNumbers(let text): absurd = absurd ?? text
      case .latency(let milliseconds, let jitter):
        let extra = jitter > 0 ? noise.int(in: 0...jitter) : 0
        delay += Double(max(0, milliseconds) + extra) / 1000
      default:
        if chosen == nil { chosen = rule.fault }
      }
    }
    func answered() -> HTTPResponse {
      absurd.map { numbersReplaced(in: answer(), by: $0) } ?? answer()
    }
    guard let chosen else {
      return ResponsePlan(delay: delay, action: .respond(answered(), slowRate: nil))
    }
    if chosen == .deviceError {
      let hostile = rules.contains { $0.fault == .hostileText && $0.matches(path: path) }
      let message = "Failed: database is locked"
      return ResponsePlan(
        delay: delay,
        action: .respond(
          .error(hostile ? HostileText.wrap(message) : message), slowRate: nil))
    }
    switch chosen {
    case .hang: return ResponsePlan(delay: delay, action: .hang)
    case .reset: return ResponsePlan(delay: delay, action: .reset)
    case .slowBody(let rate):
      return ResponsePlan(delay: delay, action: .respond(answered(), slowRate: max(1, rate)))
    default:
      return ResponsePlan(
        delay: delay, action: .respond(faultResponse(chosen, request), slowRate: nil))
    }
  }

  static func faultResponse(_ fault: Fault, _ request: RecordedRequest) -> HTTPResponse {
    switch fault {
    case .serverError:
      return .text("Internal Server Error", status: 500)
    case .malformedJSON:
      return HTTPResponse(
        status: 200, headers: [("content-type", "application/json")],
        body: Array(#"{"status":"ok","message":"Success","data":{"imei":"86"#.utf8))
    case .oversized(let bytes):
      let prefix = Array(#"{"status":"ok","message":"Success","data":{"padding":""#.utf8)
      let suffix = Array(#""}}"#.utf8)
      let fill = max(0, bytes - prefix.count - suffix.count)
      return HTTPResponse(
        status: 200, headers: [("content-type", "application/json")],
        body: prefix + [UInt8](repeating: UInt8(ascii: "x"), count: fill) + suffix)
    case .wrongContentType:
      return HTTPResponse(
        status: 200, headers: [("content-type", "text/html; charset=utf-8")],
        body: Array(
          "<html><head><title>Portal</title></head><body>Please sign in to the Wi-Fi portal.</body></html>"
            .utf8))
    case .redirect(let target):
      return HTTPResponse(status: 302, headers: [("location", redirectLocation(target, request))])
    default:
      return .text("Internal Server Error", status: 500)
    }
  }

  /// `response` with every number of its JSON body (outside strings) written as `text`
  /// (``Fault/absurdNumbers(text:)``); any other body is left as it is.
  static func numbersReplaced(in response: HTTPResponse, by text: String) -> HTTPResponse {
    guard
      response.headers.contains(where: {
        $0.0 == "content-type" && $0.1.hasPrefix("application/json")
      })
    else { return response }
    var result = response
    result.body = numbersReplaced(in: response.body, by: Array(text.utf8))
    return result
  }

  /// JSON text with each number token outside strings replaced by `replacement`.
  static func numbersReplaced(in json: [UInt8], by replacement: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(json.count)
    var inString = false
    var escaped = false
    var inNumber = false
    for byte in json {
      if inString {
        output.append(byte)
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      let numeric =
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        || (inNumber
          && [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+")]
            .contains(byte))
      if numeric {
        if !inNumber { output.append(contentsOf: replacement) }
        inNumber = true
        continue
      }
      inNumber = false
      if byte == UInt8(ascii: "\"") { inString = true }
      output.append(byte)
    }
    return output
  }

  /// `target` as is when it names a path; otherwise `target` + the request's path and query.
  static func redirectLocation(_ target: String, _ request: RecordedRequest) -> String {
    guard let schemeEnd = target.range(of: "://") else { return target }
    let afterScheme = target[schemeEnd.upperBound...]
    if let slash = afterScheme.firstIndex(of: "/"), afterScheme[slash...] != "/" {
      return target
    }
    var origin = target
    while origin.hasSuffix("/") { origin.removeLast() }
    return origin + request.target
  }
}
