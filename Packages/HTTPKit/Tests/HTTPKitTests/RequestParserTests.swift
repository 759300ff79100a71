import Foundation
import Testing

@testable import HTTPKit

/// The byte path for ASCII request heads (issue 19) must read every head exactly as the text
/// path does: same request line, same headers, same refusals.
@Suite("Request head parsing")
struct RequestParserTests {
  static let heads: [String] = [
    "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: application/json",
    "GET /api/sms/list?limit=1 HTTP/1.1\r\nhost:x\r\nUser-Agent: MultiSimAdmin/1.0",
    "POST  /api/auth/login   HTTP/1.0\r\nContent-Length: 12\r\nConnection: keep-alive",
    "GET / HTTP/1.1\r\nX-Empty:\r\nX-Blank: \t \r\nX-Tabs:\tvalue with  spaces\t",
    "GET / HTTP/1.1\r\nCookie: a=1\r\ncookie: simadmin_session=abc\r\nACCEPT: a\r\nAccept: b",
    "GET / HTTP/1.1\r\n  Spaced-Name  :  v  \r\nTE:\ttrailers",
    "GET / HTTP/1.1\r\nWeird:\r\r\nX: a:b:c",
    "GET / HTTP/1.1\r\nX: 1\n2\r\nY: \r",
    "GET / HTTP/1.1\r\nno colon here",
    "GET / HTTP/2.0\r\nHost: x",
    "GET /only-two",
    "GET / HTTP/1.1 extra",
    "\tGET / HTTP/1.1",
    "",
    "GET / HTTP/1.1\r\n:empty-name",
    "GET /caf%C3%A9 HTTP/1.1\r\nX-Ctl: \u{1}\u{7f}",
  ]

  @Test(arguments: heads)
  func asciiHeadsReadAsText(_ head: String) {
    let bytes = ArraySlice(Array(head.utf8))
    #expect(bytes.allSatisfy { $0 < 0x80 })
    #expect(HTTPRequestParser.asciiHead(bytes) == HTTPRequestParser.textHead(bytes))
  }

  @Test func wholeRequestsAreTheSameEitherWay() throws {
    let raw = Array(
      "GET /api/stats HTTP/1.1\r\nHost: x\r\nCookie: a=1\r\nCookie: b=2\r\nConnection: close\r\n\r\n"
        .utf8)
    guard case .request(let request, let consumed, let keepAlive) = HTTPRequestParser.parse(raw)
    else {
      Issue.record("not parsed")
      return
    }
    #expect(consumed == raw.count)
    #expect(!keepAlive)
    #expect(request.method == "GET")
    #expect(request.target == "/api/stats")
    #expect(request.headers == ["host": "x", "cookie": "a=1; b=2", "connection": "close"])
  }

  @Test func nonASCIIHeadsStillTakeTheTextPath() {
    let valid = Array("GET /é HTTP/1.1\r\nX-Name: 张三\r\n\r\n".utf8)
    guard case .request(let request, _, _) = HTTPRequestParser.parse(valid) else {
      Issue.record("not parsed")
      return
    }
    #expect(request.target == "/é")
    #expect(request.headers["x-name"] == "张三")
    let invalid: [UInt8] = Array("GET / HTTP/1.1\r\nX: ".utf8) + [0xFF] + Array("\r\n\r\n".utf8)
    guard case .invalid(let status, let message) = HTTPRequestParser.parse(invalid) else {
      Issue.record("accepted a head that is not UTF-8")
      return
    }
    #expect(status == 400)
    #expect(message == "Invalid request head")
  }

  @Test func queryValuesWithoutEscapesReadAsThemselves() {
    let plain = ServerRequest(
      method: "GET", target: "/api/sms/list?limit=1&offset=20&q=abc", headers: [:], body: Data())
    #expect(plain.query == ["limit": "1", "offset": "20", "q": "abc"])
    let escaped = ServerRequest(
      method: "GET", target: "/x?q=a+b%20c&bad=%zz&plus=%2B", headers: [:], body: Data())
    #expect(escaped.query == ["q": "a b c", "bad": "%zz", "plus": "+"])
  }
}
