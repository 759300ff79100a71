import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A parsed HTTP response as the tests see it.
struct TestResponse: Sendable {
  var status: Int
  var headers: [String: String]
  var body: Data

  var text: String { String(decoding: body, as: UTF8.self) }

  func json() throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: body)
    guard let dictionary = object as? [String: Any] else { throw TestHTTPError.notAnObject }
    return dictionary
  }

  func data() throws -> [String: Any] {
    guard let data = try json()["data"] as? [String: Any] else { throw TestHTTPError.notAnObject }
    return data
  }
}

enum TestHTTPError: Error {
  case notAnObject
  case connectFailed(Int32)
  case closed
  case badResponse
}

/// HTTP helpers: URLSession for ordinary calls, raw sockets where the test needs control.
enum TestHTTP {
  /// A session that follows no redirects and stores no cookies.
  final class NoRedirect: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
      _ session: URLSession, task: URLSessionTask,
      willPerformHTTPRedirection response: HTTPURLResponse,
      newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
      completionHandler(nil)
    }
  }

  static func session(timeout: TimeInterval = 10) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.timeoutIntervalForRequest = timeout
    return URLSession(configuration: configuration, delegate: NoRedirect(), delegateQueue: nil)
  }

  static func request(
    _ origin: URL, _ method: String, _ pathAndQuery: String, json: [String: Any]? = nil,
    headers: [String: String] = [:], session: URLSession? = nil
  ) async throws -> TestResponse {
    let url = try require_url(origin.absoluteString + pathAndQuery)
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    if let json {
      request.httpBody = try JSONSerialization.data(withJSONObject: json)
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let session = session ?? Self.session()
    let (data, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse else { throw TestHTTPError.badResponse }
    var lower: [String: String] = [:]
    for (key, value) in http.allHeaderFields {
      if let key = key as? String, let value = value as? String { lower[key.lowercased()] = value }
    }
    return TestResponse(status: http.statusCode, headers: lower, body: data)
  }

  // MARK: - Raw sockets

  /// A blocking client connection with a receive timeout.
  final class RawConnection {
    let fd: Int32
    var buffer: [UInt8] = []

    init(port: Int, timeoutSeconds: Int = 10) throws {
      #if os(Linux)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
      #endif
      var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
      _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
      let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard result == 0 else {
        // No close here: the object is fully initialized, so throwing runs `deinit`, which
        // closes the socket. Closing it twice could close another test's new socket that
        // reused the number (a listener of another fleet, seen as "connection refused").
        throw TestHTTPError.connectFailed(errno)
      }
    }

    deinit { close(fd) }

    /// Ends the connection from this side now (the client gives up), as closing it would.
    func hangUp() {
      #if os(Linux)
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
      #else
        _ = Darwin.shutdown(fd, SHUT_RDWR)
      #endif
    }

    func send(_ text: String) {
      let bytes = Array(text.utf8)
      var offset = 0
      while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes { rawSend(fd, $0.baseAddress, $0.count) }
        if sent <= 0 { return }
        offset += sent
      }
    }

    /// Reads bytes until at least `count` are buffered; false on EOF, reset or timeout.
    private func fill(_ count: Int) -> Bool {
      var chunk = [UInt8](repeating: 0, count: 65536)
      while buffer.count < count {
        let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if got <= 0 { return false }
        buffer.append(contentsOf: chunk[0..<got])
      }
      return true
    }

    /// Reads one whole response (content-length bodies).
    func readResponse() throws -> TestResponse {
      var headEnd: Int?
      while headEnd == nil {
        if let range = findHeadEnd() { headEnd = range; break }
        guard fill(buffer.count + 1) else { throw TestHTTPError.closed }
      }
      guard let headEnd else { throw TestHTTPError.badResponse }
      let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
      var lines = head.components(separatedBy: "\r\n")
      let statusLine = lines.removeFirst().split(separator: " ")
      guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
        throw TestHTTPError.badResponse
      }
      var headers: [String: String] = [:]
      for line in lines {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
          .trimmingCharacters(in: .whitespaces)
      }
      let length = Int(headers["content-length"] ?? "0") ?? 0
      guard fill(headEnd + 4 + length) else { throw TestHTTPError.closed }
      let body = Data(buffer[(headEnd + 4)..<(headEnd + 4 + length)])
      buffer.removeFirst(headEnd + 4 + length)
      return TestResponse(status: status, headers: headers, body: body)
    }

    /// Whether the server closed the connection (EOF) within the receive timeout.
    func readEOF() -> Bool {
      var byte: UInt8 = 0
      return recv(fd, &byte, 1, 0) == 0
    }

    /// The errno of a read: ECONNRESET after a reset, EAGAIN on timeout, 0 on EOF.
    func readError() -> Int32 {
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if got == 0 { return 0 }
        if got < 0 { return errno }
      }
    }

    private func findHeadEnd() -> Int? {
      guard buffer.count >= 4 else { return nil }
      for index in 0...(buffer.count - 4)
      where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
        && buffer[index + 3] == 10
      {
        return index
      }
      return nil
    }
  }

  /// Whether something accepts TCP connections on 127.0.0.1:`port`.
  static func isListening(_ port: Int) -> Bool {
    (try? RawConnection(port: port, timeoutSeconds: 2)) != nil
  }
}

private func rawSend(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
  #if os(Linux)
    return send(fd, pointer, count, Int32(MSG_NOSIGNAL))
  #else
    return send(fd, pointer, count, 0)
  #endif
}

// swift-format-ignore
func require_url(_ text: String) throws -> URL {
  guard let url = URL(string: text) else { throw TestHTTPError.badResponse }
  return url
}
