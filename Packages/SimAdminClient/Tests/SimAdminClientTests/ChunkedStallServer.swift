import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A one-connection loopback server that answers with a chunked body (no `Content-Length`)
/// of `bytes` bytes and then stalls without ever ending it, until the client hangs up.
///
/// The simulator's oversized fault announces its length, so this is how a test shows that
/// the size cap is enforced while bytes arrive: a client that waited for the end of the body
/// before checking its size would only ever see its timeout.
final class ChunkedStallServer: Sendable {
  /// The port on 127.0.0.1.
  let port: Int
  private let listener: Int32
  private let state = Locked<(sent: Int, finished: Bool)>((0, false))

  /// Listens at once; serves one request on a background thread: `bytes` body bytes, then
  /// silence until the client closes (at most 30 s).
  init(bytes: Int) throws {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 4) == 0 else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    listener = fd
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread.detachNewThread { [self] in serve(bytes: bytes) }
  }

  /// Body bytes written so far, and whether the client has hung up (or 30 s passed).
  var progress: (sent: Int, finished: Bool) { state.current }

  private func serve(bytes: Int) {
    defer {
      close(listener)
      state.withLock { $0.finished = true }
    }
    let client = accept(listener, nil, nil)
    guard client >= 0 else { return }
    defer { close(client) }
    var request: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !request.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
      let count = read(client, &buffer, buffer.count)
      guard count > 0 else { return }
      request.append(contentsOf: buffer[0..<count])
    }
    let head =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
      + "Transfer-Encoding: chunked\r\n\r\n"
    guard write(client, head, head.utf8.count) > 0 else { return }
    let payload = [UInt8](repeating: UInt8(ascii: " "), count: 16 * 1024)
    let chunk = Array("4000\r\n".utf8) + payload + Array("\r\n".utf8)
    while state.current.sent < bytes {
      #if os(Linux)
        let written = send(client, chunk, chunk.count, Int32(MSG_NOSIGNAL))
      #else
        let written = send(client, chunk, chunk.count, 0)
      #endif
      guard written == chunk.count else { return }
      state.withLock { $0.sent += payload.count }
    }
    var hangup = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
    while poll(&hangup, 1, 30_000) > 0 {
      guard read(client, &buffer, buffer.count) > 0 else { return }
    }
  }
}
