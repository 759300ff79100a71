import Essentials
import FeatureKit
import Foundation
import LocalStore

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// 设置 (`settings`): local data and the log center, the devices reached over plain HTTP
/// with their warning, and what this build is.
@MainActor
final class SettingsModel: PhoneScreenModel {
  let context: PhoneContext
  let changes = PhoneChanges()

  private(set) var state: SettingsState? { didSet { changes.send() } }
  private(set) var logCount: Int? { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }

  init(_ context: PhoneContext) {
    self.context = context
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    SettingsPhone.text(key, context, arguments)
  }

  var title: String { text("module.name") }

  func appear() async { await reload() }
  func resume(notice: String?) async { await reload() }
  func refresh() async { await reload() }

  private func reload() async {
    let environment = context.environment
    do {
      let store = try SettingsPhone.store(context)
      let (state, count) = try await context.offMain {
        (try LogCenter.loadSettings(environment), try LogBook(store: store).counts().total)
      }
      self.state = state
      logCount = count
      loadFailure = nil
    } catch {
      loadFailure = SettingsPhone.message(error, context)
    }
  }

  func openData() { context.open("settings/data") }
  func openLogs() { context.open("settings/logs") }

  /// The local data row's summary: size and how many devices and messages.
  var dataSummary: String {
    guard let data = state?.data else { return context.common("phone.loading") }
    let rows = Dictionary(data.tables.map { ($0.table, $0.rows) }) { first, _ in first }
    return text(
      "phone.settings.dataSummary",
      [
        "size": SettingsPhone.bytes(data.databaseBytes),
        "devices": String(rows["instances"] ?? 0), "messages": String(rows["messages"] ?? 0),
      ])
  }

  var logSummary: String {
    text("phone.settings.logSummary", ["count": String(logCount ?? 0)])
  }

  /// What this build is: version, platform, features.
  var about: [(label: String, value: String)] {
    guard let state else { return [] }
    var rows: [(String, String)] = []
    if let build = state.build {
      rows.append((text("phone.settings.version"), build.version))
      rows.append((text("phone.settings.platform"), build.platform))
    }
    rows.append(
      (
        text("phone.settings.features"),
        state.features.map { $0.name.resolve(context.language) }.joined(separator: ", ")
      ))
    return rows.map { (label: $0.0, value: $0.1) }
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    if state == nil && loadFailure == nil {
      status.append(PhoneText(context.common("phone.loading")))
    }
    var sections = [
      PhoneOutline.Section(
        rows: [
          PhoneOutline.Row(
            label: PhoneText(text("phone.settings.data"), .label), [PhoneText(dataSummary)]),
          PhoneOutline.Row(
            label: PhoneText(text("phone.settings.logs"), .label), [PhoneText(logSummary)]),
        ])
    ]
    let plain = state?.plainHTTP ?? []
    sections.append(
      PhoneOutline.Section(
        text("phone.settings.plainHTTP"),
        rows: [
          PhoneOutline.Row([
            PhoneText(
              plain.isEmpty
                ? text("phone.settings.plainHTTPNone")
                : text("phone.settings.plainHTTPWarning", ["count": String(plain.count)]))
          ])
        ]
          + plain.map {
            PhoneOutline.Row([PhoneText($0.name, .foreign), PhoneText($0.origin, .foreign)])
          }))
    sections.append(
      PhoneOutline.Section(
        text("phone.settings.about"), rows: about.map { PhoneOutline.Row.pair($0.label, $0.value) })
    )
    return PhoneOutline(title: PhoneText(title, .title), status: status, sections: sections)
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(SettingsScreen(model: self)) }
  #endif
}
