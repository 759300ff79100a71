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
  public typealias Executor = AppEffectRunner.Executor

  let context: ConsoleContext
  let environment: AppEnvironment
  let refreshInterval: TimeInterval?
  let runner: AppEffectRunner

  /// A runtime for the registry's features in `environment`.
  public init(
    context: ConsoleContext, environment: AppEnvironment, refreshInterval: TimeInterval?,
    maxConcurrentRuns: Int = 16, execute: @escaping Executor
  ) {
    self.context = context
    self.environment = environment
    self.refreshInterval = refreshInterval
    self.runner = AppEffectRunner(
      registry: context.registry, environment: environment,
      maxConcurrentRuns: maxConcurrentRuns, execute: execute)
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
        guard let bytes = terminal.readBytes() else {
          continuation.yield(.terminalGone)
          return
        }
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
    // A watch (`w`) counts seconds; nothing else runs on it.
    let heartbeat = Task {
      while !Task.isCancelled {
        try? await Task.sleep(nanoseconds: 1_000_000_000)
        if !Task.isCancelled { continuation.yield(.heartbeat) }
      }
    }
    defer {
      stop.withLock { $0 = true }
      ticker?.cancel()
      heartbeat.cancel()
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
      // Nothing to restore on a terminal that is gone, and nothing more to draw.
      if message == .terminalGone { terminal.abandon() }
      let effects = ConsoleUpdate.update(&state, message, context: context)
      if effects.contains(.quit) || state.shouldQuit { break }
      perform(effects, &loads, continuation)
      if let copied = state.clipboard {
        // Only on the user's `c`, and never inside a frame.
        state.clipboard = nil
        terminal.copyToClipboard(copied)
      }
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
    runner.perform(
      effects, &loads,
      loaded: { continuation.yield(.loaded(path: $0, view: $1, at: $2)) },
      finished: { continuation.yield(.finished(batch: $0, affected: $1, outcome: $2)) })
  }

  func watchSignals(
    terminal: TerminalSession, continuation: AsyncStream<ConsoleMessage>.Continuation
  ) -> [any DispatchSourceSignal] {
    var sources: [any DispatchSourceSignal] = []
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber)
      let message: ConsoleMessage = signalNumber == SIGHUP ? .terminalGone : .stop
      source.setEventHandler { continuation.yield(message) }
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
