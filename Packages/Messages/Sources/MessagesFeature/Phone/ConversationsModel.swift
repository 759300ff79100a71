import Essentials
import FeatureKit
import Foundation

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// Conversations (`messages/conversations`): one row per peer across devices, newest first,
/// its latest message masked; a pull syncs.
@MainActor
final class ConversationsModel: PhoneScreenModel {
  let context: PhoneContext
  let changes = PhoneChanges()

  private(set) var conversations: [Conversation] = [] { didSet { changes.send() } }
  private(set) var isLoaded = false { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }
  private(set) var isSyncing = false { didSet { changes.send() } }
  private(set) var lastSynced: Date? { didSet { changes.send() } }
  private(set) var notice: PhoneNotice? { didSet { changes.send() } }

  /// How many conversations the screen lists (the busiest archive's peers fit).
  nonisolated static let limit = 1_000

  init(_ context: PhoneContext) {
    self.context = context
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    MessagesPhone.text(key, context, arguments)
  }

  var title: String { text("view.conversations.title") }

  /// The archive was synced by the screen that opened this one: only read it.
  func appear() async { await reload() }

  func resume(notice: String?) async {
    if let notice { self.notice = PhoneNotice(notice) }
    await reload()
  }

  func refresh() async {
    guard !isSyncing else { return }
    isSyncing = true
    let summary = await MessagesPhone.sync(context)
    isSyncing = false
    notice = summary
    await reload()
  }

  private func reload() async {
    do {
      let store = try MessagesPhone.store(context)
      conversations = try await context.offMain {
        try MessageArchive(store: store).conversations(limit: ConversationsModel.limit)
      }
      loadFailure = nil
    } catch {
      loadFailure = MessagesPhone.message(error, context)
    }
    lastSynced = await MessagesPhone.lastSynced(context)
    isLoaded = true
  }

  func open(_ conversation: Conversation) {
    context.open("messages/" + conversation.peerKey)
  }

  /// The row's second line: the latest message, masked, and when.
  func preview(_ conversation: Conversation) -> String {
    Redactor.maskBody(conversation.latest.body, preview: 40)
  }

  func details(_ conversation: Conversation) -> String {
    [
      text("phone.conversation.count", ["count": String(conversation.count)]),
      conversation.instanceNames.joined(separator: ", "),
      MessagesPhone.time(conversation.latest, context),
    ].joined(separator: " · ")
  }

  func outline() -> PhoneOutline {
    var status = [
      PhoneText(MessagesPhone.syncLine(isSyncing: isSyncing, last: lastSynced, context))
    ]
    if !isLoaded { status.append(PhoneText(context.common("phone.loading"))) }
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    if isLoaded && conversations.isEmpty {
      status.append(PhoneText(text("view.conversations.empty")))
      status.append(PhoneText(text("phone.list.emptyHint")))
    }
    let rows = conversations.map { conversation in
      PhoneOutline.Row([
        PhoneText(conversation.peer, .foreign), PhoneText(preview(conversation)),
        PhoneText(details(conversation)),
      ])
    }
    return PhoneOutline(
      title: PhoneText(title, .title), status: status,
      sections: rows.isEmpty ? [] : [PhoneOutline.Section(rows: rows)],
      notice: notice.map { PhoneText($0.text) })
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(ConversationsScreen(model: self)) }
  #endif
}
