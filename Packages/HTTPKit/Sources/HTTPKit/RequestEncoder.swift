import Foundation

/// Writes an ``HTTPRequest`` as HTTP/1.1 bytes: request line, `Host`, the request's own
/// headers, `Content-Length` when there is a body (or a method that may carry one), the body.
enum RequestEncoder {
  /// Header names the encoder writes itself; the request's own values for them are ignored.
  static let reservedNames: Set<String> = [
    "host", "content-length", "connection", "transfer-encoding", "keep-alive", "upgrade", "te",
  ]

  /// The request's bytes, ready to send on a connection to `origin`.
  static func encode(_ request: HTTPRequest, origin: Origin) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(512 + (request.body?.count ?? 0))
    func add(_ text: String) { bytes.append(contentsOf: text.utf8) }
    add(request.method.rawValue)
    add(" ")
    add(target(of: request.url))
    add(" HTTP/1.1\r\nHost: ")
    add(origin.hostHeader)
    add("\r\n")
    for (name, value) in request.headers.sorted(by: { $0.key < $1.key })
    where isValid(name: name, value: value) && !reservedNames.contains(name.lowercased()) {
      add(name)
      add(": ")
      add(value)
      add("\r\n")
    }
    if let body = request.body {
      add("Content-Length: \(body.count)\r\n")
    } else if request.method != .get {
      add("Content-Length: 0\r\n")
    }
    add("\r\n")
    if let body = request.body { bytes.append(contentsOf: body) }
    return bytes
  }

  /// The request target: the URL's path and query exactly as encoded, `/` when empty.
  static func target(of url: URL) -> String {
    let text = url.absoluteString.utf8
    guard let schemeEnd = ASCII.firstIndex(of: "://", in: text) else { return "/" }
    let afterAuthority = text.dropFirst(text.distance(from: text.startIndex, to: schemeEnd) + 3)
    guard
      let start = afterAuthority.firstIndex(where: {
        $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?")
      })
    else { return "/" }
    var target = afterAuthority[start...]
    if let hash = target.firstIndex(of: UInt8(ascii: "#")) { target = target[..<hash] }
    let path = String(decoding: target, as: UTF8.self)
    return path.hasPrefix("?") ? "/" + path : path
  }

  /// A header that cannot smuggle a line break or break the header syntax.
  static func isValid(name: String, value: String) -> Bool {
    !name.isEmpty
      && name.utf8.allSatisfy { $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") }
      && !value.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
  }
}
