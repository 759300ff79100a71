import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loopback HTTP server for transport tests, where the simulator cannot do the thing: it
/// counts the connections it accepts, records each request with the connection it came on,
/// and answers with whatever bytes the test scripts — or closes the connection unanswered.
///
/// One thread accepts; each connection is served on its own thread with blocking I/O, so
/// `respond` may sleep to keep a connection busy.
final class ScriptedServer: Sendable {
  /// What to do with one request.
  enum Reply: Sendable {
    /// Writes these bytes and waits for the next request on the connection.
    case send([UInt8])
    /// Writes these bytes, then closes the connection.
    case sendAndClose([UInt8])
    /// Closes the connection without a byte of answer (a server dropping an idle connection
    /// just as the client reuses it).
    case close
  }

  /// A request as received.
  struct Request: Sendable {
    /// 1 for the first connection accepted, 2 for the next…
    var connection: Int
    /// 1 for the first request on its connection, 2 for the next…
    var indexOnConnection: Int
    /// `GET /path HTTP/1.1`
    var requestLine: String
    /// Header values by lower-cased name.
    var headers: [String: String]
    /// The body (by `Content-Length`).
    var body: [UInt8]
  }

  private struct State {
    var connections = 0
    var open = 0
    var mostOpen = 0
    var requests: [Request] = []
    var clients: [Int32] = []
    var stopped = false
  }

  /// The port on the loopback address.
  let port: Int
  /// `127.0.0.1` or `::1`.
  let host: String
  private let listener: Int32
  private let state = Locked(State())
  private let respond: @Sendable (Request) -> Reply

  /// Listens on 127.0.0.1 (or ::1 when `ipv6`) on an ephemeral port and serves at once.
  init(ipv6: Bool = false, respond: @escaping @Sendable (Request) -> Reply) throws {
    let fd = try Self.listen(ipv6: ipv6)
    listener = fd.fd
    port = fd.port
    host = ipv6 ? "::1" : "127.0.0.1"
    self.respond = respond
    Thread.detachNewThread { [self] in acceptAll() }
  }

  deinit {
    stop()
  }

  /// `http://127.0.0.1:<port>` or `http://[::1]:<port>`.
  var origin: URL {
    URL(string: host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)")
      ?? URL(fileURLWithPath: "/")
  }

  /// Connections accepted so far.
  var connectionCount: Int { state.current.connections }
  /// The most connections that were open at the same time.
  var mostOpenAtOnce: Int { state.current.mostOpen }
  /// Every request received, oldest first.
  var requests: [Request] { state.current.requests }

  /// Stops accepting and closes every connection.
  func stop() {
    // Under the lock: a serving thread forgets its socket (under the lock) before closing
    // it, so no descriptor number is shut down after it was reused.
    state.withLock { state in
      guard !state.stopped else { return }
      state.stopped = true
      _ = shutdown(listener, Int32(SHUT_RDWR))
      for client in state.clients { _ = shutdown(client, Int32(SHUT_RDWR)) }
    }
  }

  /// Whether a socket can be bound to ::1 here.
  static let canBindIPv6Loopback: Bool = {
    guard let bound = try? listen(ipv6: true) else { return false }
    close(bound.fd)
    return true
  }()

  /// An HTTP/1.1 response with `Content-Length`.
  static func response(
    _ status: Int = 200, headers: [(String, String)] = [("Content-Type", "application/json")],
    body: String = "{}"
  ) -> [UInt8] {
    var head = "HTTP/1.1 \(status) Status\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(body.utf8.count)\r\n\r\n"
    return Array((head + body).utf8)
  }

  // MARK: - Serving

  private static func listen(ipv6: Bool) throws -> (fd: Int32, port: Int) {
    #if canImport(Glibc)
      let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var storage = sockaddr_storage()
    var length: socklen_t
    if ipv6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_addr = in6addr_loopback
      length = socklen_t(MemoryLayout<sockaddr_in6>.size)
      withUnsafeBytes(of: &address) { source in
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
      }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      length = socklen_t(MemoryLayout<sockaddr_in>.size)
      withUnsafeBytes(of: &address) { source in
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
      }
    }
    let bound = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0, systemListen(fd, 64) == 0 else {
      close(fd)
      throw POSIXError(.EADDRNOTAVAIL)
    }
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    let port =
      ipv6
      ? withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self).sin6_port }
      : withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self).sin_port }
    return (fd, Int(UInt16(bigEndian: port)))
  }

  private func acceptAll() {
    defer { close(listener) }
    while true {
      let client = accept(listener, nil, nil)
      guard client >= 0 else { return }
      let number = state.withLock { state -> Int? in
        guard !state.stopped else { return nil }
        state.connections += 1
        state.open += 1
        state.mostOpen = max(state.mostOpen, state.open)
        state.clients.append(client)
        return state.connections
      }
      guard let number else {
        close(client)
        return
      }
      Thread.detachNewThread { [self] in serve(client, connection: number) }
    }
  }

  private func serve(_ client: Int32, connection: Int) {
    defer {
      state.withLock { state in
        state.open -= 1
        state.clients.removeAll { $0 == client }
      }
      close(client)
    }
    var pending: [UInt8] = []
    var index = 0
    while var request = readRequest(client, connection: connection, pending: &pending) {
      index += 1
      request.indexOnConnection = index
      state.withLock { $0.requests.append(request) }
      switch respond(request) {
      case .send(let bytes):
        guard writeAll(client, bytes) else { return }
      case .sendAndClose(let bytes):
        _ = writeAll(client, bytes)
        return
      case .close:
        return
      }
    }
  }

  private func readRequest(_ client: Int32, connection: Int, pending: inout [UInt8])
    -> Request?
  {
    let separator = Array("\r\n\r\n".utf8)
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    func fill() -> Bool {
      let count = read(client, &buffer, buffer.count)
      guard count > 0 else { return false }
      pending.append(contentsOf: buffer[0..<count])
      return true
    }
    var headEnd: Int?
    while headEnd == nil {
      headEnd = pending.firstRange(of: separator)?.lowerBound
      if headEnd == nil, !fill() { return nil }
    }
    guard let headEnd else { return nil }
    let head = String(decoding: pending[0..<headEnd], as: UTF8.self)
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst()
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    let length = Int(headers["content-length"] ?? "0") ?? 0
    while pending.count < headEnd + 4 + length {
      if !fill() { return nil }
    }
    let body = Array(pending[(headEnd + 4)..<(headEnd + 4 + length)])
    pending.removeFirst(headEnd + 4 + length)
    return Request(
      connection: connection, indexOnConnection: 0, requestLine: requestLine, headers: headers,
      body: body)
  }

  private func writeAll(_ client: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
      #else
        let flags: Int32 = 0
      #endif
      let count = bytes[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, flags) }
      guard count > 0 else { return false }
      offset += count
    }
    return true
  }
}

// `ScriptedServer.listen(ipv6:)` shadows the C function inside the class.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
  listen(fd, backlog)
}
