#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Nanoseconds on the monotonic clock, for deadlines that wall-clock changes cannot move.
enum MonotonicClock {
  /// Now.
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// `seconds` from now, saturating (a huge timeout means "practically never").
  static func deadline(after seconds: Double) -> UInt64 {
    let clamped = min(max(0, seconds.isNaN ? 0 : seconds), 1_000_000_000)
    return now() &+ UInt64(clamped * 1_000_000_000)
  }
}
