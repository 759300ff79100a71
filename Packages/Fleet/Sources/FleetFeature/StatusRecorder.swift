import Essentials
import Foundation
import LocalStore

/// Writes probe results to the store: the status (keeping the last snapshot when none was
/// fetched), one connection-log record per probe, and a runtime record on status changes.
public struct StatusRecorder: Sendable {
  /// The store written to.
  public let store: Store
  /// Receives a record when an instance's status changes.
  public let logger: Logger

  /// A recorder.
  public init(store: Store, logger: Logger) {
    self.store = store
    self.logger = logger.labeled("msa.fleet")
  }

  /// Records `result`; returns the previous status (nil when never tested).
  @discardableResult
  ///
  /// - Throws: ``LocalProbeFailure`` for a probe that failed on this computer (out of file
  ///   descriptors, memory): nothing is recorded about the device then.
  public func record(_ result: ProbeResult) throws -> InstanceStatus? {
    if let local = result.localFailure { throw LocalProbeFailure(detail: local) }
    let statuses = StatusRepository(store: store)
    let previous = try statuses.get(instanceID: result.instanceID)
      .flatMap { InstanceStatus(rawValue: $0.status) }
    try store.database.transaction { _ in
      try statuses.save(
        InstanceStatusRecord(
          instanceID: result.instanceID, status: result.status.rawValue,
          reason: result.reason?.rawValue, detail: result.detail, checkedAt: result.checkedAt,
          latencyMS: result.latencyMS, version: result.version,
          snapshot: result.snapshot?.jsonText(),
          snapshotFetchedAt: result.snapshot == nil ? nil : result.checkedAt))
      try ConnectionLogRepository(store: store).append(
        ConnectionLogEntry(
          instanceID: result.instanceID, instanceName: result.instanceName, at: result.checkedAt,
          result: result.resultCode, status: result.status.rawValue,
          previousStatus: previous?.rawValue, latencyMS: result.latencyMS,
          reason: result.reason?.rawValue))
    }
    if previous != result.status {
      logger.info(
        "fleet.statusChanged",
        metadata: [
          "instance_id": result.instanceID, "instance_name": result.instanceName,
          "from": previous?.rawValue ?? InstanceStatus.unknown.rawValue,
          "to": result.status.rawValue, "reason": result.reason?.rawValue ?? "",
        ])
    }
    return previous
  }
}

/// A probe failed because of this computer, not the device; the command fails with it.
public struct LocalProbeFailure: LocalizedFailure, Equatable {
  /// The system's words (e.g. "Too many open files").
  public let detail: String

  /// A failure with the system's words.
  public init(detail: String) {
    self.detail = detail
  }

  /// The message in `language`.
  public func localizedMessage(_ language: AppLanguage) -> String {
    FleetStrings.text("error.localFailure", language, ["detail": detail])
  }
}
