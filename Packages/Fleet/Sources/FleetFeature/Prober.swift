import Essentials
import Foundation
import LocalStore
import SimAdminClient

/// Tests instances layer by layer: reachability (health) → auth → modem → SIM →
/// registration → data, plus extras that feed no status (stats for the temperature, the
/// latest SMS). All the calls go out at once (one round trip for a healthy device) and are
/// read back in layer order; each is bounded by its layer's budget (``ProbeBudgets``).
///
/// Seven calls per device, each feeding the status or the workbench: health (reachable,
/// version), device (modem), SIM (present, phone number), network (registration, operator,
/// signal), data, stats (temperature) and the latest SMS. The auth layer needs no call of its
/// own: every layer call passes the device's auth check, so their answers tell whether the
/// session is let in (a 401 makes the session log in with the stored password and retry;
/// "no admin password set", a wrong or missing password show up as their errors), and a login
/// that does not answer in time is the auth layer's timeout.
///
/// A device that answered health is never Offline: a later layer that fails or runs out of
/// time makes it Degraded, naming the layer. The extras never change the status.
public struct Prober: Sendable {
  /// The session pool (one door per instance).
  public let connector: SimAdminConnector
  /// Where stored passwords are read from.
  public let credentials: any CredentialStore
  /// Stamps `checkedAt` and measures latency.
  public let clock: AppClock
  /// Seconds allowed for one instance's whole probe.
  public let timeout: TimeInterval
  /// The devices whose last answer was "no modem", with the device's words (by instance id):
  /// a modem lookup still searching on such a device is still "no modem"
  /// (``SnapshotParts/evaluate(noModemBefore:)``).
  public var noModemBefore: [String: String?] = [:]

  /// A prober.
  public init(
    connector: SimAdminConnector, credentials: any CredentialStore, clock: AppClock,
    timeout: TimeInterval = 5
  ) {
    self.connector = connector
    self.credentials = credentials
    self.clock = clock
    self.timeout = timeout
  }

  /// The per-layer budgets within ``timeout``.
  public var budgets: ProbeBudgets { ProbeBudgets(timeout: timeout) }

  // MARK: - Many

  /// Probes `instances` with at most `width` in flight; `each` sees every result as it
  /// arrives (in completion order). Returns the results in the order of `instances`.
  ///
  /// Each of the `width` slots is one task that probes device after device: the moment a
  /// device's last answer is read, the same task starts the next device's calls, with no
  /// hop through another task (issue 19). `each` runs on the caller's task, off the slots'
  /// path, so no device waits on another's bookkeeping (its progress line, its text).
  public func probe(
    _ instances: [Instance], width: Int, each: (ProbeResult) async -> Void = { _ in }
  ) async -> [ProbeResult] {
    let slots = min(max(1, width), instances.count)
    guard slots > 0 else { return [] }
    // The next instance to take, the slots still running, and the results by id in
    // completion order.
    let shared = Locked((next: 0, running: slots, byID: [String: ProbeResult]()))
    let (arrivals, arrival) = AsyncStream.makeStream(of: ProbeResult.self)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<slots {
        group.addTask {
          while let index = shared.withLock({ state -> Int? in
            guard state.next < instances.count else { return nil }
            defer { state.next += 1 }
            return state.next
          }) {
            let result = await self.probe(instances[index])
            shared.withLock { $0.byID[result.instanceID] = result }
            arrival.yield(result)
          }
          // The last slot to end closes the arrivals, so the loop below always ends.
          if shared.withLock({ state -> Bool in
            state.running -= 1
            return state.running == 0
          }) {
            arrival.finish()
          }
        }
      }
      // A cancelled caller stops seeing arrivals; the results are kept all the same.
      for await result in arrivals {
        await each(result)
      }
    }
    let byID = shared.withLock { $0.byID }
    return instances.compactMap { byID[$0.id] }
  }

  /// The scheduling this replaced (a task group, the parent handing each freed slot to the
  /// next device): kept to show the slots give the same results (`SlotSchedulingTests`).
  func probeThroughParent(
    _ instances: [Instance], width: Int, each: (ProbeResult) async -> Void = { _ in }
  ) async -> [ProbeResult] {
    var byID: [String: ProbeResult] = [:]
    await withTaskGroup(of: ProbeResult.self) { group in
      var pending = instances.makeIterator()
      for _ in 0..<max(1, width) {
        guard let next = pending.next() else { break }
        group.addTask { await self.probe(next) }
      }
      while let result = await group.next() {
        if let next = pending.next() {
          group.addTask { await self.probe(next) }
        }
        byID[result.instanceID] = result
        await each(result)
      }
    }
    return instances.compactMap { byID[$0.id] }
  }

  // MARK: - One

  /// Probes one instance; it ends within ``timeout`` whatever the device does. The result
  /// carries the device requests made that ended in time (``ProbeResult/requests``).
  public func probe(_ instance: Instance) async -> ProbeResult {
    let trace = RequestTrace()
    var result = await trace.record { await probeLayers(instance) }
    result.requests = trace.requests
    return result
  }

  private func probeLayers(_ instance: Instance) async -> ProbeResult {
    let start = clock.now()
    let session = connector.session(
      for: instance.id, name: instance.name, origin: instance.origin.url)
    let budgets = budgets
    var layers = ProbeLayers()
    func finish(
      _ status: InstanceStatus, _ reason: StatusReason?, detail: String? = nil,
      health: HealthInfo? = nil, snapshot: DeviceSnapshot? = nil
    ) -> ProbeResult {
      ProbeResult(
        instanceID: instance.id, instanceName: instance.name, status: status, reason: reason,
        detail: detail, layers: layers, checkedAt: start, latencyMS: latency(since: start),
        version: health?.version, platform: health?.platform, snapshot: snapshot)
    }

    // One round: every call goes out together, each bounded by its layer's budget. On a
    // protected device without a cookie, the layer calls' 401s make the session log in once
    // with the stored password and retry; a missing or wrong password shows up as their
    // error.
    let round = await Self.round(session: session, budgets: budgets)

    // This computer's own failure (out of descriptors…) says nothing about the device.
    let outcomes: [SimAdminError?] = [round.health.failure] + round.parts.all.map(Optional.some)
    for case .localResource(let detail)? in outcomes {
      var result = finish(.unknown, nil, detail: detail)
      result.localFailure = detail
      return result
    }

    // Reachability: the only layer whose failure makes a device Offline.
    let health: HealthInfo
    switch round.health {
    case .success(let value): health = value
    case .failure(let error):
      layers.reachable = .failed
      let (status, reason, detail) = Self.classify(error)
      return finish(status, reason, detail: detail)
    }
    layers.reachable = .ok

    let parts = round.parts

    // Authentication.
    if let problem = authProblem(
      parts: parts, loginUnanswered: await session.isLoginUnanswered, instanceID: instance.id,
      seconds: budgets.layers)
    {
      layers.auth = .failed
      return finish(problem.status, problem.reason, detail: problem.detail, health: health)
    }
    layers.auth = .ok

    // Modem, SIM, registration, data; the extras only fill the snapshot.
    let snapshot = parts.snapshot()
    let evaluation = parts.evaluate(noModemBefore: noModemBefore[instance.id])
    layers.modem = evaluation.modem
    layers.sim = evaluation.sim
    layers.registration = evaluation.registration
    layers.data = evaluation.data
    if let reason = evaluation.reason {
      return finish(
        .degraded, reason, detail: evaluation.detail, health: health, snapshot: snapshot)
    }
    return finish(.online, evaluation.note, health: health, snapshot: snapshot)
  }

  private func latency(since start: Date) -> Int {
    max(0, Int((clock.seconds(since: start) * 1000).rounded()))
  }

  private struct AuthProblem: Error {
    var status: InstanceStatus
    var reason: StatusReason
    var detail: String?
  }

  /// Why the device would not let us in, if it would not: read from what the layer calls met
  /// (each passes the device's auth check), whether the session's login answered, and the
  /// stored password. Never Offline: health answered.
  private func authProblem(
    parts: SnapshotParts, loginUnanswered: Bool, instanceID: String, seconds: TimeInterval
  ) -> AuthProblem? {
    if parts.all.contains(.passwordNotSet) {
      return AuthProblem(status: .loginRequired, reason: .passwordNotSet)
    }
    // The calls waited for a login that never answered: the auth layer is what is slow.
    if loginUnanswered, parts.all.contains(where: { $0 == .timeout || $0 == .cancelled }) {
      return AuthProblem(
        status: .degraded, reason: .authTimeout, detail: SnapshotParts.seconds(seconds))
    }
    if let refused = parts.all.first(where: { $0 == .wrongPassword || $0 == .loginRequired }) {
      let password: String?
      do {
        password = try credentials.password(for: instanceID)
      } catch {
        return AuthProblem(
          status: .loginRequired, reason: .credentialsUnavailable,
          detail: error.localizedMessage(.english))
      }
      guard let password, !password.isEmpty else {
        return AuthProblem(status: .loginRequired, reason: .noPassword)
      }
      let (status, reason, detail) = Self.classifyAnswered(refused)
      return AuthProblem(status: status, reason: reason, detail: detail)
    }
    return nil
  }

  // MARK: - Classification

  /// The status, reason and detail of a failed health call (the device may be Offline).
  static func classify(_ error: SimAdminError) -> (InstanceStatus, StatusReason?, String?) {
    switch error {
    case .timeout, .cancelled: (.offline, .timeout, nil)
    case .unreachable(.refused): (.offline, .refused, nil)
    case .unreachable(.dns): (.offline, .dns, nil)
    case .unreachable(.tls): (.offline, .tls, nil)
    case .unreachable(.reset): (.offline, .reset, nil)
    case .unreachable(.other(let detail)): (.offline, .unreachable, detail)
    case .invalidOrigin(let origin): (.offline, .unreachable, origin)
    case .httpStatus(let code): (.offline, .serverError, "HTTP \(code)")
    case .malformedResponse, .missingField, .redirected, .tooLarge, .notSupported,
      .noPermission:
      (.offline, .notSimAdmin, error.localizedMessage(.english))
    case .loginRequired: (.loginRequired, .noPassword, nil)
    case .passwordNotSet: (.loginRequired, .passwordNotSet, nil)
    case .wrongPassword: (.loginRequired, .wrongPassword, nil)
    case .upstream(let message): (.degraded, .upstreamError, message)
    case .localResource(let detail): (.unknown, nil, detail)
    }
  }

  /// The same for a call made after health answered: never Offline.
  static func classifyAnswered(_ error: SimAdminError) -> (InstanceStatus, StatusReason, String?) {
    switch error {
    case .loginRequired: return (.loginRequired, .noPassword, nil)
    case .passwordNotSet: return (.loginRequired, .passwordNotSet, nil)
    case .wrongPassword: return (.loginRequired, .wrongPassword, nil)
    case .upstream(let message): return (.degraded, .upstreamError, message)
    case .httpStatus(let code): return (.degraded, .serverError, "HTTP \(code)")
    default: return (.degraded, .protocolError, error.localizedMessage(.english))
    }
  }
}

/// Runs one client call and keeps its outcome as a value.
func attempt<T: Sendable>(
  _ body: () async throws(SimAdminFailure) -> T
) async -> Result<T, SimAdminError> {
  do {
    return .success(try await body())
  } catch {
    return .failure(error.error)
  }
}

/// Runs one client call for at most `seconds`; past that it is cancelled and its outcome is
/// ``SimAdminError/timeout``.
func bounded<T: Sendable>(
  _ seconds: TimeInterval, _ body: @escaping @Sendable () async throws(SimAdminFailure) -> T
) async -> Result<T, SimAdminError> {
  let nanoseconds = UInt64(max(0.001, seconds) * 1_000_000_000)
  return await withTaskGroup(of: Result<T, SimAdminError>?.self) { group in
    group.addTask { await attempt(body) }
    group.addTask {
      try? await Task.sleep(nanoseconds: nanoseconds)
      return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first ?? .failure(.timeout)
  }
}
