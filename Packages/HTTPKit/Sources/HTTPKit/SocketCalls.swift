import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a non-blocking read or write did.
enum IOResult {
  /// This many bytes moved.
  case bytes(Int)
  /// Nothing to do now; wait until the descriptor is readable (or writable, when
  /// `wantsWrite`, which TLS may ask for even while reading).
  case wouldBlock(wantsWrite: Bool)
  /// The peer ended the stream in order.
  case closed
  /// The stream failed.
  case failed(HTTPTransportError)
}

/// Thin wrappers over the POSIX socket calls the client needs, and what their errors mean.
enum SocketCalls {
  /// A non-blocking, close-on-exec stream socket with `TCP_NODELAY`, or the `errno`.
  static func openStream(family: Int32) -> Result<Int32, HTTPTransportError> {
    #if os(Linux)
      let type =
        Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        | Int32(SOCK_CLOEXEC.rawValue)
      let fd = socket(family, type, 0)
    #else
      let fd = socket(family, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return .failure(connectError(errno)) }
    #if !os(Linux)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      var noSignal: Int32 = 1
      _ = setsockopt(
        fd, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    return .success(fd)
  }

  /// Starts connecting `fd` to `address`: `0` when connected at once, `EINPROGRESS` while
  /// under way, another `errno` on failure.
  static func startConnect(_ fd: Int32, to address: SocketAddress) -> Int32 {
    let result = address.withSockaddr { connect(fd, $0, $1) }
    if result == 0 { return 0 }
    let code = errno
    return code == EINTR ? EINPROGRESS : code
  }

  /// The outcome of a connect that was under way: `0` or its `errno`.
  static func pendingError(_ fd: Int32) -> Int32 {
    var code: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
    return code
  }

  /// Reads what is there into `buffer`.
  static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
    while true {
      let count = recv(fd, buffer.baseAddress, buffer.count, 0)
      if count > 0 { return .bytes(count) }
      if count == 0 { return .closed }
      let code = errno
      if code == EINTR { continue }
      if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock(wantsWrite: false) }
      return .failed(ioError(code))
    }
  }

  /// Writes as much of `bytes` as the socket takes now.
  static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> IOResult {
    #if os(Linux)
      let flags = Int32(MSG_NOSIGNAL)
    #else
      let flags: Int32 = 0
    #endif
    while true {
      let count = send(fd, bytes.baseAddress, bytes.count, flags)
      if count >= 0 { return .bytes(count) }
      let code = errno
      if code == EINTR { continue }
      if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock(wantsWrite: true) }
      return .failed(ioError(code))
    }
  }

  /// Closes `fd` (EINTR is not retried: on Linux the descriptor is gone either way).
  static func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
  }

  /// Writes on a socket whose non-blocking connect is under way: `.wouldBlock` while it is
  /// not connected yet, `.failed` with the connect's error (refused…) when it failed.
  static func writeWhileConnecting(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> IOResult {
    #if os(Linux)
      let flags = Int32(MSG_NOSIGNAL)
    #else
      let flags: Int32 = 0
    #endif
    let count = send(fd, bytes.baseAddress, bytes.count, flags)
    if count >= 0 { return .bytes(count) }
    let code = errno
    if code == EAGAIN || code == EWOULDBLOCK || code == ENOTCONN || code == EINTR {
      return .wouldBlock(wantsWrite: true)
    }
    return .failed(connectError(code))
  }

  /// Makes the coming `close` of `fd` send a reset instead of an orderly end (no TIME_WAIT).
  static func resetOnClose(_ fd: Int32) {
    var option = linger(l_onoff: 1, l_linger: 0)
    _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
  }

  /// Whether an idle connection still looks open: nothing to read, no end of stream.
  static func looksOpen(_ fd: Int32) -> Bool {
    var byte: UInt8 = 0
    let count = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
    return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
  }

  // MARK: - Errors

  /// A failed connect as the reason the device is unreachable.
  static func connectError(_ code: Int32) -> HTTPTransportError {
    switch code {
    case EMFILE, ENFILE, ENOMEM, ENOBUFS: .localResource(text(code))
    case ECONNREFUSED: .unreachable(.refused)
    case ECONNRESET, ECONNABORTED, EPIPE: .unreachable(.reset)
    case ETIMEDOUT: .timeout
    default: .unreachable(.other(text(code)))
    }
  }

  /// A failed read or write on an open connection.
  static func ioError(_ code: Int32) -> HTTPTransportError {
    switch code {
    case EMFILE, ENFILE, ENOMEM, ENOBUFS: .localResource(text(code))
    case ECONNRESET, ECONNABORTED, EPIPE, ENOTCONN, ECONNREFUSED: .unreachable(.reset)
    case ETIMEDOUT: .timeout
    default: .unreachable(.other(text(code)))
    }
  }

  /// The system's text for `code`.
  static func text(_ code: Int32) -> String {
    guard let message = strerror(code) else { return "errno \(code)" }
    return String(cString: message)
  }
}
