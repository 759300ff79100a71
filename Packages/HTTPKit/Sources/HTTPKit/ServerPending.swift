import Essentials
import Foundation

/// A request whose answer comes later (its response carried a
/// ``ServerResponse/deferredToken``): the client waits, over a socket or in memory, until
/// ``answer(_:)`` is called or it gives up. ``HTTPServer/onPending(_:)`` receives it.
///
/// For a request that came over a socket, ``isWaiting`` must be read on the server's loop
/// thread (where the pending handler is expected to keep its queue); ``answer(_:)`` may be
/// called from any thread.
public final class ServerPending: Sendable {
  /// The tag of the listener the request came to (the simulator's device index).
  public let tag: Int
  /// The token the handler put on its response.
  public let token: Int
  private let waiting: @Sendable () -> Bool
  private let answering: @Sendable (ServerResponse) -> Void

  /// A pending answer; `isWaiting` says whether the client is still there, `answer` writes
  /// the response to it.
  public init(
    tag: Int, token: Int, isWaiting: @escaping @Sendable () -> Bool,
    answer: @escaping @Sendable (ServerResponse) -> Void
  ) {
    self.tag = tag
    self.token = token
    waiting = isWaiting
    answering = answer
  }

  /// Whether the client still waits (its connection open, its deadline not passed).
  public var isWaiting: Bool { waiting() }

  /// Answers the client with `response` (nothing when it has left).
  public func answer(_ response: ServerResponse) {
    answering(response)
  }
}

/// A value that belongs to the server's loop thread, carried through a `Sendable` closure
/// that only touches it there.
final class LoopBound<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}

/// An in-memory client waiting for a ``ServerPending`` answer until its deadline.
final class PendingWait: Sendable {
  private enum State {
    case waiting(CheckedContinuation<ServerResponse?, Never>?)
    case answered(ServerResponse)
    case gone
  }

  private let state = Locked<State>(.waiting(nil))
  /// The client's deadline (monotonic nanoseconds): past it the client has left, whether or
  /// not its timer has run yet (on a busy machine the server's thread may get there first).
  private let deadline: UInt64

  init(deadline: UInt64) {
    self.deadline = deadline
  }

  /// Whether the answer is still wanted.
  var isWaiting: Bool {
    guard MonotonicClock.now() < deadline else { return false }
    return state.withLock { state in
      if case .waiting = state { return true }
      return false
    }
  }

  /// Delivers `response`, unless the client has left.
  func answer(_ response: ServerResponse) {
    guard MonotonicClock.now() < deadline else { return leave() }
    let waiter = state.withLock { state -> CheckedContinuation<ServerResponse?, Never>? in
      guard case .waiting(let waiter) = state else { return nil }
      state = waiter == nil ? .answered(response) : .gone
      return waiter
    }
    waiter?.resume(returning: response)
  }

  /// The client leaves: its deadline passed or its task was cancelled.
  func leave() {
    let waiter = state.withLock { state -> CheckedContinuation<ServerResponse?, Never>? in
      guard case .waiting(let waiter) = state else { return nil }
      state = .gone
      return waiter
    }
    waiter?.resume(returning: nil)
  }

  /// Waits for the answer until `deadline` (monotonic nanoseconds): `.timeout` after it,
  /// `.cancelled` when the caller's task is cancelled.
  func response() async throws(HTTPTransportError) -> ServerResponse {
    let now = MonotonicClock.now()
    let left = deadline > now ? deadline - now : 0
    let timer = Task { [self] in
      do {
        try await Task.sleep(nanoseconds: left)
        leave()
      } catch {}
    }
    defer { timer.cancel() }
    let answer = await withTaskCancellationHandler {
      await withCheckedContinuation { (waiter: CheckedContinuation<ServerResponse?, Never>) in
        let ready = state.withLock { state -> ServerResponse?? in
          switch state {
          case .waiting:
            state = .waiting(waiter)
            return nil
          case .answered(let response):
            state = .gone
            return .some(response)
          case .gone:
            return .some(nil)
          }
        }
        if let ready { waiter.resume(returning: ready) }
      }
    } onCancel: {
      leave()
    }
    if let answer { return answer }
    if Task.isCancelled { throw .cancelled }
    throw .timeout
  }
}
