import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An IPv4 or IPv6 socket address to connect to.
struct SocketAddress: @unchecked Sendable {
  // `@unchecked`: `sockaddr_storage` is plain bytes, copied by value.
  /// The address bytes (`sockaddr_in` or `sockaddr_in6`).
  var storage = sockaddr_storage()
  /// How many bytes of `storage` are used.
  var length: socklen_t = 0

  /// `AF_INET` or `AF_INET6`.
  var family: Int32 { Int32(storage.ss_family) }

  /// The address of a numeric IPv4 or IPv6 literal, or `nil` for a host name.
  init?(numericHost host: String, port: Int) {
    var address4 = sockaddr_in()
    if inet_pton(AF_INET, host, &address4.sin_addr) == 1 {
      address4.sin_family = sa_family_t(AF_INET)
      address4.sin_port = in_port_t(UInt16(port).bigEndian)
      #if canImport(Darwin)
        address4.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
      #endif
      self.init(copying: &address4)
      return
    }
    var address6 = sockaddr_in6()
    if inet_pton(AF_INET6, host, &address6.sin6_addr) == 1 {
      address6.sin6_family = sa_family_t(AF_INET6)
      address6.sin6_port = in_port_t(UInt16(port).bigEndian)
      #if canImport(Darwin)
        address6.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
      #endif
      self.init(copying: &address6)
      return
    }
    return nil
  }

  private init<Address>(copying address: inout Address) {
    let size = MemoryLayout<Address>.size
    withUnsafeMutableBytes(of: &storage) { target in
      withUnsafeBytes(of: &address) { target.copyMemory(from: $0) }
    }
    length = socklen_t(size)
  }

  private init(raw: UnsafePointer<sockaddr>, length: socklen_t) {
    let count = min(Int(length), MemoryLayout<sockaddr_storage>.size)
    withUnsafeMutableBytes(of: &storage) { target in
      target.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: count))
    }
    self.length = socklen_t(count)
  }

  /// Runs `body` with the address as a `sockaddr` pointer and its length.
  func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
    withUnsafePointer(to: storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
    }
  }

  // MARK: - Resolving

  /// The addresses of `host` (a literal needs no lookup), or `.dns` when it does not resolve.
  ///
  /// Names are looked up with `getaddrinfo` on a global queue, never on the caller's thread;
  /// `completion` runs there.
  static func resolve(
    host: String, port: Int,
    completion: @escaping @Sendable (Result<[SocketAddress], HTTPTransportError>) -> Void
  ) {
    DispatchQueue.global().async {
      completion(lookUp(host: host, port: port))
    }
  }

  /// Blocking `getaddrinfo`: IPv4 and IPv6 stream addresses, in the resolver's order.
  static func lookUp(host: String, port: Int) -> Result<[SocketAddress], HTTPTransportError> {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if os(Linux)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      // Out of memory or descriptors while resolving is this computer's failure.
      if status == EAI_MEMORY { return .failure(.localResource(SocketCalls.text(ENOMEM))) }
      if status == EAI_SYSTEM, [EMFILE, ENFILE, ENOMEM].contains(errno) {
        return .failure(.localResource(SocketCalls.text(errno)))
      }
      return .failure(.unreachable(.dns))
    }
    defer { freeaddrinfo(first) }
    var addresses: [SocketAddress] = []
    var cursor: UnsafeMutablePointer<addrinfo>? = first
    while let entry = cursor {
      if let raw = entry.pointee.ai_addr,
        entry.pointee.ai_family == AF_INET || entry.pointee.ai_family == AF_INET6
      {
        addresses.append(SocketAddress(raw: raw, length: entry.pointee.ai_addrlen))
      }
      cursor = entry.pointee.ai_next
    }
    return addresses.isEmpty ? .failure(.unreachable(.dns)) : .success(addresses)
  }
}
