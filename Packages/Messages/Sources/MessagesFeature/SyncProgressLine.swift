import Essentials
import FeatureKit
import Foundation

/// When a sync's status line appears and how often it changes. The app need not register it
/// (the defaults are used); tests register shorter ones.
public struct SyncProgressTiming: Sendable {
  /// How long a sync runs before its status line appears.
  public var delay: TimeInterval
  /// How often the line is redrawn.
  public var interval: TimeInterval

  /// The timing: by default the line appears after 2 seconds and changes 4 times a second.
  public init(delay: TimeInterval = 2, interval: TimeInterval = 0.25) {
    self.delay = max(0, delay)
    self.interval = max(0.02, interval)
  }

  /// The registered timing, else the defaults.
  public static func resolve(_ environment: AppEnvironment) -> SyncProgressTiming {
    (try? environment.services.resolve(SyncProgressTiming.self)) ?? SyncProgressTiming()
  }
}

/// The status line of a long `messages sync` on a terminal (issue 36 point 3): once the sync
/// has run a few seconds, the devices still being read and the rows read from each so far,
/// updated in place on standard error, like `git clone` does. Nothing of it in a pipe, a file
/// or with `--json` (``StandardStreams/writeStatus`` is nil there, or the line is not made).
/// The `[n/N]` lines of finished devices are written above it.
final class SyncProgressLine: Sendable {
  private struct Device {
    var name: String
    var rows: Int
    var finished: Bool
    var order: Int
  }

  private struct State {
    var devices: [String: Device] = [:]
    var shown = ""
    var ended = false
  }

  private let write: @Sendable (String) -> Void
  private let language: AppLanguage
  private let timing: SyncProgressTiming
  private let started = ContinuousClock.now
  private let state = Locked(State())
  private let ticker = Locked<Task<Void, Never>?>(nil)

  /// The line for a sync run in `environment`, or nil where none is shown.
  init?(_ environment: AppEnvironment) {
    guard !environment.output.json, let write = environment.streams.writeStatus else {
      return nil
    }
    self.write = write
    language = environment.language
    timing = SyncProgressTiming.resolve(environment)
    let interval = timing.interval
    ticker.withLock {
      $0 = Task { [weak self] in
        while !Task.isCancelled {
          try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
          self?.redraw()
        }
      }
    }
  }

  /// How far one device's read has got.
  func update(_ reading: MessageSyncer.Reading) {
    state.withLock { state in
      let order = state.devices[reading.instanceID]?.order ?? state.devices.count
      state.devices[reading.instanceID] = Device(
        name: reading.instanceName, rows: reading.rows, finished: reading.finished, order: order)
    }
  }

  /// Runs `write` (whole lines for standard error) with the status line out of the way,
  /// then shows the line again. Every write of the line happens under the same lock, so the
  /// ticker never draws in between.
  func above(_ write: () -> Void) {
    let line = line()
    state.withLock { state in
      if !state.shown.isEmpty { self.write("") }
      write()
      state.shown = state.ended ? "" : line
      if !state.shown.isEmpty { self.write(line) }
    }
  }

  /// Clears the line for good.
  func finish() {
    ticker.withLock {
      $0?.cancel()
      $0 = nil
    }
    state.withLock { state in
      state.ended = true
      if !state.shown.isEmpty { write("") }
      state.shown = ""
    }
  }

  /// The line as it should read now ("" before the delay, or when no read is going on).
  func line() -> String {
    guard ContinuousClock.now - started >= .milliseconds(Int64(timing.delay * 1000)) else {
      return ""
    }
    let reading = state.withLock { state in
      state.devices.values.filter { !$0.finished }.sorted { $0.order < $1.order }
    }
    return reading.map {
      MessagesStrings.text(
        "progress.reading", language, ["name": $0.name, "count": String($0.rows)])
    }.joined(separator: " · ")
  }

  private func redraw() {
    let line = line()
    state.withLock { state in
      guard !state.ended, line != state.shown else { return }
      state.shown = line
      write(line)
    }
  }
}
