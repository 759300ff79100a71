import Foundation

/// One request on its way through the event loop: what to send where, by when, and where
/// the answer goes.
///
/// The request fields never change; the rest is touched only on the loop's thread, which is
/// what makes the unchecked `Sendable` sound.
final class Exchange: @unchecked Sendable {
  /// Where it goes (the pool it waits in).
  let origin: Origin
  /// The method (only a `GET` is ever sent twice).
  let method: HTTPMethod
  /// The encoded request.
  let bytes: [UInt8]
  /// When it times out, on the monotonic clock (nanoseconds).
  let deadline: UInt64
  /// The largest body accepted.
  let limit: Int
  /// The caller's side.
  let reply = ReplySlot()

  /// Whether it was already sent again on a fresh connection after a stale pooled one failed.
  var wasRetried = false
  /// Whether it has been answered (on the loop's side).
  var isDone = false

  init(origin: Origin, method: HTTPMethod, bytes: [UInt8], deadline: UInt64, limit: Int) {
    self.origin = origin
    self.method = method
    self.bytes = bytes
    self.deadline = deadline
    self.limit = limit
  }

  /// Whether a stale pooled connection may be replaced by a fresh one for it, once.
  var mayRetry: Bool { method == .get && !wasRetried }
}
