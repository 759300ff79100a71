import Essentials
import FeatureKit
import Foundation
import LocalStore

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// One log record (`settings/logs/:id`): every field as label: value, in the phone's time
/// zone.
@MainActor
final class LogRecordModel: PhoneScreenModel {
  let context: PhoneContext
  let id: String
  let changes = PhoneChanges()

  private(set) var item: LogItem? { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }

  init(_ context: PhoneContext, id: String) {
    self.context = context
    self.id = id
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    SettingsPhone.text(key, context, arguments)
  }

  var title: String { text("detail.routeTitle") }

  func appear() async { await reload() }
  func refresh() async { await reload() }

  private func reload() async {
    do {
      guard let recordID = LogRecordID(id) else { throw LogCenterError.invalidRecordID(id) }
      let store = try SettingsPhone.store(context)
      let language = context.language
      let found = try await context.offMain {
        try LogBook(store: store).entry(recordID)?.localized(language)
      }
      guard let found else { throw LogCenterError.recordNotFound(recordID.description) }
      item = found
      loadFailure = nil
    } catch {
      loadFailure = SettingsPhone.message(error, context)
    }
  }

  /// The record's fields, by section.
  var sections: [(title: String?, rows: [(label: String, value: String)])] {
    guard let item else { return [] }
    var main: [(String, String)] = [
      (text("field.kind"), item.kind.title(context.language)),
      (text("field.time"), context.fullTime(item.date)),
      (text("field.level"), text("phone.logs.level.\(item.level.rawValue)")),
      (text("field.source"), item.source),
    ]
    if let name = item.instanceName ?? item.instanceID {
      main.append((text("field.instance"), name))
    }
    main.append((text("field.message"), item.message))
    var sections: [(String?, [(String, String)])] = [(nil, main)]
    if let probe = item.probe {
      var rows = [
        (text("field.result"), probe.result),
        (text("field.status"), EventText.status(probe.status, context.language)),
      ]
      if let previous = probe.previousStatus {
        rows.append((text("field.previousStatus"), EventText.status(previous, context.language)))
      }
      if let latency = probe.latencyMS {
        rows.append((text("field.latency"), text("value.milliseconds", ["ms": String(latency)])))
      }
      if let reason = probe.reason {
        rows.append((text("field.reason"), EventText.reason(reason, context.language)))
      }
      sections.append((text("section.probe"), rows))
    }
    if !item.metadata.isEmpty {
      sections.append(
        (
          text("section.metadata"),
          item.metadata.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        ))
    }
    return sections.map { section in
      (title: section.0, rows: section.1.map { (label: $0.0, value: $0.1) })
    }
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    if item == nil && loadFailure == nil {
      status.append(PhoneText(context.common("phone.loading")))
    }
    return PhoneOutline(
      title: PhoneText(title, .title), status: status,
      sections: sections.map { section in
        PhoneOutline.Section(
          section.title,
          rows: section.rows.map {
            PhoneOutline.Row(label: PhoneText($0.label, .label), [PhoneText($0.value, .foreign)])
          })
      })
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(LogRecordScreen(model: self)) }
  #endif
}
