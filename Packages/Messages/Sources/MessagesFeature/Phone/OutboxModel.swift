import Essentials
import FeatureKit
import Foundation
import LocalStore

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// The outbox (`messages/outbox`): every message handed to it, its state and why it waits,
/// its attempts; retry and cancel per entry, and "send waiting now" (also a pull).
@MainActor
final class OutboxModel: PhoneScreenModel {
  let context: PhoneContext
  let changes = PhoneChanges()

  private(set) var entries: [OutboxEntry] = [] { didSet { changes.send() } }
  private(set) var isLoaded = false { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }
  /// Entries with an action under way.
  private(set) var pending: Set<Int64> = [] { didSet { changes.send() } }
  private(set) var isFlushing = false { didSet { changes.send() } }
  private(set) var notice: PhoneNotice? { didSet { changes.send() } }
  /// The entry whose cancellation waits for a yes.
  private(set) var cancelling: Int64? { didSet { changes.send() } }
  /// The entry of unknown outcome whose retry waits for a yes (it may have been sent).
  private(set) var retryingUnknown: Int64? { didSet { changes.send() } }

  init(_ context: PhoneContext) {
    self.context = context
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    MessagesPhone.text(key, context, arguments)
  }

  var title: String { text("view.outbox.title") }

  /// Shows what waits; nothing is sent until asked.
  func appear() async { await reload() }

  /// A pull sends what waits.
  func refresh() async { await flush() }

  private func reload() async {
    do {
      let store = try MessagesPhone.store(context)
      entries = try await context.offMain { try OutboxRepository(store: store).list() }
      loadFailure = nil
    } catch {
      loadFailure = MessagesPhone.message(error, context)
    }
    isLoaded = true
  }

  /// Sends every waiting entry now.
  func flush() async {
    guard !isFlushing else { return }
    isFlushing = true
    defer { isFlushing = false }
    do {
      let result = try await context.run(["outbox", "flush"])
      let touched = (result.payload as? MessagesCommands.OutboxPayload)?.entries ?? []
      notice = PhoneNotice(
        text(
          "phone.outbox.flushed",
          [
            "sent": String(touched.count { $0.state == .sent }),
            "waiting": String(touched.count { $0.state != .sent }),
          ]), tone: touched.allSatisfy { $0.state == .sent } ? .success : .warning)
    } catch {
      notice = PhoneNotice(MessagesPhone.message(error, context), tone: .danger)
    }
    await reload()
  }

  /// Retry: at once, unless the entry's outcome is unknown — it may have been sent, so the
  /// user is told first (the retry checks the device's sent messages before sending again).
  func askRetry(_ id: Int64) async {
    let state = entries.first(where: { $0.id == id })?.state.rawValue
    if state == "unknown" || state == "sending" {
      retryingUnknown = id
    } else {
      await retry(id)
    }
  }

  /// Yes to retrying an entry of unknown outcome: the user's explicit choice to send it
  /// again (`--send-again`), which looks among the device's sent messages once more first.
  func confirmRetry() async {
    guard let id = retryingUnknown else { return }
    retryingUnknown = nil
    await retry(id, sendAgain: true)
  }

  /// Tries one entry again and says what became of it.
  func retry(_ id: Int64, sendAgain: Bool = false) async {
    guard !pending.contains(id) else { return }
    pending.insert(id)
    defer { pending.remove(id) }
    do {
      _ = try await context.run(
        ["outbox", "retry", String(id)] + (sendAgain ? ["--send-again", "--yes"] : []))
    } catch {
      notice = PhoneNotice(MessagesPhone.message(error, context), tone: .danger)
      await reload()
      return
    }
    await reload()
    if let entry = entries.first(where: { $0.id == id }) {
      notice = MessagesPhone.outcome(entry, context)
    }
  }

  func askCancel(_ id: Int64) { cancelling = id }

  func keep() {
    cancelling = nil
    retryingUnknown = nil
    notice = PhoneNotice(text("phone.outbox.kept"), tone: .muted)
  }

  /// Yes: the entry is cancelled (never sent).
  func confirmCancel() async {
    guard let id = cancelling else { return }
    cancelling = nil
    do {
      _ = try await context.run(["outbox", "cancel", String(id)])
      notice = PhoneNotice(text("phone.outbox.cancelled"), tone: .muted)
    } catch {
      notice = PhoneNotice(MessagesPhone.message(error, context), tone: .danger)
    }
    await reload()
  }

  /// Whether an entry can be tried again or cancelled.
  func canRetry(_ entry: OutboxEntry) -> Bool { entry.state != .sent && entry.state != .cancelled }
  func canCancel(_ entry: OutboxEntry) -> Bool { entry.state == .queued || entry.state == .failed }

  /// The lines of an entry: to and from, its text masked, why it waits, its attempts.
  func lines(_ entry: OutboxEntry) -> [String] {
    var lines = [
      text("phone.outbox.route", ["peer": entry.peer, "instance": entry.instanceName]),
      Redactor.maskBody(entry.body, preview: 40),
      text("phone.outbox.queuedAt", ["time": context.time(entry.createdAt)]),
    ]
    if let reason = entry.reason, entry.state != .sent {
      lines.append(
        text(
          "phone.outbox.why",
          [
            "reason": PhoneWording.plain(
              reason.text(context.language), fallback: context.common("phone.failed"))
          ]))
    }
    for attempt in entry.attempts {
      var line = text(
        "phone.outbox.attempt",
        ["time": context.time(attempt.at), "result": resultText(attempt.result)])
      if let reason = attempt.reason {
        line = context.common(
          "phone.item",
          [
            "name": line,
            "detail": PhoneWording.plain(
              reason.text(context.language), fallback: context.common("phone.failed")),
          ])
      }
      lines.append(line)
    }
    return lines
  }

  /// An attempt's result in words (a result this version does not know, as it is stored).
  func resultText(_ result: String) -> String {
    let key = "phone.outbox.result.\(result)"
    return MessagesStrings.catalogue.entries[key] != nil ? text(key) : result
  }

  var dialog: PhoneOutline.Dialog? {
    if let id = retryingUnknown, let entry = entries.first(where: { $0.id == id }) {
      return PhoneOutline.Dialog(
        text("phone.outbox.retryUnknownQuestion", ["peer": entry.peer]),
        message: text("phone.outbox.retryUnknownMessage", ["instance": entry.instanceName]),
        buttons: [text("phone.outbox.retryUnknownConfirm"), text("phone.outbox.keep")])
    }
    guard let id = cancelling, let entry = entries.first(where: { $0.id == id }) else { return nil }
    return PhoneOutline.Dialog(
      text("phone.outbox.cancelQuestion", ["peer": entry.peer]),
      message: text("phone.outbox.cancelMessage", ["instance": entry.instanceName]),
      buttons: [text("phone.outbox.cancelConfirm"), text("phone.outbox.keep")])
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if !isLoaded { status.append(PhoneText(context.common("phone.loading"))) }
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    if isFlushing { status.append(PhoneText(text("phone.outbox.flushing"))) }
    if isLoaded && entries.isEmpty { status.append(PhoneText(text("phone.outbox.empty"))) }
    let rows = entries.map { entry -> PhoneOutline.Row in
      let badge = MessagesPhone.badge(entry.state, context)
      var actions: [PhoneText] = []
      if canRetry(entry) { actions.append(PhoneText(text("action.retry"), .swipe)) }
      if canCancel(entry) { actions.append(PhoneText(text("action.cancel"), .swipe)) }
      return PhoneOutline.Row(
        [PhoneText(badge.0, .badge)] + lines(entry).map { PhoneText($0) }, actions: actions)
    }
    return PhoneOutline(
      title: PhoneText(title, .title), status: status,
      sections: rows.isEmpty ? [] : [PhoneOutline.Section(rows: rows)],
      actions: [PhoneText(text("phone.outbox.flush"), .button)],
      notice: notice.map { PhoneText($0.text) }, dialog: dialog)
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(OutboxScreen(model: self)) }
  #endif
}
