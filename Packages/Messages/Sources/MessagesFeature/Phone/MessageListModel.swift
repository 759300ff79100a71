import Essentials
import FeatureKit
import Foundation
import LocalStore

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// The archive (消息): every message from every device, newest first, a page at a time
/// (load more reaches every one), bodies masked until revealed, codes one tap from the
/// clipboard, search and filters; a sync on opening and on every pull, shown on every state,
/// the empty archive included.
@MainActor
final class MessageListModel: PhoneScreenModel {
  let context: PhoneContext
  let changes = PhoneChanges()

  private(set) var messages: [ArchivedMessage] = [] { didSet { changes.send() } }
  /// Where the next page starts; nil when every message is shown.
  private(set) var nextCursor: MessageCursor? { didSet { changes.send() } }
  private(set) var isLoaded = false { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }
  /// The search (bodies, full text).
  private(set) var search = "" { didSet { changes.send() } }
  /// `incoming`, `outgoing` or nil.
  private(set) var direction: String? { didSet { changes.send() } }
  /// One instance's id, or nil.
  private(set) var instanceID: String? { didSet { changes.send() } }
  /// Only messages with a verification code.
  private(set) var codesOnly = false { didSet { changes.send() } }
  /// The registered instances (the filter's choices).
  private(set) var instances: [(id: String, name: String)] = [] { didSet { changes.send() } }
  /// Messages whose bodies are shown in full.
  private(set) var revealed: Set<Int64> = [] { didSet { changes.send() } }
  /// Every body shown in full.
  private(set) var revealsAll = false { didSet { changes.send() } }
  private(set) var isSyncing = false { didSet { changes.send() } }
  private(set) var lastSynced: Date? { didSet { changes.send() } }
  /// What the last sync or action came to.
  private(set) var notice: PhoneNotice? { didSet { changes.send() } }
  /// Entries waiting in the outbox.
  private(set) var waiting = 0 { didSet { changes.send() } }

  init(_ context: PhoneContext) {
    self.context = context
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    MessagesPhone.text(key, context, arguments)
  }

  var title: String { text("module.name") }

  // MARK: - Life cycle

  /// Shows the archive, then syncs (opening the tab is a sync).
  func appear() async {
    await reload()
    await sync()
  }

  /// Back from a conversation, compose or the outbox: the archive is read again, no device
  /// is asked.
  func resume(notice: String?) async {
    if let notice { self.notice = PhoneNotice(notice) }
    await reload()
  }

  /// Pull to refresh: a sync.
  func refresh() async {
    await sync()
  }

  /// Syncs every device (and sends what waits), then shows the newest page again.
  func sync() async {
    guard !isSyncing else { return }
    isSyncing = true
    let summary = await MessagesPhone.sync(context)
    isSyncing = false
    notice = summary
    await reload()
  }

  private var filter: MessageFilter {
    var filter = MessageFilter(
      direction: direction, instanceID: instanceID,
      search: search.trimmingCharacters(in: .whitespaces).isEmpty ? nil : search,
      hasCode: codesOnly)
    filter.instanceIDs = []
    return filter
  }

  /// The newest page under the search and filters.
  private func reload() async {
    do {
      let store = try MessagesPhone.store(context)
      let filter = filter
      let limit = MessagesPhone.pageSize
      let page = try await context.offMain {
        try MessageArchive(store: store).list(filter: filter, after: nil, limit: limit)
      }
      messages = page
      nextCursor = page.count == limit ? page.last.map(MessageCursor.init(after:)) : nil
      instances = try await MessagesPhone.instances(context)
      waiting = try await context.offMain {
        try OutboxRepository(store: store).list(states: [.queued, .sending]).count
      }
      loadFailure = nil
    } catch {
      loadFailure = MessagesPhone.message(error, context)
    }
    lastSynced = await MessagesPhone.lastSynced(context)
    isLoaded = true
  }

  /// The next page, at the bottom of the list.
  func loadMore() async {
    guard let cursor = nextCursor else { return }
    do {
      let store = try MessagesPhone.store(context)
      let filter = filter
      let limit = MessagesPhone.pageSize
      let page = try await context.offMain {
        try MessageArchive(store: store).list(filter: filter, after: cursor, limit: limit)
      }
      messages += page
      nextCursor = page.count == limit ? page.last.map(MessageCursor.init(after:)) : nil
    } catch {
      notice = PhoneNotice(MessagesPhone.message(error, context), tone: .danger)
    }
  }

  // MARK: - Search, filters, bodies

  func search(_ text: String) async {
    search = text
    await reload()
  }

  func filter(direction: String?) async {
    self.direction = direction
    await reload()
  }

  func filter(instance: String?) async {
    instanceID = instance
    await reload()
  }

  func filter(codesOnly: Bool) async {
    self.codesOnly = codesOnly
    await reload()
  }

  /// Shows or masks one message's body.
  func toggleReveal(_ id: Int64) {
    if revealed.contains(id) { revealed.remove(id) } else { revealed.insert(id) }
  }

  /// Shows or masks every body.
  func toggleRevealAll() {
    revealsAll.toggle()
    if !revealsAll { revealed = [] }
  }

  func isRevealed(_ message: ArchivedMessage) -> Bool {
    revealsAll || revealed.contains(message.id)
  }

  /// The body as shown: in full when revealed, else masked (codes too).
  func body(_ message: ArchivedMessage) -> String {
    isRevealed(message) ? message.body : Redactor.maskBody(message.body, preview: 60)
  }

  /// The code chip's text: the code when revealed, else its mask.
  func codeText(_ message: ArchivedMessage) -> String? {
    guard let code = message.code else { return nil }
    return isRevealed(message) ? code : CodeText.masked(code)
  }

  /// One tap on a code chip: the code goes to the clipboard (the view writes it), and the
  /// screen says so without showing it.
  func copyCode(_ id: Int64) -> String {
    guard let code = messages.first(where: { $0.id == id })?.code else { return "" }
    notice = PhoneNotice(context.common("phone.copied", ["what": text("phone.code")]))
    return code
  }

  // MARK: - Navigation

  func open(_ message: ArchivedMessage) {
    context.open("messages/" + message.peerKey)
  }

  func compose() { context.open("messages/send") }
  func openConversations() { context.open("messages/conversations") }
  func openOutbox() { context.open("messages/outbox") }

  // MARK: - Words

  var chipTitles: (direction: String, instance: String, codes: String) {
    let all = context.common("phone.all")
    let direction =
      self.direction.map {
        text($0 == "incoming" ? "phone.filter.incoming" : "phone.filter.outgoing")
      }
      ?? all
    let instance = instances.first { $0.id == instanceID }?.name ?? all
    return (
      text("phone.filter.direction", ["value": direction]),
      text("phone.filter.instance", ["value": instance]),
      text(codesOnly ? "phone.filter.codesOn" : "phone.filter.codesOff")
    )
  }

  var isFiltered: Bool {
    !search.isEmpty || direction != nil || instanceID != nil || codesOnly
  }

  /// The line of a message under its body: time, instance and SIM.
  func meta(_ message: ArchivedMessage) -> String {
    [MessagesPhone.time(message, context), CodeText.instanceLabel(message)].joined(separator: " · ")
  }

  func outline() -> PhoneOutline {
    var status = [
      PhoneText(MessagesPhone.syncLine(isSyncing: isSyncing, last: lastSynced, context))
    ]
    if !isLoaded { status.append(PhoneText(context.common("phone.loading"))) }
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    let chips = chipTitles
    var actions = [
      PhoneText(text("phone.action.compose"), .toolbar),
      PhoneText(text(revealsAll ? "phone.action.hideAll" : "phone.action.showAll"), .menu),
      PhoneText(text("phone.action.conversations"), .menu),
      PhoneText(text("phone.action.outbox", ["count": String(waiting)]), .menu),
      PhoneText(chips.direction, .chip), PhoneText(chips.instance, .chip),
      PhoneText(chips.codes, .chip),
    ]
    if isLoaded && messages.isEmpty {
      status.append(PhoneText(text(isFiltered ? "view.list.noMatch" : "phone.list.emptyTitle")))
      status.append(PhoneText(text(isFiltered ? "phone.list.noMatchHint" : "phone.list.emptyHint")))
      actions.append(PhoneText(text("phone.action.syncNow"), .button))
    }
    var rows = messages.map { message -> PhoneOutline.Row in
      var parts = [
        PhoneText(message.peer, .foreign),
        PhoneText(text(message.isIncoming ? "phone.received" : "phone.sent"), .badge),
        PhoneText(body(message), isRevealed(message) ? .foreign : .body),
      ]
      if let code = codeText(message) {
        parts.append(PhoneText(text("phone.codeChip", ["code": code]), .chip))
      }
      parts.append(PhoneText(meta(message)))
      return PhoneOutline.Row(
        parts,
        actions: [
          PhoneText(context.common(isRevealed(message) ? "phone.hide" : "phone.show"), .swipe)
        ])
    }
    if nextCursor != nil {
      rows.append(PhoneOutline.Row([PhoneText(context.common("phone.more"), .button)]))
    }
    return PhoneOutline(
      title: PhoneText(title, .title), status: status,
      sections: rows.isEmpty
        ? []
        : [
          PhoneOutline.Section(
            text("phone.list.count", ["count": String(messages.count)]), rows: rows)
        ],
      actions: actions, inputs: [PhoneOutline.Input(context.common("phone.search"), value: search)],
      notice: notice.map { PhoneText($0.text) })
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(MessageListScreen(model: self)) }
  #endif
}
