import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminClient

/// The Messages feature's phone screens: the archive (`messages`), conversations, one
/// conversation as a chat (`messages/:peer`), compose (`messages/send`) and the outbox.
enum MessagesPhone {
  static var screens: [PhoneScreen] {
    [
      PhoneScreen("messages") { MessageListModel($0.context) },
      PhoneScreen("messages/conversations") { ConversationsModel($0.context) },
      PhoneScreen("messages/outbox") { OutboxModel($0.context) },
      PhoneScreen("messages/send") { ComposeModel($0.context, to: nil, from: nil) },
      PhoneScreen("messages/:peer") { ThreadModel($0.context, peerKey: $0.parameter("peer")) },
    ]
  }

  /// How many messages a page of the archive holds.
  static let pageSize = 50

  static func store(_ context: PhoneContext) throws -> Store {
    try MessagesCommands.store(context.environment)
  }

  static func text(_ key: String, _ context: PhoneContext, _ arguments: [String: String] = [:])
    -> String
  {
    MessagesStrings.text(key, context.language, arguments)
  }

  /// What went wrong in the phone's words (a device's reason without its request; any other
  /// message cut before its terminal advice).
  static func message(_ error: any Error, _ context: PhoneContext) -> String {
    if let failure = error as? SimAdminFailure {
      return PhoneWording.plain(
        failure.error.localizedMessage(context.language), fallback: context.common("phone.failed"))
    }
    if let failure = error as? MessagesFailure {
      let phoneKey = "phone.error." + FailureCode.of(key: failure.key)
      if MessagesStrings.catalogue.entries[phoneKey] != nil {
        return MessagesStrings.text(phoneKey, context.language, failure.arguments)
      }
    }
    return context.failure(error)
  }

  /// When `message` was sent or received, in the phone's time zone (`≈` when the device named
  /// no believable time and this is when it was archived).
  static func time(_ message: ArchivedMessage, _ context: PhoneContext) -> String {
    (message.timeApproximate ? "≈ " : "") + context.time(message.deviceAt)
  }

  /// The registered instances, by id and name, in registry order.
  static func instances(_ context: PhoneContext) async throws -> [(id: String, name: String)] {
    let store = try store(context)
    return try await context.offMain {
      try InstanceRepository(store: store).list().map { ($0.id, $0.name) }
    }
  }

  // MARK: - Sync

  /// When the archive was last synced (any device), nil when never.
  static func lastSynced(_ context: PhoneContext) async -> Date? {
    guard let store = try? store(context) else { return nil }
    return try? await context.offMain {
      try store.database.queryOne(
        "SELECT MAX(last_finished_at) AS at FROM message_sync_state"
      )?.optionalDate("at")
    }
  }

  /// Syncs every device and sends what waits in the outbox (`messages sync --flush`); what
  /// it came to, in one line: "Synced 3 devices: 12 new; NoModem: …".
  static func sync(_ context: PhoneContext) async -> PhoneNotice {
    do {
      let result = try await context.run(["messages", "sync", "--flush"])
      guard let payload = result.payload as? MessagesCommands.SyncPayload else {
        return PhoneNotice(text("phone.sync.done", context, ["count": "0", "new": "0"]))
      }
      return summary(payload, context)
    } catch {
      return PhoneNotice(
        text("phone.sync.failed", context, ["reason": message(error, context)]), tone: .danger)
    }
  }

  static func summary(_ payload: MessagesCommands.SyncPayload, _ context: PhoneContext)
    -> PhoneNotice
  {
    let results = payload.instances
    let inserted = results.reduce(0) { $0 + $1.inserted }
    var text = text(
      "phone.sync.done", context, ["count": String(results.count), "new": String(inserted)])
    let failures = results.compactMap { result in
      result.failureText(context.language).map {
        context.common(
          "phone.item",
          [
            "name": result.instanceName,
            "detail": PhoneWording.plain($0, fallback: context.common("phone.failed")),
          ])
      }
    }.sorted()
    if !failures.isEmpty {
      text +=
        context.common("phone.separator")
        + failures.joined(separator: context.common("phone.separator"))
    }
    if let outbox = payload.outbox, !outbox.isEmpty {
      text +=
        context.common("phone.separator")
        + MessagesPhone.text(
          "phone.sync.outbox", context,
          [
            "sent": String(outbox.count { $0.state == .sent }),
            "waiting": String(outbox.count { $0.state != .sent }),
          ])
    }
    if results.isEmpty { text = MessagesPhone.text("phone.sync.noDevices", context) }
    return PhoneNotice(text, tone: failures.isEmpty ? .success : .warning)
  }

  /// The sync line every archive screen shows: syncing now, or when it last did.
  static func syncLine(isSyncing: Bool, last: Date?, _ context: PhoneContext) -> String {
    if isSyncing { return text("phone.sync.running", context) }
    guard let last else { return text("phone.sync.never", context) }
    return text("phone.sync.last", context, ["time": context.time(last)])
  }

  // MARK: - Sending

  /// What a send or a retry came to, telling the truth: sent, queued (and why), unknown
  /// (the device may have sent it: it is checked before any retry) or not sent.
  static func outcome(_ entry: OutboxEntry, _ context: PhoneContext) -> PhoneNotice {
    let reason = entry.reason.map {
      PhoneWording.plain($0.text(context.language), fallback: context.common("phone.failed"))
    }
    let arguments = [
      "peer": entry.peer, "instance": entry.instanceName,
      "reason": reason ?? context.common("phone.failed"),
    ]
    // By name, so a state the outbox gains later (issue 29's "unknown") reads as unknown
    // until it is worded: never as sent.
    switch entry.state.rawValue {
    case "sent": return PhoneNotice(text("phone.send.sent", context, arguments))
    case "queued", "sending":
      return PhoneNotice(text("phone.send.queued", context, arguments), tone: .warning)
    case "failed": return PhoneNotice(text("phone.send.failed", context, arguments), tone: .danger)
    case "cancelled":
      return PhoneNotice(text("phone.send.cancelled", context, arguments), tone: .muted)
    default: return PhoneNotice(text("phone.send.unknown", context, arguments), tone: .warning)
    }
  }

  /// An outbox state's badge.
  static func badge(_ state: OutboxState, _ context: PhoneContext) -> (String, PhoneTone) {
    switch state.rawValue {
    case "sent": (text("phone.outbox.state.sent", context), .success)
    case "queued": (text("phone.outbox.state.queued", context), .warning)
    case "sending": (text("phone.outbox.state.sending", context), .info)
    case "failed": (text("phone.outbox.state.failed", context), .danger)
    case "cancelled": (text("phone.outbox.state.cancelled", context), .muted)
    default: (text("phone.outbox.state.unknown", context), .warning)
    }
  }
}
