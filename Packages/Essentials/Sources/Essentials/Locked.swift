import Foundation

/// A value guarded by a lock, for the few places that share mutable state across tasks.
///
/// `Synchronization.Mutex` needs iOS 18; this works back to iOS 16.
public final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  /// Wraps an initial value.
  public init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value and returns its result.
  @discardableResult
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  /// A copy of the current value.
  public var current: Value {
    withLock { $0 }
  }
}
