import Essentials
import Foundation
import LocalStore
import SimAdminClient

/// Deletes instances from msa, and says what each device is left as.
///
/// Removing never writes to the device (PRODUCT §3, Fleet). A device bound to a SimAdminHub
/// belongs to that Hub: `POST /api/hub/unbind` would not tell the Hub, would keep the device
/// in managed mode with no address, and would open the unauthenticated
/// `POST /api/hub/provision` to anyone on the LAN (SIMADMIN-API §5). So removal reads
/// `GET /api/hub` when it can and reports it: bound to a Hub and left as is, standalone,
/// waiting for a Hub, no Hub routes, or unreadable — and the instance is deleted whatever the
/// read said.
///
/// Releasing is a separate, explicit choice (`--release-hub`): a bound device gets
/// `POST /api/hub` with its own configuration and `enabled: false`, which leaves it
/// standalone (never claimable); the Hub is not told. A release that fails, or that the device
/// does not answer in time, keeps the instance with the reason unless `force`.
public struct InstanceRemover: Sendable {
  /// The store.
  public let store: Store
  /// The session pool.
  public let connector: SimAdminConnector
  /// Seconds allowed for the read, and again for the release.
  public let timeout: TimeInterval

  /// A remover.
  public init(store: Store, connector: SimAdminConnector, timeout: TimeInterval = 5) {
    self.store = store
    self.connector = connector
    self.timeout = timeout
  }

  /// What `GET /api/hub` says about `instance`'s device (read only), within the timeout.
  public func hubReading(_ instance: Instance) async -> HubReading {
    let session = connector.session(
      for: instance.id, name: instance.name, origin: instance.origin.url)
    return await Self.read(session, timeout: timeout)
  }

  /// Deletes `instance` (and its password), after releasing its device from its Hub when
  /// `releaseHub` (kept when that release fails, unless `force`).
  public func remove(_ instance: Instance, force: Bool, releaseHub: Bool = false) async throws
    -> RemovalReport
  {
    let session = connector.session(
      for: instance.id, name: instance.name, origin: instance.origin.url)
    let reading = await Self.read(session, timeout: timeout)
    var report = RemovalReport(
      id: instance.id, name: instance.name, release: releaseHub ? .nothingToRelease : .leftAsIs,
      deleted: false)
    report.hub = reading.code
    if case .bound(let url, _) = reading { report.hubURL = url }
    if case .unreadable(let error) = reading {
      report.hubReason = Self.code(error)
      report.hubFailure = error
    }
    if releaseHub {
      switch reading {
      case .bound(_, let config):
        let (outcome, error) = await release(session, keeping: config)
        report.release = outcome
        report.releaseReason = error.map(Self.code)
        report.detail = error.flatMap(Self.detail)
        report.failure = error
      case .unreadable(let error):
        // Asked to release, and the binding could not even be read.
        report.release = .failed
        report.releaseReason = Self.code(error)
        report.detail = Self.detail(error)
        report.failure = error
      case .standalone, .waiting, .notSupported:
        break
      }
    }
    guard report.release.allowsRemoval || force else { return report }
    try InstanceRepository(store: store).delete(
      id: instance.id, expectedRevision: instance.revision)
    connector.forget(instanceID: instance.id)
    try store.credentials.removePassword(for: instance.id)
    report.deleted = true
    report.mayStillBeBound = !report.release.allowsRemoval
    return report
  }

  // MARK: - Device

  /// `GET /api/hub` within `timeout`.
  static func read(_ session: SimAdminSession, timeout: TimeInterval) async -> HubReading {
    let answer = await bounded(timeout) { () async throws(SimAdminFailure) in
      try await session.hub()
    }
    switch answer {
    case .failure(.notSupported): return .notSupported
    case .failure(let error): return .unreadable(error)
    case .success(let hub):
      if hub.isBound {
        let url = hub.config.url.isEmpty ? hub.runtime.hubURL ?? "" : hub.config.url
        return .bound(url: url, hub.config)
      }
      return hub.config.enabled ? .waiting : .standalone
    }
  }

  /// Makes a bound device standalone (its own configuration, `enabled: false`), within the
  /// timeout. The device answered `GET /api/hub`, so a release it does not answer in time is
  /// unanswered (it may have happened), never "unreachable".
  func release(_ session: SimAdminSession, keeping config: HubState.Config) async
    -> (ReleaseOutcome, SimAdminError?)
  {
    let answer = await bounded(timeout) { () async throws(SimAdminFailure) in
      try await session.hubMakeStandalone(keeping: config)
    }
    switch answer {
    case .success: return (.released, nil)
    case .failure(.timeout), .failure(.cancelled): return (.unanswered, .timeout)
    case .failure(let error): return (.failed, error)
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

/// What `GET /api/hub` says about a device, read without writing anything.
public enum HubReading: Sendable, Equatable {
  /// Centrally managed and attached to the Hub at `url` (with the configuration read).
  case bound(url: String, HubState.Config)
  /// Standalone mode (`enabled: false`).
  case standalone
  /// Managed mode with no Hub: waiting for one (advertising itself; claimable).
  case waiting
  /// No Hub routes (SimAdmin before 1.1.9, or an early 1.1.9 build).
  case notSupported
  /// The state could not be read (unreachable, login, no answer in time…).
  case unreadable(SimAdminError)

  /// The code `fleet remove --json` gives (`hub`).
  public var code: HubFound {
    switch self {
    case .bound: .bound
    case .standalone: .standalone
    case .waiting: .waiting
    case .notSupported: .notSupported
    case .unreadable: .unreadable
    }
  }
}

/// What `fleet remove` found a device's Hub binding to be (and left it as, unless released).
public enum HubFound: String, Sendable, Codable, Hashable, CaseIterable {
  /// Bound to a Hub (`hubURL`).
  case bound
  /// Standalone.
  case standalone
  /// Managed mode, waiting for a Hub.
  case waiting
  /// No Hub routes.
  case notSupported
  /// Not readable (`hubReason`).
  case unreadable
}
