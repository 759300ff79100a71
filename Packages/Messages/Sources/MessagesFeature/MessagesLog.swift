import Essentials
import FeatureKit
import Foundation

/// What the log center keeps of the operator's work with messages: each sync's summary and
/// failures, each send's outcome, each delete. Records carry event codes (their words are in
/// ``EventText``'s catalogue) and the instance's name as it is now, so the record still says
/// which device it was after a rename or delete. Bodies pass through the `Logger`'s redaction
/// (`body` values are masked), and no record carries a secret.
enum MessagesLog {
  static func logger(_ environment: AppEnvironment) -> Logger {
    environment.logger.labeled("msa.messages")
  }

  /// The short reason code of a catalogue key: `client.error.timeout` → `timeout`,
  /// `unreachable.refused` → `refused`, a local failure → `local`.
  static func reasonCode(_ key: String?) -> String {
    guard let key, key != "error.other" else { return "local" }
    return String(key.split(separator: ".").last ?? Substring(key))
  }

  /// One summary record for a sync run, one per failing instance, one warning per instance
  /// whose device sent rows that could not be read (with how many), and one notice per
  /// instance whose read stopped at the ceiling.
  static func synced(_ results: [InstanceSyncResult], _ environment: AppEnvironment) {
    for result in results where result.unreadable > 0 {
      logger(environment).warning(
        "messages.unreadable",
        metadata: [
          "instance_id": result.instanceID, "instance_name": result.instanceName,
          "count": String(result.unreadable),
        ])
    }
    for result in results where result.stopped == .ceiling {
      logger(environment).notice(
        "messages.syncStopped",
        metadata: [
          "instance_id": result.instanceID, "instance_name": result.instanceName,
          "count": String(result.read), "ceiling": String(result.ceiling ?? result.read),
        ])
    }
    let failed = results.filter { $0.failure != nil }
    for result in failed {
      logger(environment).warning(
        "messages.syncFailed",
        metadata: [
          "instance_id": result.instanceID, "instance_name": result.instanceName,
          "reason": reasonCode(result.failureKey), "detail": result.failure ?? "",
        ])
    }
    logger(environment).info(
      "messages.synced",
      metadata: [
        "instances": String(results.count), "failed": String(failed.count),
        "inserted": String(results.reduce(0) { $0 + $1.inserted }),
      ])
  }

  /// One record per outbox entry a send, flush, retry or cancel touched, with its outcome.
  static func sends(_ entries: [OutboxEntry], _ environment: AppEnvironment) {
    for entry in entries {
      var metadata: LogMetadata = [
        "instance_id": entry.instanceID, "instance_name": entry.instanceName,
        "peer": entry.peer, "body": entry.body, "id": String(entry.id),
      ]
      if let reason = entry.reason { metadata["reason"] = reasonCode(reason.key) }
      switch entry.state {
      case .sent: logger(environment).notice("messages.sent", metadata: metadata)
      case .queued: logger(environment).warning("messages.queued", metadata: metadata)
      case .sending, .unknown:
        logger(environment).warning("messages.sendUnknown", metadata: metadata)
      case .failed: logger(environment).error("messages.sendFailed", metadata: metadata)
      case .cancelled: logger(environment).notice("outbox.cancelled", metadata: metadata)
      }
    }
  }

  /// One record per instance a delete touched.
  static func deleted(
    _ row: MessagesCommands.DeleteRow, scope: String, _ environment: AppEnvironment
  ) {
    var metadata: LogMetadata = [
      "instance_id": row.instanceID, "instance_name": row.instanceName, "scope": scope,
      "count": String(max(row.deviceDeleted ?? 0, row.localDeleted)),
    ]
    if let failure = row.failure { metadata["detail"] = failure }
    if row.failure == nil {
      logger(environment).notice("messages.deleted", metadata: metadata)
    } else {
      logger(environment).error("messages.deleteFailed", metadata: metadata)
    }
  }

  // MARK: - Follow commands

  /// A follow command's device started failing (once per streak, not every round).
  static func followFailing(_ result: InstanceSyncResult, _ environment: AppEnvironment) {
    logger(environment).warning(
      "messages.followFailing",
      metadata: [
        "instance_id": result.instanceID, "instance_name": result.instanceName,
        "reason": reasonCode(result.failureKey), "detail": result.failure ?? "",
      ])
  }

  /// A follow command's failing device answered again.
  static func followRecovered(_ result: InstanceSyncResult, _ environment: AppEnvironment) {
    logger(environment).notice(
      "messages.followRecovered",
      metadata: ["instance_id": result.instanceID, "instance_name": result.instanceName])
  }

  /// `messages watch` started.
  static func watchStarted(instances: Int, interval: String, _ environment: AppEnvironment) {
    logger(environment).info(
      "messages.watchStarted", metadata: ["instances": String(instances), "interval": interval])
  }

  /// A watch round archived new messages: one record per message (bodies masked by the
  /// logger), none for a quiet round.
  static func watchReceived(_ messages: [ArchivedMessage], _ environment: AppEnvironment) {
    for message in messages {
      logger(environment).info(
        "messages.watchReceived",
        metadata: [
          "instance_id": message.instanceID, "instance_name": message.instanceName,
          "peer": message.peer, "body": message.body,
          "has_code": String(message.code != nil),
        ])
    }
  }

  /// `messages watch` ended (Ctrl-C).
  static func watchEnded(rounds: Int, received: Int, _ environment: AppEnvironment) {
    logger(environment).info(
      "messages.watchEnded", metadata: ["rounds": String(rounds), "received": String(received)])
  }
}
