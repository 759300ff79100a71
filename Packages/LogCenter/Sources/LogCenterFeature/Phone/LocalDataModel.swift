import Essentials
import FeatureKit
import Foundation
import LocalStore

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// 本地数据 (`settings/data`): the database's size and rows; check, compact, back up (to
/// Files, shared from there), restore (a file picked in Files, confirmed), and the device
/// registry exported without passwords. Every file goes to the app's folder in Files, never a
/// typed path, and the success says where.
@MainActor
final class LocalDataModel: PhoneScreenModel, PhoneConfirming {
  /// An action waiting for its yes.
  enum Confirmation: Equatable {
    case restore(URL)
  }

  let context: PhoneContext
  let changes = PhoneChanges()

  private(set) var summary: DataSummary? { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }
  /// What is under way ("Checking…").
  private(set) var busy: String? { didSet { changes.send() } }
  private(set) var notice: PhoneNotice? { didSet { changes.send() } }
  /// The file the last action made, to share.
  private(set) var file: PhoneFile? { didSet { changes.send() } }
  private(set) var confirmation: Confirmation? { didSet { changes.send() } }
  var isConfirming: Bool { confirmation != nil }
  /// Whether the Files picker for a restore is shown.
  private(set) var isPickingBackup = false { didSet { changes.send() } }

  init(_ context: PhoneContext) {
    self.context = context
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    SettingsPhone.text(key, context, arguments)
  }

  var title: String { text("data.title") }

  func appear() async { await reload() }
  func refresh() async { await reload() }

  private func reload() async {
    do {
      let store = try SettingsPhone.store(context)
      let clock = context.environment.clock
      summary = try await context.offMain { try LocalData(store: store, clock: clock).summary() }
      loadFailure = nil
    } catch {
      loadFailure = SettingsPhone.message(error, context)
    }
  }

  /// Runs `arguments` showing `busy` meanwhile; the notice is what `done` makes of the result.
  private func perform(
    _ busyKey: String, _ arguments: [String], done: (CommandResult) -> PhoneNotice
  ) async {
    guard busy == nil else { return }
    busy = text(busyKey)
    notice = nil
    file = nil
    do {
      let result = try await context.run(arguments)
      notice = done(result)
    } catch {
      notice = PhoneNotice(SettingsPhone.message(error, context), tone: .danger)
    }
    busy = nil
    await reload()
  }

  /// The integrity check.
  func check() async {
    await perform("phone.data.checking", ["data", "check"]) { result in
      let problems = (result.payload as? DataCommands.CheckPayload)?.problems ?? []
      return result.exitCode == .success
        ? PhoneNotice(text("phone.data.checkOK"))
        : PhoneNotice(
          text(
            "phone.data.checkFailed",
            [
              "count": String(problems.count),
              "problems": problems.joined(separator: context.common("phone.separator")),
            ]), tone: .danger)
    }
  }

  /// Compaction (VACUUM).
  func compact() async {
    await perform("phone.data.compacting", ["data", "compact"]) { result in
      guard let report = result.payload as? CompactReport else {
        return PhoneNotice(text("phone.data.compactedPlain"))
      }
      return PhoneNotice(
        text(
          "phone.data.compacted",
          [
            "before": SettingsPhone.bytes(report.bytesBefore),
            "after": SettingsPhone.bytes(report.bytesAfter),
          ]))
    }
  }

  /// A backup into Files (Backups), to keep there or share.
  func backup() async {
    do {
      let url = try context.newFile(in: "Backups", named: "MultiSimAdmin", extension: "sqlite")
      await made(
        url, busy: "phone.data.backingUp", ["data", "backup", url.path], key: "phone.data.backedUp")
    } catch {
      notice = PhoneNotice(SettingsPhone.message(error, context), tone: .danger)
    }
  }

  /// The device registry into Files (Exports), passwords left out.
  func exportRegistry() async {
    do {
      let url = try context.newFile(in: "Exports", named: "devices", extension: "json")
      await made(
        url, busy: "phone.data.exporting", ["data", "export-registry", url.path],
        key: "phone.data.exported")
    } catch {
      notice = PhoneNotice(SettingsPhone.message(error, context), tone: .danger)
    }
  }

  private func made(_ url: URL, busy: String, _ arguments: [String], key: String) async {
    await perform(busy, arguments) { _ in
      PhoneNotice(text(key, ["place": context.filesLocation(of: url)]))
    }
    if FileManager.default.fileExists(atPath: url.path), notice?.tone != .danger {
      file = PhoneFile(url: url, place: context.filesLocation(of: url))
    }
  }

  // MARK: - Restore

  /// Restore: the Files picker opens.
  func chooseBackup() { isPickingBackup = true }

  func cancelPicking() { isPickingBackup = false }

  /// A file was picked: asked first, naming it and what it replaces.
  func picked(_ url: URL) {
    isPickingBackup = false
    confirmation = .restore(url)
  }

  func cancelConfirmation() {
    confirmation = nil
    notice = PhoneNotice(text("phone.data.notRestored"), tone: .muted)
  }

  /// Yes: the data is replaced by the backup's, a safety copy of it kept first.
  func confirm() async {
    guard case .restore(let url)? = confirmation else { return }
    confirmation = nil
    // A file picked in Files may be outside the sandbox: it is read while access is granted.
    #if canImport(Darwin)
      let granted = url.startAccessingSecurityScopedResource()
      defer { if granted { url.stopAccessingSecurityScopedResource() } }
    #endif
    await perform("phone.data.restoring", ["data", "restore", url.path, "--yes"]) { result in
      let report = result.payload as? RestoreReport
      return PhoneNotice(
        text(
          "phone.data.restored",
          [
            "file": url.lastPathComponent,
            "copy": report.map { URL(fileURLWithPath: $0.safetyCopy).lastPathComponent } ?? "",
          ]))
    }
  }

  var question: PhoneConfirmation? {
    guard case .restore(let url)? = confirmation else { return nil }
    let rows =
      summary?.tables.filter { $0.table != "schema_versions" }.reduce(0) { $0 + $1.rows } ?? 0
    return PhoneConfirmation(
      text("phone.data.restoreQuestion", ["file": url.lastPathComponent]),
      message: text("phone.data.restoreMessage", ["count": String(rows)]),
      confirm: text("phone.data.restoreConfirm"), cancel: context.common("phone.cancel"))
  }

  /// The tables a person knows by name (devices, messages, logs …), with their rows; the
  /// index and bookkeeping tables are left out.
  var tables: [(label: String, value: String)] {
    (summary?.tables ?? []).compactMap { table in
      SettingsPhone.table(table.table, context).map { (label: $0, value: String(table.rows)) }
    }
  }

  var actionTitles: [String] {
    [
      text("button.check"), text("button.compact"), text("action.backup"),
      text("phone.data.restore"), text("action.exportRegistry"),
    ]
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    if summary == nil && loadFailure == nil {
      status.append(PhoneText(context.common("phone.loading")))
    }
    if let busy { status.append(PhoneText(busy)) }
    var sections: [PhoneOutline.Section] = []
    if let summary {
      sections.append(
        PhoneOutline.Section(
          rows: [
            PhoneOutline.Row.pair(
              text("phone.data.size"), SettingsPhone.bytes(summary.databaseBytes))
          ] + (summary.readOnly ? [PhoneOutline.Row([PhoneText(text("phone.data.readOnly"))])] : [])
        ))
      sections.append(
        PhoneOutline.Section(
          text("phone.data.rows"), rows: tables.map { PhoneOutline.Row.pair($0.label, $0.value) }))
    }
    var actions = actionTitles.map { PhoneText($0, .button) }
    if file != nil { actions.append(PhoneText(context.common("phone.share"), .button)) }
    return PhoneOutline(
      title: PhoneText(title, .title), status: status, sections: sections, actions: actions,
      notice: notice.map { PhoneText($0.text) }, dialog: dialog)
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(LocalDataScreen(model: self)) }
  #endif
}
