#if os(Linux)
  internal import CEpoll
  import Glibc
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The descriptors an event loop waits on, kept from one wait to the next (issue 19): epoll on
/// Linux, where the kernel holds the set and a wait costs what is ready rather than what is
/// watched; elsewhere one `poll()` set changed in place. Each descriptor carries the loop's
/// token for it and the `poll` events it waits for (`POLLIN`, `POLLOUT`); a descriptor waiting
/// for nothing is not watched.
///
/// Level-triggered on both, so the loops behave as they did with `poll()`. Used from one
/// thread, the loop's. Stop watching a descriptor before closing it: a number the kernel
/// hands out again must not inherit the old registration.
public final class ReadinessSet {
  /// A descriptor that is ready.
  public struct Event: Sendable, Hashable {
    /// The token the descriptor was watched with.
    public var token: UInt64
    /// The descriptor.
    public var fd: Int32
    /// What happened, as `poll()` flags (`POLLIN`, `POLLOUT`, `POLLERR`, `POLLHUP`, `POLLNVAL`).
    public var revents: Int16

    /// Data (or the peer's close) can be read.
    public var readable: Bool { revents & (Int16(POLLIN) | Int16(POLLHUP)) != 0 }
    /// Data can be written.
    public var writable: Bool { revents & Int16(POLLOUT) != 0 }
    /// The socket failed (or the descriptor is not open).
    public var failed: Bool { revents & (Int16(POLLERR) | Int16(POLLNVAL)) != 0 }
  }

  /// A system call that failed while making or changing the set (`epoll_create1`,
  /// `epoll_ctl`).
  public typealias Failure = SystemCallFailure

  /// Every watched descriptor: its token and the events it waits for.
  private var watched: [Int32: (token: UInt64, events: Int16)] = [:]

  #if os(Linux)
    private let epollFD: Int32
    private var received: [epoll_event] = Array(repeating: epoll_event(), count: 256)
  #else
    private var entries: [pollfd] = []
    private var tokens: [UInt64] = []
    private var slots: [Int32: Int] = [:]
  #endif

  /// An empty set.
  public init() throws(Failure) {
    #if os(Linux)
      epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
      guard epollFD >= 0 else { throw Failure(call: "epoll_create1", code: errno) }
    #endif
  }

  deinit {
    #if os(Linux)
      close(epollFD)
    #endif
  }

  /// How many descriptors are watched.
  public var count: Int { watched.count }

  /// Watches `fd` for `events` (`POLLIN`, `POLLOUT` or both) under `token`; `events` 0 stops
  /// watching it. Nothing changes (no system call) when it is already watched so.
  public func watch(_ fd: Int32, token: UInt64, events: Int16) throws(Failure) {
    guard events != 0 else { return unwatch(fd) }
    let old = watched[fd]
    if let old, old.token == token, old.events == events { return }
    #if os(Linux)
      var event = epoll_event()
      event.events = Self.epollMask(events)
      event.data.u64 = UInt64(UInt32(bitPattern: fd))
      let operation = old == nil ? EPOLL_CTL_ADD : EPOLL_CTL_MOD
      guard epoll_ctl(epollFD, operation, fd, &event) == 0 else {
        throw Failure(call: "epoll_ctl", code: errno)
      }
    #else
      if let slot = slots[fd] {
        entries[slot].events = events
        tokens[slot] = token
      } else {
        slots[fd] = entries.count
        entries.append(pollfd(fd: fd, events: events, revents: 0))
        tokens.append(token)
      }
    #endif
    watched[fd] = (token, events)
  }

  /// Stops watching `fd` (nothing when it is not watched).
  public func unwatch(_ fd: Int32) {
    guard watched.removeValue(forKey: fd) != nil else { return }
    #if os(Linux)
      var event = epoll_event()
      _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, &event)
    #else
      guard let slot = slots.removeValue(forKey: fd) else { return }
      let last = entries.count - 1
      if slot != last {
        entries[slot] = entries[last]
        tokens[slot] = tokens[last]
        slots[entries[slot].fd] = slot
      }
      entries.removeLast()
      tokens.removeLast()
    #endif
  }

  /// Waits up to `timeoutMilliseconds` (-1: until something is ready) and puts the ready
  /// descriptors into `ready` (emptied first). An interrupted wait returns nothing.
  public func wait(timeoutMilliseconds: Int32, into ready: inout [Event]) {
    ready.removeAll(keepingCapacity: true)
    #if os(Linux)
      let count = received.withUnsafeMutableBufferPointer {
        epoll_wait(epollFD, $0.baseAddress, Int32($0.count), timeoutMilliseconds)
      }
      guard count > 0 else { return }
      for index in 0..<Int(count) {
        let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: received[index].data.u64))
        guard let entry = watched[fd] else { continue }
        ready.append(
          Event(token: entry.token, fd: fd, revents: Self.pollFlags(received[index].events)))
      }
      // A full buffer: more may be waiting; let the next wait see them with a larger one.
      if Int(count) == received.count, received.count < 65_536 {
        received.append(contentsOf: repeatElement(epoll_event(), count: received.count))
      }
    #else
      let count = entries.withUnsafeMutableBufferPointer {
        poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
      }
      guard count > 0 else { return }
      for index in entries.indices where entries[index].revents != 0 {
        ready.append(
          Event(token: tokens[index], fd: entries[index].fd, revents: entries[index].revents))
      }
    #endif
  }

  #if os(Linux)
    /// `poll` events as epoll's (the same bits on Linux, spelled out).
    private static func epollMask(_ events: Int16) -> UInt32 {
      var mask: UInt32 = 0
      if events & Int16(POLLIN) != 0 { mask |= EPOLLIN.rawValue }
      if events & Int16(POLLOUT) != 0 { mask |= EPOLLOUT.rawValue }
      return mask
    }

    /// epoll's events as `poll` flags.
    private static func pollFlags(_ events: UInt32) -> Int16 {
      var flags: Int16 = 0
      if events & EPOLLIN.rawValue != 0 { flags |= Int16(POLLIN) }
      if events & EPOLLOUT.rawValue != 0 { flags |= Int16(POLLOUT) }
      if events & EPOLLERR.rawValue != 0 { flags |= Int16(POLLERR) }
      if events & EPOLLHUP.rawValue != 0 { flags |= Int16(POLLHUP) }
      return flags
    }
  #endif
}
