import Essentials
import FeatureKit
import Foundation
import SimAdminClient

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// The device's own SMS (`device/:ref/sms`), straight from it: newest first, bodies masked
/// until revealed; send from this device and delete on it, each confirmed.
@MainActor
final class DeviceSMSModel: PhoneScreenModel {
  let context: PhoneContext
  let reference: String
  let changes = PhoneChanges()

  private(set) var target: DeviceTarget? { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }
  private(set) var status: SectionStatus = .loading { didSet { changes.send() } }
  private(set) var messages: [SmsMessage] = [] { didSet { changes.send() } }
  private(set) var fetchedAt: Date? { didSet { changes.send() } }
  private(set) var revealed: Set<Int64> = [] { didSet { changes.send() } }
  private(set) var notice: PhoneNotice? { didSet { changes.send() } }
  /// The message whose deletion waits for a yes.
  private(set) var deleting: Int64? { didSet { changes.send() } }
  /// Whether the send form is shown.
  private(set) var isComposing = false { didSet { changes.send() } }
  var to = "" { didSet { changes.send() } }
  var body = "" { didSet { changes.send() } }
  private(set) var isBusy = false { didSet { changes.send() } }

  /// How many of the device's messages the screen lists.
  nonisolated static let limit = 50

  init(_ context: PhoneContext, reference: String) {
    self.context = context
    self.reference = reference
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    DevicePhone.text(key, context, arguments)
  }

  var title: String { DeviceSection.sms.title(context.language) }

  func appear() async { await load() }
  func refresh() async { await load() }

  private func load() async {
    let access: DeviceAccess
    do {
      access = try DevicePhone.access(reference, context)
      target = access.target
      loadFailure = nil
    } catch {
      loadFailure = context.failure(error)
      return
    }
    status = .loading
    do throws(SimAdminFailure) {
      messages = try await access.session.smsList(limit: Self.limit, offset: 0)
      status = messages.isEmpty ? .empty : .loaded
    } catch {
      status = SectionStatus(error.error)
    }
    fetchedAt = context.now
  }

  func toggleReveal(_ id: Int64) {
    if revealed.contains(id) { revealed.remove(id) } else { revealed.insert(id) }
  }

  func body(_ message: SmsMessage) -> String {
    revealed.contains(message.id)
      ? message.content : Redactor.maskBody(message.content, preview: 60)
  }

  func meta(_ message: SmsMessage) -> String {
    let time = message.date.map { context.time($0) } ?? message.timestamp
    // The status only when it says more than the direction (pending, failed).
    let status =
      ["sent", "received", "read", "unread"].contains(message.status) ? "" : message.status
    return [
      time, text(message.direction == "outgoing" ? "phone.sms.sent" : "phone.sms.received"), status,
    ]
    .filter { !$0.isEmpty }.joined(separator: " · ")
  }

  // MARK: - Send and delete

  func compose() {
    isComposing = true
    notice = nil
  }

  func cancelCompose() {
    isComposing = false
  }

  /// Sends from this device now (not through the outbox: this is the device's own screen).
  func send() async {
    guard !isBusy else { return }
    isBusy = true
    defer { isBusy = false }
    do {
      _ = try await context.run(
        ["device", reference, "sms", "send", "--to", to, "--text-stdin"], input: body)
      notice = PhoneNotice(text("phone.sms.sentTo", ["peer": to]))
      isComposing = false
      to = ""
      body = ""
      await load()
    } catch {
      notice = PhoneNotice(
        context.failure(error),
        tone: .danger)
    }
  }

  func askDelete(_ id: Int64) { deleting = id }

  func keep() {
    deleting = nil
    notice = PhoneNotice(text("phone.sms.kept"), tone: .muted)
  }

  /// Deletes the message on the device.
  func confirmDelete() async {
    guard let id = deleting else { return }
    deleting = nil
    isBusy = true
    defer { isBusy = false }
    do {
      _ = try await context.run(["device", reference, "sms", "delete", "--yes", String(id)])
      notice = PhoneNotice(text("phone.sms.deleted"))
      await load()
    } catch {
      notice = PhoneNotice(
        context.failure(error),
        tone: .danger)
    }
  }

  var dialog: PhoneOutline.Dialog? {
    guard let id = deleting, let message = messages.first(where: { $0.id == id }) else {
      return nil
    }
    return PhoneOutline.Dialog(
      text("phone.sms.deleteQuestion", ["peer": message.phoneNumber]),
      message: text("phone.sms.deleteMessage", ["name": target?.name ?? ""]),
      buttons: [text("phone.sms.deleteConfirm"), context.common("phone.cancel")])
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if let target { status.append(PhoneText(target.name, .foreign)) }
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    if self.status == .loading {
      status.append(PhoneText(context.common("phone.loading")))
    } else if self.status != .loaded {
      let words = DevicePhone.stateText(self.status, context)
      status.append(PhoneText(words.0, .badge))
      if let message = words.1 { status.append(PhoneText(message)) }
    }
    if let fetchedAt {
      status.append(PhoneText(text("phone.fetched", ["time": context.fullTime(fetchedAt)])))
    }
    let rows = messages.map { message in
      PhoneOutline.Row(
        [
          PhoneText(message.phoneNumber, .foreign),
          PhoneText(body(message), revealed.contains(message.id) ? .foreign : .body),
          PhoneText(meta(message)),
        ],
        actions: [
          PhoneText(
            context.common(revealed.contains(message.id) ? "phone.hide" : "phone.show"), .swipe),
          PhoneText(text("action.delete"), .swipe),
        ])
    }
    var inputs: [PhoneOutline.Input] = []
    if isComposing {
      inputs = [
        PhoneOutline.Input(text("input.to"), value: to, kind: "phone"),
        PhoneOutline.Input(text("input.text"), value: body, kind: "multiline"),
      ]
    }
    return PhoneOutline(
      title: PhoneText(title, .title), status: status,
      sections: rows.isEmpty ? [] : [PhoneOutline.Section(rows: rows)],
      actions: [PhoneText(text("action.send"), .toolbar)], inputs: inputs,
      notice: notice.map { PhoneText($0.text) }, dialog: dialog)
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(DeviceSMSScreen(model: self)) }
  #endif
}
