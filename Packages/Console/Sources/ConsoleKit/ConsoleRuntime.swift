import Dispatch
import Essentials
import FeatureKit
import Foundation
import ViewKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the console: feeds key presses, resizes, finished loads and finished commands into
/// ``ConsoleUpdate``, performs its effects as tasks, and draws every new state.
///
/// Loads and commands run concurrently and report back as messages, so a device that hangs
/// only keeps its own row pending; the keyboard is always served.
public final class ConsoleRuntime: Sendable {
  /// Runs one command line in-process and says how it ended.
  public typealias Executor = @Sendable ([String]) async -> ActionOutcome

  let context: ConsoleContext
  let environment: AppEnvironment
  let execute: Executor
  let refreshInterval: TimeInterval?
  let limiter: RunLimiter

  /// A runtime for the registry's features in `environment`.
  public init(
    context: ConsoleContext, environment: AppEnvironment, refreshInterval: TimeInterval?,
    maxConcurrentRuns: Int = 16, execute: @escaping Executor
  ) {
    self.context = context
    self.environment = environment
    self.execute = execute
    self.refreshInterval = refreshInterval
    self.limiter = RunLimiter(width: maxConcurrentRuns)
  }

  /// Takes over the terminal until the user quits or a signal asks to stop; the terminal is
  /// restored on every way out.
  public func run(terminal: TerminalSession) async throws {
    try terminal.enter()
    defer { terminal.leave() }

    let (messages, continuation) = AsyncStream.makeStream(of: ConsoleMessage.self)
    let stop = Locked(false)
    let reader = Thread {
      var decoder = KeyDecoder()
      while !stop.current {
        let bytes = terminal.readBytes()
        for key in decoder.feed(bytes) { continuation.yield(.key(key)) }
      }
    }
    reader.start()
    let signals = watchSignals(terminal: terminal, continuation: continuation)
    let ticker = refreshInterval.map { interval in
      Task {
        while !Task.isCancelled {
          try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
          if !Task.isCancelled { continuation.yield(.tick) }
        }
      }
    }
    defer {
      stop.withLock { $0 = true }
      ticker?.cancel()
      signals.forEach { $0.cancel() }
      continuation.finish()
    }

    let size = terminal.size()
    var state = ConsoleState(
      tabs: ConsoleState.tabs(of: context.registry, language: context.language),
      width: size.width, height: size.height)
    var loads = LoadTracker()
    perform(ConsoleUpdate.start(state), &loads, continuation)
    var lastFrame = ""
    draw(state, terminal: terminal, lastFrame: &lastFrame)

    for await message in messages {
      if case .loaded(let path, _, _) = message, loads.finish(path) {
        let again = loads.queued(for: path)
        perform(
          [.load(path: path, search: again.search, flags: again.flags)], &loads, continuation)
      }
      let effects = ConsoleUpdate.update(&state, message, context: context)
      if effects.contains(.quit) || state.shouldQuit { break }
      perform(effects, &loads, continuation)
      draw(state, terminal: terminal, lastFrame: &lastFrame)
    }
  }

  func draw(_ state: ConsoleState, terminal: TerminalSession, lastFrame: inout String) {
    let frame = ConsoleRenderer.render(
      state, context: context, colorMode: environment.output.colorMode, theme: environment.theme)
    guard frame != lastFrame else { return }
    lastFrame = frame
    terminal.draw(frame)
  }

  func perform(
    _ effects: [ConsoleEffect], _ loads: inout LoadTracker,
    _ continuation: AsyncStream<ConsoleMessage>.Continuation
  ) {
    for effect in effects {
      switch effect {
      case .load(let path, let search, let flags):
        guard loads.begin(path, search: search, flags: flags) else { continue }
        let environment = self.environment
        let registry = context.registry
        let clock = environment.clock
        Task {
          let view: ViewNode
          if let match = registry.route(for: path) {
            view = await match.route.render(
              RouteRequest(
                path: path, parameters: match.parameters, environment: environment, search: search,
                flags: flags))
          } else {
            view = .error(ErrorState(title: path, message: "—"))
          }
          continuation.yield(.loaded(path: path, view: view, at: clock.now()))
        }
      case .run(let arguments, let affected, let batch):
        let execute = self.execute
        let limiter = self.limiter
        Task {
          await limiter.acquire()
          let outcome = await execute(arguments)
          await limiter.release()
          continuation.yield(.finished(batch: batch, affected: affected, outcome: outcome))
        }
      case .quit:
        break
      }
    }
  }

  func watchSignals(
    terminal: TerminalSession, continuation: AsyncStream<ConsoleMessage>.Continuation
  ) -> [any DispatchSourceSignal] {
    var sources: [any DispatchSourceSignal] = []
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber)
      source.setEventHandler { continuation.yield(.key(.control("c"))) }
      source.resume()
      sources.append(source)
    }
    signal(SIGWINCH, SIG_IGN)
    let resize = DispatchSource.makeSignalSource(signal: SIGWINCH)
    resize.setEventHandler {
      let size = terminal.size()
      continuation.yield(.resized(width: size.width, height: size.height))
    }
    resize.resume()
    sources.append(resize)
    return sources
  }
}

/// One load per path at a time; a reload asked for meanwhile runs once the first ends.
struct LoadTracker {
  struct Request {
    var search: String?
    var flags: Set<String>
  }

  private var inFlight: [String: Request] = [:]
  private var again: [String: Request] = [:]

  /// Whether to start loading `path` now (false: it will run again when the current ends).
  mutating func begin(_ path: String, search: String?, flags: Set<String>) -> Bool {
    guard inFlight[path] == nil else {
      again[path] = Request(search: search, flags: flags)
      return false
    }
    inFlight[path] = Request(search: search, flags: flags)
    return true
  }

  /// Marks `path` done; true when another load of it was asked for meanwhile.
  mutating func finish(_ path: String) -> Bool {
    inFlight[path] = nil
    return again[path] != nil
  }

  /// The queued reload of `path`, consuming it.
  mutating func queued(for path: String) -> Request {
    defer { again[path] = nil }
    return again[path] ?? Request(search: nil, flags: [])
  }
}

/// Bounds how many commands run at once.
actor RunLimiter {
  private let width: Int
  private var running = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(width: Int) {
    self.width = max(1, width)
  }

  func acquire() async {
    if running < width {
      running += 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  func release() {
    if waiting.isEmpty {
      running -= 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}
