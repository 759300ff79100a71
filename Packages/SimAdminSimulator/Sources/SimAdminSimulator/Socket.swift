#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin wrappers over the POSIX socket calls the server needs.
enum Socket {
  /// Result of a non-blocking read or write.
  enum IOResult {
    case bytes(Int)
    case wouldBlock
    case closed
  }

  static func setNonBlocking(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFL, 0)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
  }

  /// Opens a non-blocking listener on 127.0.0.1:`port` (0 = ephemeral) and returns it with
  /// the port actually bound.
  static func listen(port: Int) throws -> (fd: Int32, port: Int) {
    let fd = try bound(port: port)
    try startListening(fd, port: port)
    return (fd, boundPort(fd))
  }

  /// A socket bound to 127.0.0.1:`port` but not listening: connections to it are refused,
  /// yet no other socket can take the port. A device that is "down" holds its port this way,
  /// as a real device keeps its address while its service is stopped.
  static func bound(port: Int) throws -> Int32 {
    #if os(Linux)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else {
      throw SimulatorError.listenFailed(port: port, call: "socket", errno: errno)
    }
    var one: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      let code = errno
      close(fd)
      throw SimulatorError.listenFailed(port: port, call: "bind", errno: code)
    }
    return fd
  }

  /// Turns a bound socket into a non-blocking listener; closes it on failure.
  static func startListening(_ fd: Int32, port: Int) throws {
    guard systemListen(fd, 1024) == 0 else {
      let code = errno
      close(fd)
      throw SimulatorError.listenFailed(port: port, call: "listen", errno: code)
    }
    setNonBlocking(fd)
  }

  /// The port `fd` is bound to.
  static func boundPort(_ fd: Int32) -> Int {
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: actual.sin_port))
  }

  /// Accepts one pending connection, non-blocking, or nil when none is waiting.
  static func accept(_ listener: Int32) -> Int32? {
    let fd = systemAccept(listener)
    guard fd >= 0 else { return nil }
    setNonBlocking(fd)
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    return fd
  }

  static func read(_ fd: Int32, into buffer: inout [UInt8]) -> IOResult {
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count > 0 { return .bytes(count) }
    if count == 0 { return .closed }
    return (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) ? .wouldBlock : .closed
  }

  static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> IOResult {
    #if os(Linux)
      let flags = Int32(MSG_NOSIGNAL)
    #else
      let flags: Int32 = 0
    #endif
    let count = send(fd, bytes.baseAddress, bytes.count, flags)
    if count >= 0 { return .bytes(count) }
    return (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) ? .wouldBlock : .closed
  }

  /// Closes so that the peer sees a reset rather than an orderly end.
  static func resetAndClose(_ fd: Int32) {
    var option = linger(l_onoff: 1, l_linger: 0)
    _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    close(fd)
  }

  /// Raises the soft open-files limit to the hard limit (1,000 devices need many sockets).
  static func raiseOpenFileLimit() {
    var limits = rlimit()
    #if os(Linux)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limits) == 0, limits.rlim_cur < limits.rlim_max else { return }
    var wanted = limits
    wanted.rlim_cur = limits.rlim_max
    #if canImport(Darwin)
      wanted.rlim_cur = min(limits.rlim_max, rlim_t(OPEN_MAX))
    #endif
    _ = setrlimit(resource, &wanted)
  }
}

// The module's own `listen`/`accept` names shadow the C functions inside `Socket`.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
  listen(fd, backlog)
}

private func systemAccept(_ fd: Int32) -> Int32 {
  accept(fd, nil, nil)
}
