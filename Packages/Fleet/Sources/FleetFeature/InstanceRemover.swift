import Essentials
import Foundation
import LocalStore
import SimAdminClient

/// Deletes instances, releasing a device's Hub binding first only when it has one.
///
/// The rule for every write to a device: read, decide, write only what the user asked for.
/// Removal reads `GET /api/hub` and sends `POST /api/hub/unbind` only to a bound device
/// (SIMADMIN-API §5): on a standalone device unbind would switch it to centrally managed
/// mode. Released, nothing to release or not supported (before 1.1.9) → deleted;
/// unreachable, login required or release refused → kept, unless `force`.
public struct InstanceRemover: Sendable {
  /// The store.
  public let store: Store
  /// The session pool.
  public let connector: SimAdminConnector
  /// Seconds allowed for the read and the release together.
  public let timeout: TimeInterval

  /// A remover.
  public init(store: Store, connector: SimAdminConnector, timeout: TimeInterval = 5) {
    self.store = store
    self.connector = connector
    self.timeout = timeout
  }

  /// Releases when bound, then deletes (or keeps) `instance`; the password goes with it.
  public func remove(_ instance: Instance, force: Bool) async throws -> RemovalReport {
    let (outcome, error) = await release(instance)
    var report = RemovalReport(
      id: instance.id, name: instance.name, release: outcome, releaseReason: error.map(Self.code),
      detail: error.flatMap(Self.detail), deleted: false)
    report.failure = error
    guard outcome.allowsRemoval || force else { return report }
    try InstanceRepository(store: store).delete(
      id: instance.id, expectedRevision: instance.revision)
    connector.forget(instanceID: instance.id)
    try store.credentials.removePassword(for: instance.id)
    report.deleted = true
    report.mayStillBeBound = !outcome.allowsRemoval
    return report
  }

  /// Reads the Hub state and releases a bound device, all within the timeout.
  func release(_ instance: Instance) async -> (ReleaseOutcome, SimAdminError?) {
    let session = connector.session(
      for: instance.id, name: instance.name, origin: instance.origin.url)
    let nanoseconds = UInt64(max(0.001, timeout) * 1_000_000_000)
    let result = await withTaskGroup(of: (ReleaseOutcome, SimAdminError?)?.self) { group in
      group.addTask { await Self.readThenRelease(session) }
      group.addTask {
        try? await Task.sleep(nanoseconds: nanoseconds)
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    return result ?? (.unreachable, .timeout)
  }

  static func readThenRelease(_ session: SimAdminSession) async -> (
    ReleaseOutcome, SimAdminError?
  ) {
    let state = await attempt { () async throws(SimAdminFailure) in try await session.hub() }
    switch state {
    case .failure(.notSupported):
      return (.notSupported, nil)
    case .failure(let error):
      return (failed(error), error)
    case .success(let hub) where !hub.isBound:
      return (.nothingToRelease, nil)
    case .success:
      break
    }
    switch await attempt({ () async throws(SimAdminFailure) in try await session.hubUnbind() }) {
    case .success: return (.released, nil)
    case .failure(let error):
      // Once the device is known to be bound, any failure of the release is a refusal.
      let outcome = failed(error)
      return (outcome == .unreachable ? outcome : .refused, error)
    }
  }

  /// How a failed read or release keeps the instance.
  static func failed(_ error: SimAdminError) -> ReleaseOutcome {
    switch error {
    case .timeout, .cancelled, .unreachable, .localNetworkDenied: .unreachable
    case .loginRequired, .wrongPassword, .passwordNotSet: .loginRequired
    default: .refused
    }
  }

  /// The detail `fleet remove --json` gives beside the code: the device's own text, or for a
  /// refusal that is not the device's words the English reason (scripts read the code).
  static func detail(_ error: SimAdminError) -> String? {
    switch error {
    case .timeout, .cancelled, .unreachable, .loginRequired, .wrongPassword, .passwordNotSet:
      nil
    case .upstream(let message): message
    default: error.localizedMessage(.english)
    }
  }

  /// A stable code for `error`: the client's reason key without its prefix.
  static func code(_ error: SimAdminError) -> String {
    switch error {
    case .httpStatus(let status): "http\(status)"
    default: String(error.reasonKey.split(separator: ".").last ?? "error")
    }
  }
}
