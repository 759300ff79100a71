import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminClient
import ViewKit

/// `messages delete`: one message, a batch, a conversation or everything of an instance, on
/// the device and/or locally, confirmed with the target instances and count.
///
/// Nothing the archive has not seen is deleted on a device (PRODUCT, Messages): SimAdmin's
/// `POST /api/sms/clear` and delete-by-number act on the device's whole table, including
/// messages that arrived after the last sync, so msa never uses them. Whatever the target
/// (messages, a conversation, `--all`), the archived messages are found in the device's
/// current list (``DeviceMatch``) and exactly those device rows are deleted by id with
/// `POST /api/sms/batch-delete`: the count confirmed is the count deleted, at most (a message
/// already gone from the device is not counted there). Local rows go only when the device
/// part succeeded (or the scope is `local`), so a failure never leaves the archive missing
/// what the device keeps.
enum MessageDeletion {
  enum Target {
    case ids([Int64])
    case peer(String)
    case all
  }

  static func run(_ invocation: CommandInvocation) async throws -> CommandResult {
    let environment = invocation.environment
    let parsed = invocation.parsed
    let language = environment.language
    let ids = try parsed.argumentList("ID").map { text -> Int64 in
      guard let id = Int64(text) else { throw MessagesFailure("error.badID", ["value": text]) }
      return id
    }
    let peer = parsed.optionalString("peer")
    let all = parsed.flag("all")
    let target: Target
    switch (ids.isEmpty, peer, all) {
    case (false, nil, false): target = .ids(ids)
    case (true, .some(let value), false): target = .peer(PeerNumber.key(value))
    case (true, nil, true): target = .all
    default: throw MessagesFailure("error.deleteTarget")
    }
    let scope = parsed.optionalString("scope") ?? "both"
    let store = try MessagesCommands.store(environment)
    let registry = InstanceRepository(store: store)
    let instance = try parsed.optionalString("instance").map(registry.resolve(reference:))
    if case .all = target, instance == nil { throw MessagesFailure("error.deleteAllNeedsInstance") }
    let archive = MessageArchive(store: store)

    var messages: [ArchivedMessage]
    switch target {
    case .ids(let ids):
      messages = try archive.messages(ids: ids)
      let found = Set(messages.map(\.id))
      if let missing = ids.first(where: { !found.contains($0) }) {
        throw MessagesFailure("error.messageNotFound", ["id": String(missing)])
      }
      if let instance { messages = messages.filter { $0.instanceID == instance.id } }
    case .peer(let key):
      messages = []
      try archive.forEachPage(filter: MessageFilter(instanceID: instance?.id, peerKey: key)) {
        messages += $0
      }
    case .all:
      messages = []
      try archive.forEachPage(filter: MessageFilter(instanceID: instance?.id)) { messages += $0 }
    }
    var groups = Dictionary(grouping: messages, by: \.instanceID)
    if case .all = target, let instance, groups[instance.id] == nil { groups[instance.id] = [] }
    let names = groups.keys.sorted().map { id in
      (try? registry.get(id: id))??.name ?? groups[id]?.first?.instanceName ?? id
    }
    guard !parsed.flag("yes") else {
      return try await perform(
        target: target, groups: groups, scope: scope, environment, store: store)
    }
    throw MessagesFailure(
      "error.confirmDelete",
      [
        "count": String(messages.count), "targets": names.joined(separator: ", "),
        "scope": MessagesStrings.text("scope." + scope, language),
      ])
  }

  static func perform(
    target: Target, groups: [String: [ArchivedMessage]], scope: String,
    _ environment: AppEnvironment, store: Store
  ) async throws -> CommandResult {
    let archive = MessageArchive(store: store)
    let registry = InstanceRepository(store: store)
    let connector = scope == "local" ? nil : try MessagesCommands.connector(environment)
    var rows: [MessagesCommands.DeleteRow] = []
    for (index, instanceID) in groups.keys.sorted().enumerated() {
      let messages = groups[instanceID] ?? []
      let instance = try registry.get(id: instanceID)
      var row = MessagesCommands.DeleteRow(
        instanceID: instanceID,
        instanceName: instance?.name ?? messages.first?.instanceName ?? instanceID,
        deviceDeleted: nil, localDeleted: 0, failure: nil)
      if let connector {
        if let instance {
          do {
            let session = connector.session(
              for: instance.id, name: instance.name, origin: instance.origin.url)
            row.deviceDeleted = try await deleteOnDevice(
              target: target, messages: messages, session: session, instanceID: instance.id)
          } catch {
            row.failure = error.error.localizedMessage(environment.language)
          }
        } else {
          row.failure = MessagesStrings.text("error.instanceGone", environment.language)
        }
      }
      if row.failure == nil, scope != "device" {
        row.localDeleted = try archive.delete(ids: messages.map(\.id))
      }
      environment.progress(
        index + 1, of: groups.count,
        row.failure.map {
          MessagesStrings.text(
            "progress.deleteFailed", environment.language, ["name": row.instanceName, "reason": $0])
        }
          ?? MessagesStrings.text(
            "progress.deleted", environment.language,
            ["name": row.instanceName, "count": String(row.deviceDeleted ?? row.localDeleted)]))
      MessagesLog.deleted(row, scope: scope, environment)
      rows.append(row)
    }
    let language = environment.language
    let table = Table(
      columns: [
        TableColumn(
          id: "instance", title: MessagesStrings.text("column.instance", language), minWidth: 8),
        TableColumn(
          id: "device", title: MessagesStrings.text("column.device", language), minWidth: 6,
          alignment: .trailing),
        TableColumn(
          id: "local", title: MessagesStrings.text("column.local", language), minWidth: 6,
          alignment: .trailing),
        TableColumn(
          id: "result", title: MessagesStrings.text("column.result", language), minWidth: 8),
      ],
      rows: rows.map { row in
        TableRow(
          id: row.instanceID,
          cells: [
            TableCell(row.instanceName),
            TableCell(row.deviceDeleted.map(String.init) ?? "—"),
            TableCell(String(row.localDeleted)),
            row.failure.map { TableCell($0, tone: .danger) }
              ?? TableCell(MessagesStrings.text("sync.ok", language), tone: .success),
          ])
      })
    return CommandResult(
      view: .screen(
        Screen(
          title: MessagesStrings.text("view.delete.title", language), children: [.table(table)])),
      payload: MessagesCommands.DeletePayload(instances: rows),
      exitCode: rows.contains { $0.failure != nil } ? .failure : .success)
  }

  static func deleteOnDevice(
    target: Target, messages: [ArchivedMessage], session: SimAdminSession, instanceID: String
  ) async throws(SimAdminFailure) -> Int {
    guard !messages.isEmpty else { return 0 }
    // The device's rows, read whole (newest first, pages of 500), matched to the archived
    // messages: only those rows are deleted, never a row the archive has not seen.
    var rows: [SmsMessage] = []
    let pageSize = 500
    while true {
      let page = try await session.smsList(limit: pageSize, offset: rows.count)
      rows += page
      if page.count < pageSize { break }
    }
    let ids = DeviceMatch.deviceIDs(of: messages, in: rows)
    var deleted = 0
    for start in stride(from: 0, to: ids.count, by: 1_000) {
      let chunk = Array(ids[start..<min(ids.count, start + 1_000)])
      deleted += Int(try await session.smsBatchDelete(ids: chunk).deleted)
    }
    return deleted
  }
}

/// Which of a device's current rows are the archived messages being deleted.
///
/// Each archived message takes at most one row and each row goes to at most one message, so
/// of two identical messages (same number, text and second) deleting one deletes one row. A
/// row matches when it has the same direction, number and text, and either the id the
/// archive last saw it under or the same time (written the same, or naming the same second
/// as v1.0.6's rewrite of the old RFC 3339 times does). A message the device no longer holds
/// matches nothing.
enum DeviceMatch {
  static func deviceIDs(of messages: [ArchivedMessage], in rows: [SmsMessage]) -> [Int64] {
    struct Content: Hashable {
      var direction: String
      var peer: String
      var body: String
    }
    var byContent: [Content: [SmsMessage]] = [:]
    for row in rows {
      byContent[
        Content(direction: row.direction, peer: row.phoneNumber, body: row.content), default: []
      ]
      .append(row)
    }
    var taken: Set<Int64> = []
    var ids: [Int64] = []
    var waiting: [(ArchivedMessage, [SmsMessage])] = []
    // First every message still under the id the archive saw it with, then by time.
    for message in messages {
      let candidates =
        byContent[Content(direction: message.direction, peer: message.peer, body: message.body)]
        ?? []
      if let id = message.upstreamID, let row = candidates.first(where: { $0.id == id }),
        !taken.contains(row.id), sameTime(row.timestamp, message.deviceTimestamp)
      {
        taken.insert(row.id)
        ids.append(row.id)
      } else {
        waiting.append((message, candidates))
      }
    }
    for (message, candidates) in waiting {
      guard
        let row = candidates.first(where: {
          !taken.contains($0.id) && sameTime($0.timestamp, message.deviceTimestamp)
        })
      else { continue }
      taken.insert(row.id)
      ids.append(row.id)
    }
    return ids
  }

  /// The same text, or two texts naming the same second.
  static func sameTime(_ a: String, _ b: String) -> Bool {
    if a == b { return true }
    guard let left = DeviceTime.canonical(a) else { return false }
    return left == DeviceTime.canonical(b)
  }
}
