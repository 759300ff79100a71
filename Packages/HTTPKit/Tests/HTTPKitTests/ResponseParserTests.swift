import Foundation
import Testing

@testable import HTTPKit

@Suite("HTTP/1.x response parser")
struct ResponseParserTests {
  /// Feeds `text` in pieces of `step` bytes; the parser and whether it completed.
  static func parse(_ text: String, step: Int = .max, limit: Int = 1 << 20) throws(ResponseParser
    .Failure) -> (ResponseParser, Bool)
  {
    var parser = ResponseParser(limit: limit)
    let bytes = Array(text.utf8)
    var complete = false
    var offset = 0
    while offset < bytes.count {
      let piece = Array(bytes[offset..<min(bytes.count, offset + step)])
      let result = piece.withUnsafeBytes { raw in
        Result { () throws(ResponseParser.Failure) in try parser.feed(raw) }
      }
      complete = try result.get()
      offset += piece.count
    }
    return (parser, complete)
  }

  static let chunked =
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
    + "4\r\n{\"a\"\r\n9;x=y\r\n:[1,2,3]}\r\n0\r\nTrailer: t\r\n\r\n"

  @Test(
    "a chunked body is the same whatever the pieces it arrives in", arguments: [1, 2, 3, 7, 64])
  func chunkedInPieces(_ step: Int) throws {
    let (parser, complete) = try Self.parse(Self.chunked, step: step)
    #expect(complete)
    #expect(String(decoding: parser.body, as: UTF8.self) == #"{"a":[1,2,3]}"#)
    #expect(parser.headers["content-type"] == "application/json")
    #expect(parser.keepAlive)
    #expect(!parser.hasExcess)
  }

  @Test("Content-Length frames the body; repeated headers are joined; names are lower-cased")
  func contentLength() throws {
    let text =
      "HTTP/1.1 201 Created\r\nContent-Length: 5\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\n"
      + "X-Pad:   spaced  \r\n\r\nhello"
    let (parser, complete) = try Self.parse(text, step: 4)
    #expect(complete)
    #expect(parser.status == 201)
    #expect(parser.body == Data("hello".utf8))
    #expect(parser.headers["set-cookie"] == "a=1, b=2")
    #expect(parser.headers["x-pad"] == "spaced")
  }

  @Test("keep-alive: HTTP/1.1 unless Connection: close; HTTP/1.0 only when asked")
  func keepAlive() throws {
    #expect(try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").0.keepAlive)
    #expect(
      try !Self.parse("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n").0
        .keepAlive)
    #expect(try !Self.parse("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").0.keepAlive)
    #expect(
      try Self.parse("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n").0
        .keepAlive)
  }

  @Test("no length: the body runs until the connection ends")
  func untilClose() throws {
    var (parser, complete) = try Self.parse("HTTP/1.0 200 OK\r\n\r\nabc")
    #expect(!complete)
    let ended = parser.finishAtEndOfStream()
    #expect(ended)
    #expect(parser.body == Data("abc".utf8))
    #expect(!parser.keepAlive)
  }

  @Test("an end of stream before the announced length is a cut-short response")
  func truncated() throws {
    var (parser, complete) = try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
    #expect(!complete)
    let cutShort = !parser.finishAtEndOfStream()
    #expect(cutShort)
    var (empty, _) = try Self.parse("")
    #expect(!empty.hasStarted)
    let nothing = !empty.finishAtEndOfStream()
    #expect(nothing)
  }

  @Test("interim 1xx answers are skipped; 204 and 304 have no body")
  func noBody() throws {
    let (parser, complete) = try Self.parse(
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nX-A: 1\r\n\r\n")
    #expect(complete)
    #expect(parser.status == 204)
    #expect(parser.headers == ["x-a": "1"])
    let (notModified, done) = try Self.parse(
      "HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n")
    #expect(done)
    #expect(notModified.body.isEmpty)
  }

  @Test("bytes after the response are noticed (the connection is not reused)")
  func excess() throws {
    let (parser, complete) = try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxy")
    #expect(complete)
    #expect(parser.hasExcess)
  }

  @Test(
    "the cap: an announced length, a chunk or the bytes received past it fail at once",
    arguments: [
      "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n5\r\n",
      "HTTP/1.1 200 OK\r\n\r\n0123456789A",
    ])
  func tooLarge(_ text: String) {
    #expect(throws: ResponseParser.Failure.tooLarge) { try Self.parse(text, limit: 10) }
  }

  @Test(
    "what is not HTTP/1.x is malformed",
    arguments: [
      "SSH-2.0-OpenSSH\r\n",
      "HTTP/2 200\r\n\r\n",
      "HTTP/1.1 2000 OK\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n",
      "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n",
      "HTTP/1.1 101 Switching Protocols\r\n\r\n",
    ])
  func malformed(_ text: String) {
    #expect {
      try Self.parse(text)
    } throws: { error in
      if case ResponseParser.Failure.malformed = error { return true }
      return false
    }
  }

  @Test("an endless head is refused")
  func endlessHead() {
    let text = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-A: b\r\n", count: 10_000)
    #expect(throws: ResponseParser.Failure.malformed("response head too long")) {
      try Self.parse(text, step: 1000)
    }
  }
}

@Suite("HTTP/1.1 request encoder")
struct RequestEncoderTests {
  @Test("request line, Host (brackets for IPv6, no default port), sorted headers, body length")
  func encodes() throws {
    let origin = try #require(URL(string: "http://[::1]:3000"))
    var request = HTTPRequest.get("/api/sms/conversation?phone_number=%2B86%201&limit=5", origin)
    request.headers["User-Agent"] = "t"
    request.headers["Accept"] = "application/json"
    request.headers["Host"] = "evil.example"
    request.headers["X-Bad"] = "a\r\nInjected: 1"
    let target = try #require(Origin(origin))
    let text = String(decoding: RequestEncoder.encode(request, origin: target), as: UTF8.self)
    #expect(
      text
        == "GET /api/sms/conversation?phone_number=%2B86%201&limit=5 HTTP/1.1\r\n"
        + "Host: [::1]:3000\r\nAccept: application/json\r\nUser-Agent: t\r\n\r\n")
    let secureURL = try #require(URL(string: "https://cpe.example"))
    let secure = try #require(Origin(secureURL))
    #expect(secure.hostHeader == "cpe.example")
    #expect(secure.port == 443)
  }

  @Test("a POST without a body still says Content-Length: 0")
  func emptyPost() throws {
    let origin = try #require(URL(string: "http://127.0.0.1:80"))
    let request = HTTPRequest(
      method: .post, url: origin.appendingPathComponent("api/hub/unbind"), headers: [:],
      body: nil, endpoint: "POST /api/hub/unbind")
    let target = try #require(Origin(origin))
    let text = String(decoding: RequestEncoder.encode(request, origin: target), as: UTF8.self)
    #expect(text == "POST /api/hub/unbind HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
  }
}
