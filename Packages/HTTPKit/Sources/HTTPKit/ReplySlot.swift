import Essentials
import Foundation

/// Where one request's result goes: resumed exactly once, by whoever finishes first — the
/// event loop (a response, an error, the timeout) or the caller's cancellation. The state
/// machine guarantees the single resume, so the cheaper unsafe continuation is enough.
final class ReplySlot: Sendable {
  typealias Reply = Result<HTTPResponse, HTTPTransportError>

  private enum State {
    case waitingForCaller
    case waiting(UnsafeContinuation<Reply, Never>)
    case finishedEarly(Reply)
    case done
  }

  private let state = Locked(State.waitingForCaller)

  /// Hands over the caller's continuation. Returns `false` (and resumes it at once) when the
  /// request was already finished, e.g. cancelled before it could be submitted.
  func install(_ continuation: UnsafeContinuation<Reply, Never>) -> Bool {
    let early = state.withLock { state -> Reply? in
      guard case .finishedEarly(let reply) = state else {
        state = .waiting(continuation)
        return nil
      }
      state = .done
      return reply
    }
    guard let early else { return true }
    continuation.resume(returning: early)
    return false
  }

  /// Delivers `reply` unless one was delivered already; returns whether this one was.
  @discardableResult
  func finish(_ reply: Reply) -> Bool {
    let continuation = state.withLock { state -> UnsafeContinuation<Reply, Never>?? in
      switch state {
      case .waitingForCaller:
        state = .finishedEarly(reply)
        return .some(nil)
      case .waiting(let continuation):
        state = .done
        return .some(continuation)
      case .finishedEarly, .done:
        return nil
      }
    }
    guard let continuation else { return false }
    continuation?.resume(returning: reply)
    return true
  }

  /// Whether a reply has been delivered (or is waiting for the caller).
  var isFinished: Bool {
    state.withLock { state in
      if case .waiting = state { return false }
      if case .waitingForCaller = state { return false }
      return true
    }
  }
}
