#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A system call that failed, with its `errno`.
public struct SystemCallFailure: Error, Sendable, Hashable {
  /// The call (`socket`, `bind`, `listen`, `epoll_create1`, `pipe` …).
  public var call: String
  /// Its `errno`.
  public var code: Int32

  /// A failure of `call` with `code`.
  public init(call: String, code: Int32) {
    self.call = call
    self.code = code
  }
}

/// The POSIX calls a server needs besides reading and writing (``SocketCalls``): listeners on
/// 127.0.0.1 and accepting.
enum ServerSockets {
  /// Makes `fd` non-blocking and close-on-exec.
  static func setNonBlocking(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFL, 0)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
  }

  /// Opens a non-blocking listener on 127.0.0.1:`port` (0 = ephemeral) and returns it with
  /// the port actually bound.
  static func listen(port: Int) throws(SystemCallFailure) -> (fd: Int32, port: Int) {
    let fd = try bound(port: port)
    try startListening(fd)
    return (fd, boundPort(fd))
  }

  /// A socket bound to 127.0.0.1:`port` but not listening: connections to it are refused,
  /// yet no other socket can take the port. A simulated device that is "down" holds its port
  /// this way, as a real device keeps its address while its service is stopped.
  static func bound(port: Int) throws(SystemCallFailure) -> Int32 {
    #if os(Linux)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw SystemCallFailure(call: "socket", code: errno) }
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
      throw SystemCallFailure(call: "bind", code: code)
    }
    return fd
  }

  /// Turns a bound socket into a non-blocking listener; closes it on failure.
  static func startListening(_ fd: Int32) throws(SystemCallFailure) {
    guard systemListen(fd, 1024) == 0 else {
      let code = errno
      close(fd)
      throw SystemCallFailure(call: "listen", code: code)
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

  /// Raises the soft open-files limit to the hard limit (1,000 simulated devices need many
  /// sockets).
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

// The enum's own `listen`/`accept` names shadow the C functions inside `ServerSockets`.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
  listen(fd, backlog)
}

private func systemAccept(_ fd: Int32) -> Int32 {
  accept(fd, nil, nil)
}
