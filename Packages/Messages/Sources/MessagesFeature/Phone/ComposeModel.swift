import Essentials
import FeatureKit
import Foundation
import LocalStore

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// Compose (`messages/send`): the device to send from (a picker), the number and the text;
/// Send hands it to the outbox, which tries at once, and the outcome is said as it is —
/// sent, queued and why, not sent and why, or unknown.
@MainActor
final class ComposeModel: PhoneScreenModel {
  let context: PhoneContext
  let changes = PhoneChanges()

  private(set) var instances: [(id: String, name: String)] = [] { didSet { changes.send() } }
  private(set) var isLoaded = false { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }
  var fromID: String? { didSet { edited() } }
  var to = "" { didSet { edited() } }
  var body = "" { didSet { edited() } }
  /// The problems of the fields by id (`from`, `to`, `text`), once Send was pressed.
  private(set) var problems: [String: String] = [:] { didSet { changes.send() } }
  private(set) var isSending = false { didSet { changes.send() } }
  /// What the send came to.
  private(set) var outcome: PhoneNotice? { didSet { changes.send() } }
  /// Whether the outcome leaves the message in the outbox (queued or unknown).
  private(set) var isWaiting = false { didSet { changes.send() } }
  private var tried = false

  init(_ context: PhoneContext, to: String?, from: String?) {
    self.context = context
    self.to = to ?? ""
    self.fromID = from
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    MessagesPhone.text(key, context, arguments)
  }

  var title: String { text("view.send.title") }

  func appear() async {
    do {
      instances = try await MessagesPhone.instances(context)
      if fromID == nil { fromID = instances.first?.id }
      loadFailure = nil
    } catch {
      loadFailure = MessagesPhone.message(error, context)
    }
    isLoaded = true
  }

  func refresh() async {}

  private func edited() {
    if tried { problems = check() }
    changes.send()
  }

  private func check() -> [String: String] {
    var problems: [String: String] = [:]
    if fromID == nil { problems["from"] = text("phone.compose.noDevice") }
    do { try SendText.validate(number: to) } catch {
      problems["to"] = MessagesPhone.message(error, context)
    }
    do { try SendText.validate(body) } catch {
      problems["text"] = MessagesPhone.message(error, context)
    }
    return problems
  }

  /// Sends (through the outbox) and says what became of it; the form stays with the outcome.
  func send() async {
    tried = true
    problems = check()
    guard problems.isEmpty, let fromID, !isSending else { return }
    isSending = true
    outcome = nil
    defer { isSending = false }
    do {
      let result = try await context.run(
        ["messages", "send", "--from", fromID, "--to", to, "--text-stdin"], input: body)
      if let entry = result.payload as? OutboxEntry {
        outcome = MessagesPhone.outcome(entry, context)
        isWaiting = entry.state != .sent && entry.state != .failed && entry.state != .cancelled
        if entry.state == .sent {
          tried = false
          problems = [:]
          body = ""
        }
      }
    } catch {
      outcome = PhoneNotice(MessagesPhone.message(error, context), tone: .danger)
    }
  }

  /// Done: back, saying what became of the message.
  func done() {
    context.close(notice: outcome?.text)
  }

  func openOutbox() {
    context.open("messages/outbox")
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if !isLoaded { status.append(PhoneText(context.common("phone.loading"))) }
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    if isSending { status.append(PhoneText(text("phone.compose.sending"))) }
    if isLoaded && instances.isEmpty { status.append(PhoneText(text("phone.compose.noDevice"))) }
    let from = instances.first { $0.id == fromID }?.name ?? ""
    var actions = [
      PhoneText(context.common("phone.cancel"), .toolbar),
      PhoneText(text("phone.action.send"), .toolbar),
    ]
    if outcome != nil { actions.append(PhoneText(context.common("phone.done"), .button)) }
    if isWaiting { actions.append(PhoneText(text("phone.compose.openOutbox"), .button)) }
    return PhoneOutline(
      title: PhoneText(title, .title), status: status,
      sections: [
        PhoneOutline.Section(rows: [PhoneOutline.Row([PhoneText(text("phone.compose.hint"))])])
      ],
      actions: actions,
      inputs: [
        PhoneOutline.Input(
          text("phone.compose.from"), value: from, kind: "picker", options: instances.map(\.name),
          problem: problems["from"]),
        PhoneOutline.Input(text("field.to"), value: to, kind: "phone", problem: problems["to"]),
        PhoneOutline.Input(
          text("field.text"), value: body, kind: "multiline", problem: problems["text"]),
      ],
      notice: outcome.map { PhoneText($0.text) })
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(ComposeScreen(model: self)) }
  #endif
}
