import Essentials
import FeatureKit
import Foundation
import LocalStore

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// One node (`fleet/:ref`): its status and why, its last known values, its latest SMS
/// (masked), what is registered; test, log in with a password prompt, log out, edit, open
/// its device sections, remove (and remove anyway when it cannot be reached).
@MainActor
final class InstanceDetailModel: PhoneScreenModel, PhoneConfirming {
  /// A question waiting for an answer.
  enum Confirmation: Equatable {
    case remove
    case removeAnyway(reason: String)
  }

  let context: PhoneContext
  let reference: String
  let changes = PhoneChanges()

  private(set) var row: FleetRow? { didSet { changes.send() } }
  private(set) var isLoaded = false { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }
  /// What is under way: testing, logging in …
  private(set) var busy: String? { didSet { changes.send() } }
  private(set) var notice: PhoneNotice? { didSet { changes.send() } }
  private(set) var confirmation: Confirmation? { didSet { changes.send() } }
  var isConfirming: Bool { confirmation != nil }
  /// Whether the password prompt is shown.
  private(set) var isAskingPassword = false { didSet { changes.send() } }
  /// The password typed into the prompt.
  var password = "" { didSet { changes.send() } }
  /// Why the last login failed (shown in the prompt).
  private(set) var loginProblem: String? { didSet { changes.send() } }

  init(_ context: PhoneContext, reference: String) {
    self.context = context
    self.reference = reference
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    FleetStrings.text(key, context.language, arguments)
  }

  var title: String { row?.name ?? text("route.detail") }

  // MARK: - Life cycle

  /// Reads the node from the local store: the list that opened it has just tested it.
  func appear() async {
    await reload()
  }

  func resume(notice: String?) async {
    if let notice { self.notice = PhoneNotice(notice) }
    await reload()
  }

  /// Pull to refresh: tests the node.
  func refresh() async {
    await test()
  }

  private func reload() async {
    do {
      let store = try FleetPhone.store(context)
      let reference = reference
      row = try await context.offMain {
        try FleetRow.load(
          [InstanceRepository(store: store).resolve(reference: reference)], store: store)[0]
      }
      loadFailure = nil
    } catch {
      loadFailure = FleetPhone.message(error, context)
    }
    isLoaded = true
  }

  // MARK: - Actions

  /// Tests the node and shows what the test found.
  func test() async {
    guard let row, busy == nil else { return }
    busy = text("phone.detail.testing")
    defer { busy = nil }
    var failure: String?
    do {
      _ = try await context.run(["fleet", "test", row.id])
    } catch {
      failure = FleetPhone.message(error, context)
    }
    await reload()
    if let failure {
      notice = PhoneNotice(failure, tone: .danger)
    } else if let fresh = self.row {
      notice = PhoneNotice(
        text("phone.detail.tested", ["status": FleetPhone.statusLine(fresh, context.language)]),
        tone: FleetPhone.tone(fresh.status))
    }
  }

  func edit() {
    guard let row else { return }
    context.open("fleet/\(row.id)/edit")
  }

  /// Whether this build can open the device's sections.
  var canOpenSections: Bool {
    guard let row else { return false }
    return context.canOpen("device/\(row.id)")
  }

  func openSections() {
    guard let row, canOpenSections else { return }
    context.open("device/\(row.id)")
  }

  /// Opens Release from Hub: the binding read first, nothing written without a yes.
  func openRelease() {
    guard let row else { return }
    context.open("fleet/\(row.id)/release")
  }

  /// Shows the password prompt.
  func askLogin() {
    password = ""
    loginProblem = nil
    isAskingPassword = true
  }

  func cancelLogin() {
    isAskingPassword = false
    password = ""
    loginProblem = nil
  }

  /// Logs in with the typed password (stored once the device accepts it), or with the
  /// stored one when nothing was typed. A refused password keeps the prompt open saying so.
  func login() async {
    guard let row else { return }
    let typed = password.isEmpty ? nil : password
    if typed == nil && !row.hasPassword {
      loginProblem = text("phone.login.empty")
      return
    }
    busy = text("phone.login.busy")
    do {
      var arguments = ["fleet", "login", row.id]
      if typed != nil { arguments.append("--password-stdin") }
      _ = try await context.run(arguments, input: typed)
      busy = nil
      isAskingPassword = false
      password = ""
      loginProblem = nil
      await test()
      notice = PhoneNotice(text("result.loggedIn", ["name": row.name]))
    } catch {
      busy = nil
      loginProblem = FleetPhone.message(error, context)
    }
  }

  func logout() async {
    guard let row, busy == nil else { return }
    busy = text("phone.logout.busy")
    defer { busy = nil }
    do {
      _ = try await context.run(["fleet", "logout", row.id])
      notice = PhoneNotice(text("result.loggedOut", ["name": row.name]))
    } catch {
      notice = PhoneNotice(FleetPhone.message(error, context), tone: .danger)
    }
  }

  func askRemove() {
    confirmation = .remove
  }

  func cancelConfirmation() {
    confirmation = nil
    notice = PhoneNotice(text("phone.notice.kept"), tone: .muted)
  }

  /// Yes to the removal: gone and back to the list, or — unreachable — asked again whether
  /// to remove it anyway.
  func confirm() async {
    guard let row, let confirmation else { return }
    self.confirmation = nil
    let anyway = confirmation != .remove
    busy = text("phone.detail.removing")
    defer { busy = nil }
    do {
      let result = try await context.run(
        ["fleet", "remove", row.id, "--yes"] + (anyway ? ["--force"] : []))
      let report = (result.payload as? RemovePayload)?.removals.first
      if report?.deleted ?? false {
        context.close(
          notice: text("phone.notice.removed", ["count": "1", "names": row.name]))
      } else if let report {
        let reason =
          report.failure.map { FleetPhone.reason($0, context) }
          ?? text("release.\(report.release.rawValue)")
        self.confirmation = .removeAnyway(reason: reason)
      }
    } catch {
      notice = PhoneNotice(FleetPhone.message(error, context), tone: .danger)
    }
  }

  // MARK: - Words

  /// The sections as label: value rows.
  var sections: [(title: String, rows: [(label: String, value: String, tone: PhoneTone?)])] {
    guard let row else { return [] }
    let language = context.language
    var sections: [(String, [(String, String, PhoneTone?)])] = []
    var status: [(String, String, PhoneTone?)] = [
      (text("field.status"), row.status.label(language), FleetPhone.tone(row.status))
    ]
    if let reason = row.reason {
      status.append((text("field.reason"), reason.text(language, detail: row.detail), nil))
    }
    status.append(
      (
        text("field.checked"),
        row.checkedAt.map { context.fullTime($0) } ?? text("freshness.never"), nil
      ))
    if let version = row.version { status.append((text("field.version"), version, nil)) }
    sections.append((text("detail.status"), status))
    if let snapshot = row.snapshot {
      let values: [(String, String?)] = [
        ("field.phone", snapshot.phoneNumbers.joined(separator: ", ")),
        ("field.operator", snapshot.operatorName),
        ("field.signal", snapshot.signalPercent.map { "\($0)%" }),
        ("field.registration", snapshot.registration),
        ("field.data", snapshot.dataActive.map { text($0 ? "value.on" : "value.off") }),
        ("field.temperature", snapshot.temperatureCelsius.map { String(format: "%.1f°C", $0) }),
        ("field.model", snapshot.model),
        ("field.imei", snapshot.imei),
        ("field.iccid", snapshot.iccid),
      ]
      var rows = values.compactMap { key, value in
        value.flatMap { $0.isEmpty ? nil : (text(key), $0, PhoneTone?.none) }
      }
      rows += (snapshot.notes ?? []).map { (text("field.note"), $0.text(language), .muted) }
      let title =
        row.isStale
        ? text(
          "phone.detail.stale",
          ["time": row.snapshotFetchedAt.map { context.fullTime($0) } ?? text("freshness.never")])
        : text("detail.device")
      sections.append((title, rows))
      if let sms = snapshot.latestSMS {
        let direction = text(sms.direction == "outgoing" ? "value.outgoing" : "value.incoming")
        var lines: [(String, String, PhoneTone?)] = [
          (text("field.peer"), "\(sms.peer) (\(direction))", nil),
          (text("field.preview"), sms.maskedBody, nil),
        ]
        if let date = sms.date {
          lines.append((text("field.received"), context.fullTime(date), nil))
        }
        sections.append((text("detail.sms"), lines))
      }
    }
    var registry: [(String, String, PhoneTone?)] = [
      (text("field.origin"), row.origin, row.isPlainHTTP ? .warning : nil),
      (text("field.group"), row.group ?? text("value.ungrouped"), nil),
      (
        text("field.tags"),
        row.tags.isEmpty ? text("value.none") : row.tags.joined(separator: ", "), nil
      ),
      (text("field.password"), text(row.hasPassword ? "value.stored" : "value.notStored"), nil),
    ]
    if row.isPlainHTTP {
      registry.append(
        (text("phone.detail.plainHTTP"), text("phone.detail.plainHTTPValue"), .warning))
    }
    sections.append((text("detail.registry"), registry))
    return sections.map { (title: $0.0, rows: $0.1.map { (label: $0.0, value: $0.1, tone: $0.2) }) }
  }

  /// The screen's buttons, in order.
  var actionTitles: [String] {
    var titles = [
      text("action.test"), text("action.login"), text("action.logout"), text("action.edit"),
    ]
    if canOpenSections { titles.append(text("action.sections")) }
    titles.append(text("action.release"))
    titles.append(text("action.remove"))
    return titles
  }

  var question: PhoneConfirmation? {
    guard let row, let confirmation else { return nil }
    switch confirmation {
    case .remove:
      return PhoneConfirmation(
        text("phone.remove.question", ["count": "1"]),
        message: text("phone.remove.message", ["count": "1", "names": row.name]),
        confirm: text("phone.remove.confirm", ["count": "1"]),
        cancel: context.common("phone.cancel"))
    case .removeAnyway(let reason):
      return PhoneConfirmation(
        text("phone.removeAnyway.question", ["count": "1"]),
        message: text(
          "phone.removeAnyway.message",
          ["reasons": context.common("phone.item", ["name": row.name, "detail": reason])]),
        confirm: text("phone.removeAnyway.confirm"), cancel: text("phone.removeAnyway.keep"))
    }
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if !isLoaded { status.append(PhoneText(context.common("phone.loading"))) }
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    if let busy { status.append(PhoneText(busy)) }
    let sections = sections.map { section in
      PhoneOutline.Section(
        section.title,
        rows: section.rows.map { PhoneOutline.Row.pair($0.label, $0.value) })
    }
    var inputs: [PhoneOutline.Input] = []
    var dialog = dialog
    if isAskingPassword {
      inputs.append(
        PhoneOutline.Input(
          text("phone.login.password"), value: password, kind: "secure", problem: loginProblem))
      dialog = PhoneOutline.Dialog(
        text("phone.login.title", ["name": row?.name ?? ""]),
        message: text(
          row?.hasPassword == true ? "phone.login.messageStored" : "phone.login.message"),
        buttons: [text("action.login"), context.common("phone.cancel")])
    }
    return PhoneOutline(
      title: PhoneText(title, .foreign), status: status, sections: sections,
      actions: actionTitles.map { PhoneText($0, .button) }, inputs: inputs,
      notice: notice.map { PhoneText($0.text) }, dialog: dialog)
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(InstanceDetailScreen(model: self)) }
  #endif
}
