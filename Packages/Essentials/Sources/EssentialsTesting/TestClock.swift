import Essentials
import Foundation

/// A clock for tests: starts at a fixed instant and moves only when told.
public final class TestClock: Sendable {
  private let instant: Locked<Date>

  /// Starts at `start` (default 2026-01-01T00:00:00Z).
  public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
    instant = Locked(start)
  }

  /// Moves the clock forward.
  public func advance(by seconds: TimeInterval) {
    instant.withLock { $0 += seconds }
  }

  /// The clock to pass into code under test.
  public var clock: AppClock {
    AppClock { [instant] in instant.current }
  }
}

/// Keeps every record in memory so a test can inspect them.
public final class InMemoryLogHandler: LogHandler {
  private let storage = Locked<[LogRecord]>([])

  public init() {}

  public func handle(_ record: LogRecord) {
    storage.withLock { $0.append(record) }
  }

  /// Every record received so far, oldest first.
  public var records: [LogRecord] { storage.current }
}
