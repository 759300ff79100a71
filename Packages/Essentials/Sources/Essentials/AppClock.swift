import Foundation

/// The only source of "now" in the project: production code never calls `Date()` directly.
public struct AppClock: Sendable {
  private let nowProvider: @Sendable () -> Date

  /// A clock that reads `nowProvider` each time it is asked.
  public init(now: @escaping @Sendable () -> Date) {
    self.nowProvider = now
  }

  /// The current instant.
  public func now() -> Date {
    nowProvider()
  }

  /// The system's wall clock.
  public static let system = AppClock { Date() }

  /// Seconds elapsed since `start`, for latency figures.
  public func seconds(since start: Date) -> TimeInterval {
    now().timeIntervalSince(start)
  }
}
