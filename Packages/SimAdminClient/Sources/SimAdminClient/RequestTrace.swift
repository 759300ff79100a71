import Essentials
import Foundation

/// Collects the device requests made inside ``record(_:)`` (by every session, in child tasks
/// too), so a connection test can keep the requests it made in the connection log.
public final class RequestTrace: Sendable {
  @TaskLocal static var current: RequestTrace?

  private let collected = Locked<[DeviceRequest]>([])

  /// An empty trace.
  public init() {}

  /// The requests recorded so far, in the order they ended.
  public var requests: [DeviceRequest] { collected.withLock { $0 } }

  /// Runs `body` with this trace collecting every device request made in it.
  public func record<T: Sendable>(_ body: () async -> T) async -> T {
    await Self.$current.withValue(self) { await body() }
  }

  static func note(_ request: DeviceRequest) {
    current?.collected.withLock { $0.append(request) }
  }
}
