import Foundation

/// What a transport got back: status, headers (names lower-cased) and the whole body.
public struct HTTPResponse: Sendable, Equatable {
  /// The HTTP status code.
  public var status: Int
  /// Header values by lower-cased name.
  public var headers: [String: String]
  /// The body, never longer than the transport's cap.
  public var body: Data

  /// A response; header names are lower-cased here.
  public init(status: Int, headers: [String: String], body: Data) {
    self.status = status
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    self.body = body
  }

  /// A response whose header names are already lower-case (the socket transport's parser).
  init(status: Int, lowercasedHeaders headers: [String: String], body: Data) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The `Content-Type` header, or `""`.
  public var contentType: String { headers["content-type"] ?? "" }

  /// Whether the body claims to be JSON.
  public var isJSON: Bool { ASCII.contains(contentType, "json") }
}
