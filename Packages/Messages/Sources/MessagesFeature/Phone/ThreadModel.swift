import Essentials
import FeatureKit
import Foundation
import LocalStore

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// One conversation as a chat (`messages/:peer`): bubbles oldest to newest, opening at the
/// newest; received on the left, sent on the right, each with its time, device and SIM;
/// bodies masked until revealed; codes one tap from the clipboard; earlier messages on
/// demand; a reply from a chosen device, whose outcome is said as it is.
@MainActor
final class ThreadModel: PhoneScreenModel {
  let context: PhoneContext
  let peerKey: String
  let changes = PhoneChanges()

  /// The messages shown, oldest first.
  private(set) var messages: [ArchivedMessage] = [] { didSet { changes.send() } }
  /// Where earlier messages start; nil when the first is shown.
  private(set) var earlierCursor: MessageCursor? { didSet { changes.send() } }
  private(set) var isLoaded = false { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }
  private(set) var revealsAll = false { didSet { changes.send() } }
  private(set) var isSyncing = false { didSet { changes.send() } }
  private(set) var notice: PhoneNotice? { didSet { changes.send() } }
  /// The devices a reply can be sent from.
  private(set) var instances: [(id: String, name: String)] = [] { didSet { changes.send() } }
  /// The device the reply goes from.
  var fromID: String? { didSet { changes.send() } }
  /// The reply being typed.
  var draft = "" { didSet { changes.send() } }
  private(set) var isSending = false { didSet { changes.send() } }
  /// Which message the view keeps in sight: the newest, until earlier ones are loaded.
  private(set) var anchor: Int64? { didSet { changes.send() } }

  /// How many messages a page of the conversation holds.
  static let pageSize = 100

  init(_ context: PhoneContext, peerKey: String) {
    self.context = context
    self.peerKey = peerKey
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    MessagesPhone.text(key, context, arguments)
  }

  /// The peer as the newest message stores it.
  var peer: String { messages.last?.peer ?? peerKey }

  var title: String { peer }

  func appear() async { await reload() }

  func resume(notice: String?) async {
    if let notice { self.notice = PhoneNotice(notice) }
    await reload()
  }

  func refresh() async {
    guard !isSyncing else { return }
    isSyncing = true
    notice = await MessagesPhone.sync(context)
    isSyncing = false
    await reload()
  }

  private var filter: MessageFilter { MessageFilter(peerKey: peerKey) }

  /// The newest page, shown oldest first, kept at its end.
  private func reload() async {
    do {
      let store = try MessagesPhone.store(context)
      let filter = filter
      let limit = Self.pageSize
      let page = try await context.offMain {
        try MessageArchive(store: store).list(filter: filter, after: nil, limit: limit)
      }
      messages = page.reversed()
      earlierCursor = page.count == limit ? page.last.map(MessageCursor.init(after:)) : nil
      instances = try await MessagesPhone.instances(context)
      if fromID == nil || !instances.contains(where: { $0.id == fromID }) {
        let latest = page.first?.instanceID
        fromID = instances.first { $0.id == latest }?.id ?? instances.first?.id
      }
      anchor = messages.last?.id
      loadFailure = nil
    } catch {
      loadFailure = MessagesPhone.message(error, context)
    }
    isLoaded = true
  }

  /// Earlier messages, above the first one shown (which stays in sight).
  func loadEarlier() async {
    guard let cursor = earlierCursor else { return }
    do {
      let store = try MessagesPhone.store(context)
      let filter = filter
      let limit = Self.pageSize
      let page = try await context.offMain {
        try MessageArchive(store: store).list(filter: filter, after: cursor, limit: limit)
      }
      anchor = messages.first?.id
      messages = page.reversed() + messages
      earlierCursor = page.count == limit ? page.last.map(MessageCursor.init(after:)) : nil
    } catch {
      notice = PhoneNotice(MessagesPhone.message(error, context), tone: .danger)
    }
  }

  func toggleRevealAll() { revealsAll.toggle() }

  func body(_ message: ArchivedMessage) -> String {
    revealsAll ? message.body : Redactor.maskBody(message.body, preview: 60)
  }

  func codeText(_ message: ArchivedMessage) -> String? {
    guard let code = message.code else { return nil }
    return revealsAll ? code : CodeText.masked(code)
  }

  func copyCode(_ id: Int64) -> String {
    guard let code = messages.first(where: { $0.id == id })?.code else { return "" }
    notice = PhoneNotice(context.common("phone.copied", ["what": text("phone.code")]))
    return code
  }

  /// The line under a bubble: time, device and SIM.
  func meta(_ message: ArchivedMessage) -> String {
    [MessagesPhone.time(message, context), CodeText.instanceLabel(message)].joined(separator: " · ")
  }

  /// Sends the reply from the chosen device and says what became of it.
  func send() async {
    guard let fromID, !isSending else { return }
    do {
      try SendText.validate(draft)
    } catch {
      notice = PhoneNotice(MessagesPhone.message(error, context), tone: .danger)
      return
    }
    isSending = true
    defer { isSending = false }
    do {
      let result = try await context.run(
        ["messages", "send", "--from", fromID, "--to", peer, "--text-stdin"], input: draft)
      if let entry = result.payload as? OutboxEntry {
        notice = MessagesPhone.outcome(entry, context)
        if entry.state != .failed { draft = "" }
        // A sent reply is read back from its device, so it shows as a bubble.
        if entry.state == .sent { _ = try? await context.run(["messages", "sync", fromID]) }
      }
    } catch {
      notice = PhoneNotice(MessagesPhone.message(error, context), tone: .danger)
    }
    await reload()
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if isSyncing { status.append(PhoneText(text("phone.sync.running"))) }
    if !isLoaded { status.append(PhoneText(context.common("phone.loading"))) }
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    if isLoaded && messages.isEmpty {
      status.append(PhoneText(text("view.thread.empty", ["peer": peer])))
    }
    var rows: [PhoneOutline.Row] = []
    if earlierCursor != nil {
      rows.append(PhoneOutline.Row([PhoneText(text("phone.thread.earlier"), .button)]))
    }
    rows += messages.map { message in
      var parts = [
        PhoneText(text(message.isIncoming ? "phone.thread.left" : "phone.thread.right"), .badge),
        PhoneText(body(message), revealsAll ? .foreign : .body),
      ]
      if let code = codeText(message) {
        parts.append(PhoneText(text("phone.codeChip", ["code": code]), .chip))
      }
      parts.append(PhoneText(meta(message)))
      return PhoneOutline.Row(parts)
    }
    if let anchor, let index = messages.firstIndex(where: { $0.id == anchor }) {
      status.append(
        PhoneText(
          text(
            "phone.thread.scrolledTo",
            ["number": String(index + 1), "count": String(messages.count)])))
    }
    let from = instances.first { $0.id == fromID }?.name ?? ""
    return PhoneOutline(
      title: PhoneText(title, .foreign), status: status,
      sections: [PhoneOutline.Section(rows: rows)],
      actions: [
        PhoneText(text(revealsAll ? "phone.action.hideAll" : "phone.action.showAll"), .toolbar),
        PhoneText(text("phone.action.send"), .toolbar),
      ],
      inputs: [
        PhoneOutline.Input(
          text("phone.compose.from"), value: from, kind: "picker", options: instances.map(\.name)),
        PhoneOutline.Input(text("phone.compose.reply"), value: draft),
      ],
      notice: notice.map { PhoneText($0.text) })
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(ThreadScreen(model: self)) }
  #endif
}
