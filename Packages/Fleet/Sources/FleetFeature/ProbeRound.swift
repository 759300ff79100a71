import Foundation
import SimAdminClient

/// The seven calls of one probe, sent together, and what each gave within its budget.
struct ProbeRound: Sendable {
  var health: Result<HealthInfo, SimAdminError>
  var parts: SnapshotParts
}

extension Prober {
  /// One call's outcome, tagged with the call it belongs to.
  private enum Outcome: Sendable {
    case health(Result<HealthInfo, SimAdminError>)
    case device(Result<DeviceInfo, SimAdminError>)
    case sim(Result<SimInfo.Glance, SimAdminError>)
    case network(Result<NetworkInfo, SimAdminError>)
    case data(Result<DataState, SimAdminError>)
    case stats(Result<SystemStats.Glance, SimAdminError>)
    case sms(Result<[SmsMessage], SimAdminError>)
    /// The status layers' and the extras' budget ran out.
    case deadline
  }

  /// Sends the seven calls of one probe at once and waits for each within its budget.
  ///
  /// Health has its own, shorter budget (``bounded(_:_:)``). The six others share one: the
  /// status layers' and the extras' budgets are the same length (``ProbeBudgets``), so one
  /// timer in one task group bounds them all, instead of a group and a sleeping task per call.
  /// A call that has not ended when it runs out is cancelled and counts as
  /// ``SimAdminError/timeout``, as with ``bounded(_:_:)``.
  static func round(session: SimAdminSession, budgets: ProbeBudgets) async -> ProbeRound {
    var health: Result<HealthInfo, SimAdminError>?
    var device: Result<DeviceInfo, SimAdminError>?
    var sim: Result<SimInfo.Glance, SimAdminError>?
    var network: Result<NetworkInfo, SimAdminError>?
    var data: Result<DataState, SimAdminError>?
    var stats: Result<SystemStats.Glance, SimAdminError>?
    var sms: Result<[SmsMessage], SimAdminError>?
    // The layers and the extras end together; a longer extras budget (never today) would
    // need its own timer, so the shared one takes the longer of the two.
    let shared = max(budgets.layers, budgets.extras)
    await withTaskGroup(of: Outcome.self) { group in
      group.addTask {
        .health(
          await bounded(budgets.reachability) { () async throws(SimAdminFailure) in
            try await session.health()
          })
      }
      group.addTask {
        .device(await attempt { () async throws(SimAdminFailure) in try await session.device() })
      }
      group.addTask {
        .sim(await attempt { () async throws(SimAdminFailure) in try await session.simGlance() })
      }
      group.addTask {
        .network(await attempt { () async throws(SimAdminFailure) in try await session.network() })
      }
      group.addTask {
        .data(await attempt { () async throws(SimAdminFailure) in try await session.dataState() })
      }
      group.addTask {
        .stats(
          await attempt { () async throws(SimAdminFailure) in try await session.statsGlance() })
      }
      group.addTask {
        .sms(
          await attempt { () async throws(SimAdminFailure) in try await session.smsList(limit: 1) })
      }
      let nanoseconds = UInt64(max(0.001, shared) * 1_000_000_000)
      group.addTask {
        try? await Task.sleep(nanoseconds: nanoseconds)
        return .deadline
      }
      var pending = 7
      var expired = false
      while pending > 0, let outcome = await group.next() {
        switch outcome {
        case .health(let result):
          // Cancelled with the others at their deadline (health's own budget is never
          // longer): out of time, as its own timer would have said.
          health = expired && result.failure == .cancelled ? .failure(.timeout) : result
        case .device(let result): device = expired ? nil : result
        case .sim(let result): sim = expired ? nil : result
        case .network(let result): network = expired ? nil : result
        case .data(let result): data = expired ? nil : result
        case .stats(let result): stats = expired ? nil : result
        case .sms(let result): sms = expired ? nil : result
        case .deadline:
          // Whatever has not ended is out of time; cancelling ends it (health keeps its
          // own budget, shorter than this one).
          expired = true
          group.cancelAll()
          continue
        }
        pending -= 1
      }
      // Every call has ended: the timer is not needed any more.
      group.cancelAll()
    }
    return ProbeRound(
      health: health ?? .failure(.timeout),
      parts: SnapshotParts(
        device: device ?? .failure(.timeout), sim: sim ?? .failure(.timeout),
        network: network ?? .failure(.timeout), stats: stats ?? .failure(.timeout),
        data: data ?? .failure(.timeout), sms: sms ?? .failure(.timeout),
        layerSeconds: budgets.layers))
  }
}
