import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminClient

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// Release from Hub (`fleet/:ref/release`): what `GET /api/hub` says, read on opening and
/// nothing written; when the device is bound, "Release and remove" (confirmed, naming the
/// Hub) makes it standalone and removes the node, back on the list.
@MainActor
final class ReleaseModel: PhoneScreenModel, PhoneConfirming {
  let context: PhoneContext
  let reference: String
  let changes = PhoneChanges()

  private(set) var name: String? { didSet { changes.send() } }
  private(set) var reading: HubReading? { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }
  private(set) var busy: String? { didSet { changes.send() } }
  private(set) var notice: PhoneNotice? { didSet { changes.send() } }
  /// Whether the confirmation is shown.
  private(set) var isConfirming = false { didSet { changes.send() } }

  init(_ context: PhoneContext, reference: String) {
    self.context = context
    self.reference = reference
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    FleetStrings.text(key, context.language, arguments)
  }

  var title: String { text("route.release") }

  // MARK: - Life cycle

  /// Reads the binding: one `GET /api/hub`.
  func appear() async {
    await read()
  }

  func resume(notice: String?) async {
    if let notice { self.notice = PhoneNotice(notice) }
  }

  /// Pull to refresh: reads the binding again.
  func refresh() async {
    await read()
  }

  private func read() async {
    busy = context.common("phone.loading")
    defer { busy = nil }
    do {
      let store = try FleetPhone.store(context)
      let connector = try context.environment.services.resolve(SimAdminConnector.self)
      let reference = reference
      let instance = try await context.offMain {
        try InstanceRepository(store: store).resolve(reference: reference)
      }
      name = instance.name
      reading = await InstanceRemover(store: store, connector: connector).hubReading(instance)
      loadFailure = nil
    } catch {
      loadFailure = FleetPhone.message(error, context)
    }
  }

  // MARK: - Words

  /// The Hub's address when the device is bound.
  var boundURL: String? {
    if case .bound(let url, _) = reading { return url }
    return nil
  }

  /// What the device says about its Hub, in a line.
  var hubLine: String? {
    guard let reading else { return nil }
    switch reading {
    case .bound(let url, _): return text("hub.bound", ["hub": url])
    case .standalone: return text("hub.standalone")
    case .waiting: return text("hub.waiting")
    case .notSupported: return text("hub.notSupported")
    case .unreadable(let error):
      return text("hub.unreadable", ["reason": FleetPhone.reason(error, context)])
    }
  }

  /// What releasing does, or why there is nothing to release.
  var explanation: String? {
    guard let reading else { return nil }
    if case .unreadable = reading { return nil }
    return text(boundURL == nil ? "release.notBound" : "phone.release.explain")
  }

  // MARK: - Actions

  func askRelease() {
    guard boundURL != nil, busy == nil else { return }
    isConfirming = true
  }

  func cancelConfirmation() {
    isConfirming = false
    notice = PhoneNotice(text("phone.notice.kept"), tone: .muted)
  }

  /// Yes: releases the device and removes the node, back on the list; a release that did
  /// not happen keeps the node and says why.
  func confirm() async {
    guard isConfirming, let name else { return }
    isConfirming = false
    busy = text("phone.detail.removing")
    defer { busy = nil }
    do {
      let result = try await context.run(["fleet", "remove", reference, "--release-hub", "--yes"])
      guard let report = (result.payload as? RemovePayload)?.removals.first else { return }
      if report.deleted {
        let done = text("phone.notice.removed", ["count": "1", "names": name])
        // The node's page below is gone too: back to the list.
        context.close()
        context.close(notice: done)
        return
      }
      let hub = report.hubURL ?? boundURL ?? ""
      let reason = report.failure.map { FleetPhone.reason($0, context) } ?? ""
      let line =
        report.release == .unanswered
        ? text("release.unanswered", ["hub": hub, "seconds": SnapshotParts.seconds(5)])
        : text("release.failed", ["hub": hub, "reason": reason])
      notice = PhoneNotice(line, tone: .danger)
      await read()
    } catch {
      notice = PhoneNotice(FleetPhone.message(error, context), tone: .danger)
    }
  }

  var question: PhoneConfirmation? {
    guard isConfirming, let name, let url = boundURL else { return nil }
    return PhoneConfirmation(
      text("phone.release.question", ["name": name, "hub": url]),
      message: text("phone.release.explain"),
      confirm: text("action.releaseAndRemove"), cancel: context.common("phone.cancel"))
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if let busy { status.append(PhoneText(busy)) }
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    var rows: [PhoneOutline.Row] = []
    if let name { rows.append(.pair(text("form.name"), name)) }
    if let hubLine { rows.append(.pair(text("phone.release.hub"), hubLine)) }
    if let explanation { rows.append(PhoneOutline.Row([PhoneText(explanation)])) }
    return PhoneOutline(
      title: PhoneText(title, .title), status: status,
      sections: [PhoneOutline.Section(nil, rows: rows)],
      actions: boundURL == nil ? [] : [PhoneText(text("action.releaseAndRemove"), .button)],
      notice: notice.map { PhoneText($0.text) }, dialog: dialog)
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(ReleaseScreen(model: self)) }
  #endif
}
