import Dispatch
import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The thread of an ``HTTPServer``: it waits on many sockets and timers and runs their
/// callbacks. The sockets are kept in one ``ReadinessSet`` (epoll on Linux): with a thousand
/// simulated devices' connections open, `poll()` over all of them at every turn took about a
/// third of the simulator's CPU (issue 19).
///
/// Everything but ``execute(_:)``, ``run(_:)`` and ``shutdown(_:)`` must be called on the
/// loop's own thread (or before ``start()``); that is what makes the unchecked `Sendable`
/// sound.
public final class ServerEventLoop: @unchecked Sendable {
  typealias Handler = (ReadinessSet.Event) -> Void

  private let readiness: ReadinessSet
  /// Each watched descriptor's handler, with the token it was registered under: an event
  /// read in the same wait as the close of its descriptor never reaches a newer handler of
  /// the same number.
  private var handlers: [Int32: (token: UInt64, handler: Handler)] = [:]
  private var nextToken: UInt64 = 1
  private var ready: [ReadinessSet.Event] = []
  private var timers = TimerHeap()
  private var nextTimerSequence: UInt64 = 0
  private var running = true
  private let queue = Locked<(tasks: [@Sendable () -> Void], stopped: Bool)>(([], false))
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let finished = DispatchSemaphore(value: 0)

  /// A loop whose thread has not started yet.
  public init() throws(SystemCallFailure) {
    readiness = try ReadinessSet()
    var pipeFDs: [Int32] = [0, 0]
    guard pipe(&pipeFDs) == 0 else { throw SystemCallFailure(call: "pipe", code: errno) }
    wakeRead = pipeFDs[0]
    wakeWrite = pipeFDs[1]
    ServerSockets.setNonBlocking(wakeRead)
    ServerSockets.setNonBlocking(wakeWrite)
    try Self.watch(readiness, wakeRead, token: 0, write: false)
  }

  /// Starts the loop's thread.
  public func start() {
    let thread = Thread { [self] in self.loop() }
    thread.name = "HTTPKit.ServerEventLoop"
    thread.stackSize = 1 << 20
    thread.start()
  }

  // MARK: - Cross-thread entry points

  /// Runs `task` on the loop thread soon. Returns false when the loop has stopped.
  @discardableResult
  public func execute(_ task: @escaping @Sendable () -> Void) -> Bool {
    let accepted = queue.withLock { state -> Bool in
      guard !state.stopped else { return false }
      state.tasks.append(task)
      return true
    }
    if accepted { wake() }
    return accepted
  }

  /// Runs `body` on the loop thread and blocks the caller until it is done.
  /// Returns nil when the loop has stopped.
  public func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let accepted = execute {
      result.withLock { $0 = body() }
      done.signal()
    }
    guard accepted else { return nil }
    done.wait()
    return result.current
  }

  /// Stops the loop after running `finalTask` on it; waits until the thread has ended.
  public func shutdown(_ finalTask: @escaping @Sendable () -> Void) {
    let accepted = execute { [self] in
      finalTask()
      running = false
    }
    guard accepted else { return }
    queue.withLock { $0.stopped = true }
    finished.wait()
  }

  private func wake() {
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }

  // MARK: - Loop-thread API

  /// Watches `fd` for reading (and writing when `write`).
  func register(_ fd: Int32, write: Bool = false, handler: @escaping Handler)
    throws(SystemCallFailure)
  {
    let token = nextToken
    nextToken += 1
    try Self.watch(readiness, fd, token: token, write: write)
    handlers[fd] = (token, handler)
  }

  /// Turns write-readiness notifications on or off.
  func setWriteInterest(_ fd: Int32, _ write: Bool) {
    guard let token = handlers[fd]?.token else { return }
    // A descriptor the kernel refuses to change stays as it was: its reads still come.
    try? Self.watch(readiness, fd, token: token, write: write)
  }

  /// Stops watching `fd` (the caller closes it).
  func unregister(_ fd: Int32) {
    guard handlers.removeValue(forKey: fd) != nil else { return }
    readiness.unwatch(fd)
  }

  private static func watch(_ set: ReadinessSet, _ fd: Int32, token: UInt64, write: Bool)
    throws(SystemCallFailure)
  {
    try set.watch(fd, token: token, events: Int16(POLLIN) | (write ? Int16(POLLOUT) : 0))
  }

  /// Runs `action` on the loop after `seconds`. Loop thread (or before ``start()``).
  public func schedule(after seconds: Double, _ action: @escaping () -> Void) {
    let delay = UInt64(max(0, seconds) * 1_000_000_000)
    nextTimerSequence += 1
    timers.push(
      ScheduledTimer(
        deadline: DispatchTime.now().uptimeNanoseconds + delay, sequence: nextTimerSequence,
        action: action))
  }

  // MARK: - The loop

  private func loop() {
    while running {
      let timeout: Int32
      if let next = timers.peek?.deadline {
        let now = DispatchTime.now().uptimeNanoseconds
        timeout = next <= now ? 0 : Int32(min((next - now) / 1_000_000 + 1, 1000))
      } else {
        timeout = 1000
      }
      readiness.wait(timeoutMilliseconds: timeout, into: &ready)
      for event in ready {
        if event.token == 0 {
          drainWakePipe()
          continue
        }
        guard let entry = handlers[event.fd], entry.token == event.token else { continue }
        entry.handler(event)
      }
      runTasks()
      runDueTimers()
    }
    runTasks()
    close(wakeRead)
    close(wakeWrite)
    finished.signal()
  }

  private func drainWakePipe() {
    var buffer = [UInt8](repeating: 0, count: 256)
    while read(wakeRead, &buffer, buffer.count) > 0 {}
  }

  private func runTasks() {
    let tasks = queue.withLock { state -> [@Sendable () -> Void] in
      defer { state.tasks.removeAll() }
      return state.tasks
    }
    for task in tasks { task() }
  }

  private func runDueTimers() {
    let now = DispatchTime.now().uptimeNanoseconds
    while let first = timers.peek, first.deadline <= now {
      _ = timers.pop()
      first.action()
    }
  }
}

/// A timer waiting in the loop.
struct ScheduledTimer {
  var deadline: UInt64
  var sequence: UInt64
  var action: () -> Void

  func precedes(_ other: ScheduledTimer) -> Bool {
    (deadline, sequence) < (other.deadline, other.sequence)
  }
}

/// A binary min-heap of timers by deadline (then insertion order).
struct TimerHeap {
  private var items: [ScheduledTimer] = []

  var peek: ScheduledTimer? { items.first }

  mutating func push(_ timer: ScheduledTimer) {
    items.append(timer)
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child].precedes(items[parent]) else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> ScheduledTimer? {
    guard !items.isEmpty else { return nil }
    items.swapAt(0, items.count - 1)
    let top = items.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < items.count, items[left].precedes(items[smallest]) { smallest = left }
      if right < items.count, items[right].precedes(items[smallest]) { smallest = right }
      guard smallest != parent else { break }
      items.swapAt(parent, smallest)
      parent = smallest
    }
    return top
  }
}
