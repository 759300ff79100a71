#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a file descriptor is ready for.
struct PollEvent {
  var fd: Int32
  var readable: Bool
  var writable: Bool
  var failed: Bool
}

/// Readiness notification for many file descriptors (poll(), which handles thousands of
/// descriptors on Linux and Darwin alike).
/// Used from the event loop's thread only.
protocol Poller: AnyObject {
  func add(_ fd: Int32, write: Bool) throws
  func modify(_ fd: Int32, write: Bool)
  func remove(_ fd: Int32)
  /// Waits up to `timeoutMilliseconds` (-1 = forever) and returns the ready descriptors.
  func wait(timeoutMilliseconds: Int32) -> [PollEvent]
}

enum PollerFactory {
  static func make() throws -> any Poller {
    PollPoller()
  }
}

/// poll() over every registered descriptor; the portable fallback.
final class PollPoller: Poller {
  private var fds: [pollfd] = []
  private var slots: [Int32: Int] = [:]

  private static func events(write: Bool) -> Int16 {
    Int16(POLLIN) | (write ? Int16(POLLOUT) : 0)
  }

  func add(_ fd: Int32, write: Bool) throws {
    if let slot = slots[fd] {
      fds[slot].events = Self.events(write: write)
      return
    }
    slots[fd] = fds.count
    fds.append(pollfd(fd: fd, events: Self.events(write: write), revents: 0))
  }

  func modify(_ fd: Int32, write: Bool) {
    guard let slot = slots[fd] else { return }
    fds[slot].events = Self.events(write: write)
  }

  func remove(_ fd: Int32) {
    guard let slot = slots.removeValue(forKey: fd) else { return }
    let last = fds.count - 1
    if slot != last {
      fds[slot] = fds[last]
      slots[fds[slot].fd] = slot
    }
    fds.removeLast()
  }

  func wait(timeoutMilliseconds: Int32) -> [PollEvent] {
    let count = fds.withUnsafeMutableBufferPointer {
      poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
    }
    guard count > 0 else { return [] }
    var events: [PollEvent] = []
    events.reserveCapacity(Int(count))
    for entry in fds where entry.revents != 0 {
      let revents = Int32(entry.revents)
      events.append(
        PollEvent(
          fd: entry.fd,
          readable: revents & (Int32(POLLIN) | Int32(POLLHUP)) != 0,
          writable: revents & Int32(POLLOUT) != 0,
          failed: revents & (Int32(POLLERR) | Int32(POLLNVAL)) != 0))
    }
    return events
  }
}
