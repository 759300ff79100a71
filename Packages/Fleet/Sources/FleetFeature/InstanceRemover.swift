import Essentials
import Foundation
import LocalStore
import SimAdminClient

/// Deletes instances after trying to release their Hub binding (`POST /api/hub/unbind`).
///
/// Unreachable or too old (plain-text 404) → release skipped, the delete goes on. Reachable
/// but refused (login required, wrong password, an upstream error, 5xx…) → release failed,
/// nothing deleted unless `force`.
public struct InstanceRemover: Sendable {
  /// The store.
  public let store: Store
  /// The session pool.
  public let connector: SimAdminConnector
  /// Seconds allowed for each release attempt.
  public let timeout: TimeInterval

  /// A remover.
  public init(store: Store, connector: SimAdminConnector, timeout: TimeInterval = 5) {
    self.store = store
    self.connector = connector
    self.timeout = timeout
  }

  /// Releases, then deletes (or keeps) `instance`; the password goes with it.
  public func remove(_ instance: Instance, force: Bool) async throws -> RemovalReport {
    let (outcome, reason, detail) = await release(instance)
    var report = RemovalReport(
      id: instance.id, name: instance.name, release: outcome, releaseReason: reason,
      detail: detail, deleted: false)
    guard outcome != .failed || force else { return report }
    try InstanceRepository(store: store).delete(
      id: instance.id, expectedRevision: instance.revision)
    connector.forget(instanceID: instance.id)
    try store.credentials.removePassword(for: instance.id)
    report.deleted = true
    return report
  }

  /// Tries the release within the timeout.
  func release(_ instance: Instance) async -> (ReleaseOutcome, String?, String?) {
    let session = connector.session(
      for: instance.id, name: instance.name, origin: instance.origin.url)
    let nanoseconds = UInt64(max(0.001, timeout) * 1_000_000_000)
    let result = await withTaskGroup(of: Result<HubState, SimAdminError>?.self) { group in
      group.addTask {
        await attempt { () async throws(SimAdminFailure) in try await session.hubUnbind() }
      }
      group.addTask {
        try? await Task.sleep(nanoseconds: nanoseconds)
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first ?? .failure(.timeout)
    }
    switch result {
    case .success: return (.released, nil, nil)
    case .failure(let error):
      switch error {
      case .timeout, .cancelled, .unreachable, .notSupported:
        return (.skipped, Self.code(error), nil)
      case .upstream(let message): return (.failed, Self.code(error), message)
      default: return (.failed, Self.code(error), nil)
      }
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
