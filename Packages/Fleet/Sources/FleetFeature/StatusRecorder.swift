import Essentials
import Foundation
import LocalStore

/// Writes probe results to the store: the status (keeping the last snapshot when none was
/// fetched), one connection-log record per probe (with the device requests it made), and a
/// runtime record on status changes.
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
  ///
  /// - Throws: ``LocalProbeFailure`` for a probe that failed on this computer (out of file
  ///   descriptors, memory): nothing is recorded about the device then.
  @discardableResult
  public func record(_ result: ProbeResult) throws -> InstanceStatus? {
    try record([result])[result.instanceID] ?? nil
  }

  /// Records a batch of results (a refresh of many devices) in one transaction: one commit
  /// instead of one per device. Returns each recorded instance's previous status (nil when
  /// never tested).
  ///
  /// - Throws: the first ``LocalProbeFailure`` among them, after the others are recorded;
  ///   nothing is recorded about a device whose probe failed on this computer.
  ///
  /// - Parameter snapshotTexts: each result's snapshot already encoded (``snapshotText(of:)``),
  ///   by instance id — a refresh encodes them as results arrive, while other devices are
  ///   still answering, rather than all of them after the last one; missing ones are encoded
  ///   here.
  @discardableResult
  public func record(
    _ results: [ProbeResult], snapshotTexts: [String: String] = [:]
  ) throws -> [String: InstanceStatus?] {
    let statuses = StatusRepository(store: store)
    let log = ConnectionLogRepository(store: store)
    let recorded = results.filter { $0.localFailure == nil }
    var previous: [String: InstanceStatus?] = [:]
    if !recorded.isEmpty {
      try store.database.transaction { _ in
        // The previous statuses in one statement (status codes only, not the snapshots),
        // then kept current as the batch writes: an instance twice in a batch sees its
        // first result as the second's previous status, as a read per row would.
        var current = try statuses.statusCodes(of: recorded.map(\.instanceID))
        var entries: [ConnectionLogEntry] = []
        entries.reserveCapacity(recorded.count)
        for result in recorded {
          let before = current[result.instanceID].flatMap(InstanceStatus.init(rawValue:))
          previous[result.instanceID] = before
          try statuses.save(
            Self.statusRecord(of: result, snapshotText: snapshotTexts[result.instanceID]))
          current[result.instanceID] = result.status.rawValue
          entries.append(Self.logEntry(of: result, previous: before))
        }
        // One savepoint for the whole log (inside this transaction), not one per row.
        try log.append(contentsOf: entries)
      }
    }
    for result in recorded {
      let before = previous[result.instanceID] ?? nil
      if before != result.status {
        logger.info(
          "fleet.statusChanged",
          metadata: [
            "instance_id": result.instanceID, "instance_name": result.instanceName,
            "from": before?.rawValue ?? InstanceStatus.unknown.rawValue,
            "to": result.status.rawValue, "reason": result.reason?.rawValue ?? "",
          ])
      }
    }
    if let local = results.first(where: { $0.localFailure != nil })?.localFailure {
      throw LocalProbeFailure(detail: local)
    }
    return previous
  }
}

extension StatusRecorder {
  /// The stored text of `result`'s snapshot (nil without one).
  public static func snapshotText(of result: ProbeResult) -> String? {
    result.snapshot?.jsonText()
  }

  /// The status row `result` is stored as; `snapshotText` when already encoded, else
  /// ``snapshotText(of:)``.
  public static func statusRecord(of result: ProbeResult, snapshotText: String?)
    -> InstanceStatusRecord
  {
    InstanceStatusRecord(
      instanceID: result.instanceID, status: result.status.rawValue,
      reason: result.reason?.rawValue, detail: result.detail, checkedAt: result.checkedAt,
      latencyMS: result.latencyMS, version: result.version,
      snapshot: snapshotText ?? Self.snapshotText(of: result),
      snapshotFetchedAt: result.snapshot == nil ? nil : result.checkedAt)
  }

  /// The connection-log row of `result`, the status before it being `previous`.
  public static func logEntry(of result: ProbeResult, previous: InstanceStatus?)
    -> ConnectionLogEntry
  {
    ConnectionLogEntry(
      instanceID: result.instanceID, instanceName: result.instanceName, at: result.checkedAt,
      result: result.resultCode, status: result.status.rawValue,
      previousStatus: previous?.rawValue, latencyMS: result.latencyMS,
      reason: result.reason?.rawValue, requests: result.requests)
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

  /// `localFailure`.
  public var failureCode: String { "localFailure" }
}
