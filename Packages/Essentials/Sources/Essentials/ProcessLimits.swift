import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's open-file limit, and how much concurrency it allows.
public enum ProcessLimits {
  /// Descriptors kept aside for everything that is not a device connection: standard
  /// streams, the database and its WAL and shared memory, the credentials lock, the event
  /// loop, logs, exports — and up to 64 idle keep-alive connections of devices done.
  public static let reservedDescriptors = 112

  /// Raises the soft open-file limit to the hard limit (on macOS at most `OPEN_MAX`); returns
  /// the soft limit in force afterwards.
  @discardableResult
  public static func raiseOpenFileLimit() -> Int {
    var limit = rlimit()
    guard getrlimit(openFilesResource, &limit) == 0 else { return 256 }
    var wanted = limit.rlim_max
    #if canImport(Darwin)
      wanted = min(wanted, rlim_t(OPEN_MAX))
    #endif
    if wanted > limit.rlim_cur {
      var raised = limit
      raised.rlim_cur = wanted
      if setrlimit(openFilesResource, &raised) == 0 { limit = raised }
    }
    return clamp(limit.rlim_cur)
  }

  /// The soft open-file limit now.
  public static var openFileLimit: Int {
    var limit = rlimit()
    guard getrlimit(openFilesResource, &limit) == 0 else { return 256 }
    return clamp(limit.rlim_cur)
  }

  /// How many tasks needing `descriptorsEach` descriptors may run at once under `limit`:
  /// `requested`, or fewer when the limit does not allow it (at least 1).
  public static func concurrency(
    _ requested: Int, descriptorsEach: Int, limit: Int = openFileLimit
  ) -> Int {
    let available = max(0, limit - reservedDescriptors)
    return max(1, min(requested, available / max(1, descriptorsEach)))
  }

  private static func clamp(_ value: rlim_t) -> Int {
    value >= rlim_t(Int32.max) ? Int(Int32.max) : Int(value)
  }
}

#if canImport(Glibc)
  private let openFilesResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
  private let openFilesResource = RLIMIT_NOFILE
#endif
