import Dispatch
import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminClient

/// The foreground follow loop of `msa code --wait` and `msa messages watch`: sync the chosen
/// devices, hand over what was archived since the last round, wait, again, until the time runs
/// out or the user presses Ctrl-C. Nothing of it runs when msa is not running (PRODUCT §8).
struct MessageFollower: Sendable {
  let archive: MessageArchive
  let syncer: MessageSyncer
  let instances: [Instance]
  let environment: AppEnvironment
  /// Which instances fail now: a failure is reported when its streak starts and when it ends,
  /// not every round.
  let failing = Locked<Set<String>>([])
  /// Instances that had a successful round in this run; the first one archives what the
  /// device held before (history, or what arrived since the last sync).
  let started = Locked<Set<String>>([])
  /// When the command started (the app's clock).
  let startedAt: Date
  /// The newest archive row when the command started: only rows after it are new.
  let baseline: Int64
  /// How far before the start a message archived in its instance's first round may be stamped
  /// by the device and still count as new (a message that raced the start, device clocks a
  /// little off); older ones were waiting on the device before the command started.
  static let firstRoundSlack: TimeInterval = 60

  init(
    archive: MessageArchive, connector: SimAdminConnector, instances: [Instance],
    _ environment: AppEnvironment
  ) {
    self.archive = archive
    self.instances = instances
    self.environment = environment
    startedAt = environment.clock.now()
    baseline = (try? archive.newestID()) ?? 0
    syncer = MessageSyncer(
      archive: archive, connector: connector,
      width: environment.cappedConcurrency(8, total: instances.count, descriptorsEach: 8),
      clock: environment.clock)
  }

  /// One round: syncs every chosen instance, reports each failure streak that started or
  /// ended (on stderr and to the log center), and returns the messages archived since the
  /// row `after`, in the order they were archived, with the new row position. In an
  /// instance's first successful round only messages recent from shortly before the start
  /// count (``ArchivedMessage/isRecent(since:)``): the rest were on the device before the
  /// command started (a first sync's history).
  func round(after: Int64, filter: MessageFilter) async -> (
    messages: [ArchivedMessage], last: Int64
  ) {
    let results = await syncReporting()
    let first = Set(
      results.filter { $0.failure == nil }.map(\.instanceID).filter { id in
        started.withLock { $0.insert(id).inserted }
      })
    var last = after
    var fresh: [ArchivedMessage] = []
    while let page = try? archive.archived(afterID: last, filter: filter), !page.isEmpty {
      last = page.last?.id ?? last
      let earliest = startedAt.addingTimeInterval(-Self.firstRoundSlack)
      fresh += page.filter { !first.contains($0.instanceID) || $0.isRecent(since: earliest) }
    }
    return (fresh, last)
  }

  /// The failure of the database file a round met: the follow command ends with it (it is
  /// this computer's, not a device's streak).
  var localFailure: SQLiteError? { syncer.localFailure.current }

  /// Syncs the instances and reports each failure streak's start and end (none for a round
  /// cancelled at its deadline: its devices did not fail).
  private func syncReporting() async -> [InstanceSyncResult] {
    let results = await syncer.sync(instances)
    guard !Task.isCancelled else { return results }
    let language = environment.language
    for result in results where result.failureKey != MessageSyncer.localFailureKey {
      let streak = failing.withLock { set -> Bool? in
        if result.failure != nil { return set.insert(result.instanceID).inserted ? true : nil }
        return set.remove(result.instanceID) != nil ? false : nil
      }
      switch streak {
      case true?:
        // The reason is the device's own words: one line, its controls shown, not sent.
        environment.streams.writeError(
          UntrustedText.neutralised(
            MessagesStrings.text(
              "follow.failing", language,
              ["name": result.instanceName, "reason": result.failureText(language) ?? ""]))
            + "\n")
        MessagesLog.followFailing(result, environment)
      case false?:
        environment.streams.writeError(
          MessagesStrings.text("follow.recovered", language, ["name": result.instanceName]) + "\n")
        MessagesLog.followRecovered(result, environment)
      case nil:
        break
      }
    }
    return results
  }

  /// Runs `body`, cancelling it at `deadline` if it is still running then (and when the
  /// caller is cancelled), and returns what it returns: a cancelled sync ends its reads at
  /// once and reports what it had done.
  static func until<T: Sendable>(
    _ deadline: ContinuousClock.Instant, _ body: @escaping @Sendable () async -> T
  ) async -> T {
    let task = Task { await body() }
    let timer = Task {
      try? await Task.sleep(until: deadline, clock: .continuous)
      task.cancel()
    }
    let value = await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
    timer.cancel()
    return value
  }

  /// Sleeps `seconds` of real time; false when the wait was cancelled (Ctrl-C).
  static func pause(_ seconds: TimeInterval) async -> Bool {
    guard seconds > 0 else { return !Task.isCancelled }
    do {
      // Options hold lengths to 100 years (3.2e18 ns, inside UInt64); the bound is kept here
      // too, so no length can overflow the conversion.
      try await Task.sleep(
        nanoseconds: UInt64(min(seconds, TimeArgument.longest) * 1_000_000_000))
      return true
    } catch {
      return false
    }
  }
}

/// Runs `body` until it ends or the user presses Ctrl-C: SIGINT cancels it (its loops end at
/// their next wait) instead of killing the process, so a follow command still records its end.
enum Interruption {
  static func cancellingOnInterrupt<T: Sendable>(
    _ body: @escaping @Sendable () async -> T
  ) async -> T {
    let task = Task { await body() }
    let restore: () -> Void
    if ProcessInterrupt.isRouted.current {
      // The process's one SIGINT handler (see ProcessInterrupt) hands Ctrl-C to this task.
      ProcessInterrupt.taker.withLock { $0 = { task.cancel() } }
      restore = { ProcessInterrupt.taker.withLock { $0 = nil } }
    } else {
      let previous = signal(SIGINT, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
      source.setEventHandler { task.cancel() }
      source.resume()
      restore = {
        source.cancel()
        signal(SIGINT, previous)
      }
    }
    let value = await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
    restore()
    return value
  }
}
