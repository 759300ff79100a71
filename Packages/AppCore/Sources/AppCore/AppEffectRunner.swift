import Essentials
import FeatureKit
import Foundation
import ViewKit

/// Performs the update's effects for a shell: each load and each run is a task of its own
/// that reports back through the shell's callbacks, so a device that hangs only keeps its own
/// row pending. At most one load per path runs at a time; commands are bounded in number.
public final class AppEffectRunner: Sendable {
  /// Runs one command line in-process and says how it ended.
  public typealias Executor = @Sendable ([String]) async -> ActionOutcome

  let registry: FeatureRegistry
  let environment: AppEnvironment
  let execute: Executor
  let limiter: RunLimiter

  /// A runner for the registry's routes in `environment`, running commands with `execute`.
  public init(
    registry: FeatureRegistry, environment: AppEnvironment, maxConcurrentRuns: Int = 16,
    execute: @escaping Executor
  ) {
    self.registry = registry
    self.environment = environment
    self.execute = execute
    self.limiter = RunLimiter(width: maxConcurrentRuns)
  }

  /// Starts `effects` (`.quit` is the shell's own business), reporting each finished load to
  /// `loaded` and each finished run to `finished`.
  public func perform(
    _ effects: [AppEffect], _ loads: inout LoadTracker,
    loaded: @escaping @Sendable (String, ViewNode, Date) -> Void,
    finished: @escaping @Sendable (Int, [String], ActionOutcome) -> Void
  ) {
    for effect in effects {
      switch effect {
      case .load(let path, let search, let flags):
        guard loads.begin(path, search: search, flags: flags) else { continue }
        let environment = self.environment
        let registry = self.registry
        Task {
          let view = await Self.render(
            path, search: search, flags: flags, registry: registry, environment: environment)
          loaded(path, view, environment.clock.now())
        }
      case .run(let arguments, let affected, let batch):
        let execute = self.execute
        let limiter = self.limiter
        Task {
          await limiter.acquire()
          let outcome = await execute(arguments)
          await limiter.release()
          finished(batch, affected, outcome)
        }
      case .quit:
        break
      }
    }
  }

  /// The view of the route at `path`; an error state when this build has no such route.
  public static func render(
    _ path: String, search: String?, flags: Set<String>, registry: FeatureRegistry,
    environment: AppEnvironment
  ) async -> ViewNode {
    guard let match = registry.route(for: path) else {
      return .error(ErrorState(title: path, message: "—"))
    }
    return await match.route.render(
      RouteRequest(
        path: path, parameters: match.parameters, environment: environment, search: search,
        flags: flags))
  }
}

/// One load per path at a time; a reload asked for meanwhile runs once the first ends.
public struct LoadTracker: Sendable {
  public struct Request: Sendable {
    public var search: String?
    public var flags: Set<String>
  }

  /// Nothing loading.
  public init() {}

  private var inFlight: [String: Request] = [:]
  private var again: [String: Request] = [:]

  /// Whether to start loading `path` now (false: it will run again when the current ends).
  public mutating func begin(_ path: String, search: String?, flags: Set<String>) -> Bool {
    guard inFlight[path] == nil else {
      again[path] = Request(search: search, flags: flags)
      return false
    }
    inFlight[path] = Request(search: search, flags: flags)
    return true
  }

  /// Marks `path` done; true when another load of it was asked for meanwhile.
  public mutating func finish(_ path: String) -> Bool {
    inFlight[path] = nil
    return again[path] != nil
  }

  /// The queued reload of `path`, consuming it.
  public mutating func queued(for path: String) -> Request {
    defer { again[path] = nil }
    return again[path] ?? Request(search: nil, flags: [])
  }
}

/// Bounds how many commands run at once.
public actor RunLimiter {
  private let width: Int
  private var running = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []

  public init(width: Int) {
    self.width = max(1, width)
  }

  public func acquire() async {
    if running < width {
      running += 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  public func release() {
    if waiting.isEmpty {
      running -= 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}
