import Foundation

/// A request a server received, as its parser read it (``HTTPRequestParser``); the simulator
/// keeps each one so tests can check what a client sent (`RecordedRequest`).
public struct ServerRequest: Sendable {
  /// `GET`, `POST`, …
  public var method: String
  /// The request target: path plus `?query` when present, still percent-encoded.
  public var target: String
  /// Header fields with lower-cased names (repeated fields joined with `, `).
  public var headers: [String: String]
  /// The decoded body (chunked bodies are de-chunked).
  public var body: Data

  /// A received request.
  public init(method: String, target: String, headers: [String: String], body: Data) {
    self.method = method
    self.target = target
    self.headers = headers
    self.body = body
  }

  /// The target without its query.
  public var path: String {
    if let mark = target.firstIndex(of: "?") { return String(target[..<mark]) }
    return target
  }

  /// The decoded query parameters (`+` is a space, as serde_urlencoded reads it); the first
  /// of a repeated name wins.
  public var query: [String: String] {
    guard let mark = target.firstIndex(of: "?") else { return [:] }
    var result: [String: String] = [:]
    for pair in target[target.index(after: mark)...].split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = Self.formDecode(parts[0])
      let value = parts.count > 1 ? Self.formDecode(parts[1]) : ""
      if result[name] == nil { result[name] = value }
    }
    return result
  }

  /// `text` form-decoded: `+` is a space, then percent-decoding (left as is when invalid).
  public static func formDecode(_ text: Substring) -> String {
    // Nothing to decode (`limit=1`): the text as it is, without Foundation's passes.
    if !text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) {
      return String(text)
    }
    let spaced = text.replacingOccurrences(of: "+", with: " ")
    return spaced.removingPercentEncoding ?? spaced
  }
}
