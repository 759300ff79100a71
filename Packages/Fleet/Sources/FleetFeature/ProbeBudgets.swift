import Foundation

/// How long each layer of a connection test may take, measured from the start of the probe
/// (every call goes out at once). `--timeout` bounds the whole probe; within it:
///
/// - reachability (`/api/health`): half the timeout, at least 1 s. It is one cheap call; a
///   device that has not said "ok" by then is Offline, sooner than the other layers' limit.
/// - modem (`/api/device`), SIM (`/api/sim`), registration (`/api/network`) and data
///   (`/api/data`): the whole timeout, login and retry included. The auth layer is told by
///   these calls (each passes the device's auth check); a login they wait for that does not
///   answer in time is the auth layer's timeout ("auth not answering after N s").
///   A layer that runs out of time makes the device Degraded, naming the layer
///   ("modem not answering after 5 s"); a device that answered health is never Offline.
/// - extras that feed no status (`/api/stats` for temperature, the latest SMS): the whole
///   timeout; when they run out the status stays, the value shows as unknown with a note.
public struct ProbeBudgets: Sendable, Hashable {
  /// Seconds for `/api/health`.
  public var reachability: TimeInterval
  /// Seconds for every status layer (the auth layer's login included).
  public var layers: TimeInterval
  /// Seconds for the calls that feed no status.
  public var extras: TimeInterval

  /// The budgets within a whole-probe `timeout`.
  public init(timeout: TimeInterval) {
    let total = max(0.001, timeout)
    reachability = min(total, max(1, total / 2))
    layers = total
    extras = total
  }
}
