import Essentials
import Foundation
import ViewKit

/// What the message list shows.
public struct MessageListState: Sendable, Equatable {
  /// The page of messages.
  public var messages: [ArchivedMessage]
  /// Whether bodies are shown in full.
  public var showBodies: Bool
  /// The token for the next page, if there may be one.
  public var nextCursor: String?
  /// Display settings.
  public var timeZone: TimeZone
  /// Whether a filter or a search chose the messages: an empty page then says that nothing
  /// matched, not that the archive is empty.
  public var isFiltered = false
  /// The search that chose the messages, if any: an empty page names it ("Nothing matches
  /// “10086”").
  public var search: String?
  /// The console key that shows or masks bodies; nil on the command line (`--show-bodies`).
  public var revealKey: Character?
  /// The codes that arrived lately as `msa code` judges it (first archived in the last
  /// ``MessagesCommands/recentCodeWindow``, ``ArchivedMessage/isRecent(since:)``), newest
  /// arrival first: the console's list shows them on top whatever their device's clock says,
  /// so `c` on the first row copies the code `msa code` prints. Empty on the command line.
  public var recentCodes: [ArchivedMessage] = []

  /// A list state.
  public init(
    messages: [ArchivedMessage], showBodies: Bool, nextCursor: String?, timeZone: TimeZone,
    revealKey: Character? = nil
  ) {
    self.messages = messages
    self.showBodies = showBodies
    self.nextCursor = nextCursor
    self.timeZone = timeZone
    self.revealKey = revealKey
  }
}

/// What the conversations screen shows.
public struct ConversationsState: Sendable, Equatable {
  /// The conversations, most recent first.
  public var conversations: [Conversation]
  /// Display settings.
  public var timeZone: TimeZone

  /// A conversations state.
  public init(conversations: [Conversation], timeZone: TimeZone) {
    self.conversations = conversations
    self.timeZone = timeZone
  }
}

/// What a thread (`messages/:peer`) shows: one peer's messages with full bodies.
public struct ThreadState: Sendable, Equatable {
  /// The peer as asked for.
  public var peer: String
  /// Its messages, newest first.
  public var messages: [ArchivedMessage]
  /// Display settings.
  public var timeZone: TimeZone

  /// A thread state.
  public init(peer: String, messages: [ArchivedMessage], timeZone: TimeZone) {
    self.peer = peer
    self.messages = messages
    self.timeZone = timeZone
  }
}

/// What the outbox screen shows.
public struct OutboxViewState: Sendable, Equatable {
  /// Entries, newest first, with attempts.
  public var entries: [OutboxEntry]
  /// Display settings.
  public var timeZone: TimeZone

  /// An outbox state.
  public init(entries: [OutboxEntry], timeZone: TimeZone) {
    self.entries = entries
    self.timeZone = timeZone
  }
}

/// What the send form shows.
public struct SendFormState: Sendable, Equatable {
  /// Instance names to send from.
  public var instanceNames: [String]
  /// Queued entries waiting.
  public var waiting: Int

  /// A form state.
  public init(instanceNames: [String], waiting: Int) {
    self.instanceNames = instanceNames
    self.waiting = waiting
  }
}

/// The views of the messages feature: pure functions of state and language.
public enum MessagesViews {
  // MARK: - List

  /// The message list: time, instance, direction, peer, body (masked unless asked).
  public static func list(_ state: MessageListState, language: AppLanguage) -> ViewNode {
    let display = MessagesDisplay(timeZone: state.timeZone)
    var children: [ViewNode] = []
    if state.messages.isEmpty {
      children.append(.empty(emptyState(state, language)))
    } else {
      let pinned = Set(state.recentCodes.map(\.id))
      if let newest = state.recentCodes.first, let code = newest.code {
        // The newest code's arrival by msa's clock, and the device's own time beside it.
        children.append(
          .text(
            Text(
              MessagesStrings.text(
                "view.list.recentCodes", language,
                [
                  "minutes": String(Int(MessagesCommands.recentCodeWindow / 60)),
                  "code": state.showBodies ? code : CodeText.masked(code),
                  "sender": newest.peer, "instance": CodeText.instanceLabel(newest),
                  "seen": display.format(newest.syncedAt),
                  "device": CodeText.deviceTime(newest, display, language),
                ]), style: .muted)))
      }
      let rows = state.recentCodes + state.messages.filter { !pinned.contains($0.id) }
      children.append(
        .table(messageTable(rows, showBodies: state.showBodies, display, language)))
      if let legend = approximateLegend(rows, language) { children.append(legend) }
    }
    if let cursor = state.nextCursor {
      children.append(
        .text(
          Text(MessagesStrings.text("view.list.more", language, ["cursor": cursor]), style: .muted))
      )
    }
    return .screen(
      Screen(
        title: MessagesStrings.text("view.list.title", language),
        subtitle: subtitle(state, language),
        children: children))
  }

  /// What an empty page says: nothing matches the search (naming it, and what it looks in),
  /// nothing matches the filters, or the archive is empty (then how to fill it).
  static func emptyState(_ state: MessageListState, _ language: AppLanguage) -> EmptyState {
    if let search = state.search.map({ $0.trimmingCharacters(in: .whitespaces) }),
      !search.isEmpty
    {
      return EmptyState(
        title: MessagesStrings.text("view.list.noSearchMatch", language, ["term": search]),
        message: MessagesStrings.text("view.list.noSearchMatchHint", language))
    }
    if state.isFiltered {
      return EmptyState(
        title: MessagesStrings.text("view.list.noMatch", language),
        message: MessagesStrings.text("view.list.noMatchHint", language))
    }
    return EmptyState(
      title: MessagesStrings.text("view.list.empty", language),
      message: MessagesStrings.text("view.list.emptyHint", language))
  }

  /// How many are shown and how to see the bodies: a flag on the command line, a key in the
  /// console.
  static func subtitle(_ state: MessageListState, _ language: AppLanguage) -> String {
    let listed = Set(state.messages.map(\.id))
    let count = String(state.messages.count + state.recentCodes.count { !listed.contains($0.id) })
    guard let key = state.revealKey else {
      return MessagesStrings.text("view.list.subtitle", language, ["count": count])
    }
    return MessagesStrings.text(
      state.showBodies ? "view.list.subtitle.keyShown" : "view.list.subtitle.key", language,
      ["count": count, "key": String(key)])
  }

  static func messageTable(
    _ messages: [ArchivedMessage], showBodies: Bool, _ display: MessagesDisplay,
    _ language: AppLanguage
  ) -> Table {
    // The code and SIM number columns only when a message on the page has one.
    let codes = messages.contains { $0.code != nil }
    let sims = messages.contains { $0.simNumber != nil }
    // What goes first when the width is short (issue 30): the SIM number, then the instance,
    // then the code; the text is what people read, so it keeps a comfortable 24 columns
    // before those are shown (at 80 columns: time, direction, number, text, code), and is
    // dropped only before the time, the direction and the number.
    var columns = [
      TableColumn(
        id: "time", title: MessagesStrings.text("column.time", language), minWidth: 16, priority: 4),
      TableColumn(
        id: "dir", title: MessagesStrings.text("column.direction", language), minWidth: 2,
        priority: 5),
      TableColumn(
        id: "peer", title: MessagesStrings.text("column.peer", language), minWidth: 8, maxWidth: 18,
        priority: 6, truncation: .middle),
      TableColumn(
        id: "body", title: MessagesStrings.text("column.body", language), minWidth: 10, priority: 3,
        sizing: .fill, comfortableWidth: 24),
    ]
    if codes {
      columns.append(
        TableColumn(
          id: "code", title: MessagesStrings.text("column.code", language), minWidth: 4, priority: 2
        ))
    }
    columns.append(
      TableColumn(
        id: "instance", title: MessagesStrings.text("column.instance", language), minWidth: 8,
        maxWidth: 32,
        priority: 1, sizing: .whole))
    if sims {
      columns.append(
        TableColumn(
          id: "sim", title: MessagesStrings.text("column.sim", language), minWidth: 6, priority: 0))
    }
    return Table(
      columns: columns,
      rows: messages.map { message in
        var cells = [
          TableCell(CodeText.time(message, display)),
          directionCell(message),
          TableCell(message.peer),
          TableCell(
            showBodies ? flat(message.body) : Redactor.maskBody(message.body, preview: 200)),
        ]
        if codes { cells.append(codeCell(message, revealed: showBodies)) }
        cells.append(TableCell(message.instanceName, tone: .muted))
        if sims { cells.append(TableCell(message.simNumber ?? "", tone: .muted)) }
        return TableRow(
          id: String(message.id), cells: cells, link: "messages/" + message.peerKey,
          copyValue: message.code)
      })
  }

  /// What `≈` means, under a list that shows one (nil when none of `messages` is approximate).
  static func approximateLegend(_ messages: [ArchivedMessage], _ language: AppLanguage)
    -> ViewNode?
  {
    guard messages.contains(where: \.timeApproximate) else { return nil }
    return .text(Text(MessagesStrings.text("view.list.approximate", language), style: .muted))
  }

  /// A message's code, highlighted; masked like the body until bodies are shown.
  static func codeCell(_ message: ArchivedMessage, revealed: Bool) -> TableCell {
    guard let code = message.code else { return TableCell("") }
    return TableCell(revealed ? code : CodeText.masked(code), tone: .primary)
  }

  /// ↓ received, ↑ sent, ✗ an outgoing message the device stored as failed (its automation's
  /// failed sends), never shown as sent.
  static func directionCell(_ message: ArchivedMessage) -> TableCell {
    if message.isIncoming { return TableCell("↓", tone: .info) }
    return message.status == "failed"
      ? TableCell("✗", tone: .danger) : TableCell("↑", tone: .success)
  }

  static func flat(_ body: String) -> String {
    body.split(whereSeparator: \.isNewline).joined(separator: " ")
  }

  // MARK: - Conversations

  /// Conversations across instances by normalized peer.
  public static func conversations(_ state: ConversationsState, language: AppLanguage) -> ViewNode {
    let display = MessagesDisplay(timeZone: state.timeZone)
    let body: ViewNode
    if state.conversations.isEmpty {
      body = .empty(
        EmptyState(
          title: MessagesStrings.text("view.conversations.empty", language),
          message: MessagesStrings.text("view.list.emptyHint", language)))
    } else {
      body = .list(
        ListNode(
          items: state.conversations.map { conversation in
            ListItem(
              id: conversation.peerKey, title: conversation.peer,
              subtitle: Redactor.maskBody(conversation.latest.body),
              badges: [
                Badge(String(conversation.count), tone: .info),
                Badge(conversation.instanceNames.joined(separator: ", "), tone: .muted),
              ],
              trailing: CodeText.time(conversation.latest, display),
              link: "messages/" + conversation.peerKey)
          }))
    }
    var children = [body]
    if let legend = approximateLegend(state.conversations.map(\.latest), language) {
      children.append(legend)
    }
    return .screen(
      Screen(
        title: MessagesStrings.text("view.conversations.title", language),
        subtitle: MessagesStrings.text(
          "view.conversations.subtitle", language,
          ["count": String(state.conversations.count)]),
        children: children))
  }

  // MARK: - Thread

  /// One peer's messages with full bodies, newest last like a chat.
  public static func thread(_ state: ThreadState, language: AppLanguage) -> ViewNode {
    let display = MessagesDisplay(timeZone: state.timeZone)
    guard !state.messages.isEmpty else {
      return .screen(
        Screen(
          title: state.peer,
          children: [
            .empty(
              EmptyState(
                title: MessagesStrings.text("view.thread.empty", language, ["peer": state.peer])))
          ]))
    }
    let entries: [ViewNode] = state.messages.reversed().map { message in
      let key = message.isIncoming ? "view.thread.from" : "view.thread.to"
      let meta = MessagesStrings.text(
        key, language,
        [
          "time": CodeText.time(message, display), "instance": CodeText.instanceLabel(message),
          "peer": message.peer,
        ])
      var lines: [ViewNode] = [.text(Text(meta, style: .muted))]
      if message.timeApproximate {
        // The `≈` time is msa's: the device's own, as it wrote it, beside it.
        lines.append(
          .text(
            Text(
              MessagesStrings.text(
                "view.thread.deviceTime", language,
                ["device": CodeText.deviceTime(message, display, language)]), style: .muted)))
      }
      lines.append(.text(Text(message.body)))
      if !message.isIncoming, message.status == "failed" {
        lines.append(
          .text(Text(MessagesStrings.text("view.thread.failed", language), style: .emphasis)))
      }
      if let code = message.code {
        lines.append(
          .text(Text(MessagesStrings.text("view.thread.code", language, ["code": code]))))
      }
      if message.repaired {
        lines.append(
          .text(Text(MessagesStrings.text("view.thread.repaired", language), style: .muted)))
      }
      return .stack(lines)
    }
    let instances = Set(state.messages.map(\.instanceName)).sorted().joined(separator: ", ")
    return .screen(
      Screen(
        title: state.peer,
        subtitle: MessagesStrings.text(
          "view.thread.subtitle", language,
          ["count": String(state.messages.count), "instances": instances]),
        children: entries))
  }

  // MARK: - Outbox

  /// The outbox with each entry's state, reason and attempts.
  public static func outbox(_ state: OutboxViewState, language: AppLanguage) -> ViewNode {
    let display = MessagesDisplay(timeZone: state.timeZone)
    guard !state.entries.isEmpty else {
      return .screen(
        Screen(
          title: MessagesStrings.text("view.outbox.title", language),
          children: [.empty(EmptyState(title: MessagesStrings.text("view.outbox.empty", language)))]
        ))
    }
    let table = Table(
      columns: [
        TableColumn(id: "id", title: "#", minWidth: 2, priority: 5, alignment: .trailing),
        TableColumn(
          id: "state", title: MessagesStrings.text("column.state", language), minWidth: 6,
          priority: 4),
        TableColumn(
          id: "to", title: MessagesStrings.text("column.to", language), minWidth: 8, maxWidth: 16,
          priority: 3),
        TableColumn(
          id: "instance", title: MessagesStrings.text("column.instance", language), minWidth: 6,
          maxWidth: 32,
          priority: 2),
        TableColumn(
          id: "reason", title: MessagesStrings.text("column.reason", language), minWidth: 8,
          priority: 1,
          sizing: .fill),
      ],
      rows: state.entries.map { entry in
        TableRow(
          id: String(entry.id),
          cells: [
            TableCell(String(entry.id)),
            TableCell(
              MessagesStrings.text("state." + entry.state.rawValue, language),
              tone: tone(entry.state)),
            TableCell(entry.peer),
            TableCell(entry.instanceName),
            TableCell(entry.reason?.text(language) ?? "", tone: .muted),
          ])
      })
    var children: [ViewNode] = [.table(table)]
    for entry in state.entries where !entry.attempts.isEmpty || entry.expiresAt != nil {
      var rows: [ViewNode] = [
        .keyValue(
          KeyValue(
            key: MessagesStrings.text("column.body", language), value: Redactor.maskBody(entry.body)
          ))
      ]
      if let expiresAt = entry.expiresAt {
        rows.append(
          .keyValue(
            KeyValue(
              key: MessagesStrings.text("view.outbox.expires", language),
              value: display.format(expiresAt))))
      }
      for attempt in entry.attempts {
        let result = MessagesStrings.text("attempt." + attempt.result, language)
        let value = attempt.reason.map { "\(result) · \($0.text(language))" } ?? result
        rows.append(
          .keyValue(
            KeyValue(
              key: display.format(attempt.at), value: value,
              tone: ["sent", "confirmed"].contains(attempt.result) ? .success : .warning)))
      }
      children.append(
        .section(
          Section(
            title: MessagesStrings.text("view.outbox.attempts", language, ["id": String(entry.id)]),
            children: rows)))
    }
    return .screen(
      Screen(
        title: MessagesStrings.text("view.outbox.title", language),
        subtitle: MessagesStrings.text(
          "view.outbox.subtitle", language, ["count": String(state.entries.count)]),
        children: children))
  }

  static func tone(_ state: OutboxState) -> Tone {
    switch state {
    case .queued, .unknown: .warning
    case .sending: .info
    case .sent: .success
    case .failed: .danger
    case .cancelled: .muted
    }
  }

  // MARK: - Send form

  /// The send form: from, to, text.
  public static func sendForm(_ state: SendFormState, language: AppLanguage) -> ViewNode {
    .screen(
      Screen(
        title: MessagesStrings.text("view.send.title", language),
        subtitle: MessagesStrings.text(
          "view.send.limit", language, ["limit": String(SendText.maximumLength)]),
        children: [
          .field(
            FormField(
              id: "from", label: MessagesStrings.text("field.from", language), value: "",
              placeholder: state.instanceNames.prefix(3).joined(separator: ", "))),
          .field(
            FormField(
              id: "to", label: MessagesStrings.text("field.to", language), value: "",
              placeholder: "+8613800138000")),
          .field(
            FormField(
              id: "text", label: MessagesStrings.text("field.text", language), value: "",
              placeholder: MessagesStrings.text("field.textPlaceholder", language))),
          .text(
            Text(
              MessagesStrings.text("view.send.waiting", language, ["count": String(state.waiting)]),
              style: .muted)),
        ]))
  }
}
