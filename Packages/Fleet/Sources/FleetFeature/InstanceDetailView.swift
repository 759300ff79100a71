import Essentials
import Foundation
import SimAdminClient
import ViewKit

/// The instance detail (`fleet/:ref`): status with its layers' reason, the last known values
/// (marked stale with their age when not live), the latest SMS masked, and registry facts.
public enum InstanceDetailView {
  /// The view of `row` at `now` in `language`.
  public static func view(_ row: FleetRow, now: Date, language: AppLanguage) -> ViewNode {
    func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
      FleetStrings.text(key, language, arguments)
    }
    func pair(_ key: String, _ value: String?, tone: Tone? = nil) -> ViewNode? {
      guard let value, !value.isEmpty else { return nil }
      return .keyValue(KeyValue(key: text(key), value: value, tone: tone))
    }
    var children: [ViewNode] = []
    if row.isStale, let fetched = row.snapshotFetchedAt {
      children.append(
        .banner(
          Banner(
            text("detail.staleBanner", ["age": Freshness.age(of: fetched, now: now, language)]),
            tone: .warning)))
    }
    if row.isPlainHTTP {
      children.append(.banner(Banner(text("detail.plainHTTP"), tone: .warning)))
    }

    let status: [ViewNode?] = [
      pair("field.status", row.status.label(language), tone: row.status.tone),
      pair("field.reason", row.reason?.text(language, detail: row.detail)),
      pair("field.detail", row.reason?.isLayerTimeout == true ? nil : row.detail),
      pair(
        "field.checked",
        row.checkedAt.map { Freshness.age(of: $0, now: now, language) }
          ?? text("freshness.never")),
      pair("field.latency", row.latencyMS.map { "\($0) ms" }),
      pair("field.version", row.version),
    ]
    children.append(
      .section(Section(title: text("detail.status"), children: status.compactMap { $0 })))

    if let snapshot = row.snapshot {
      let tone: Tone? = row.isStale ? .muted : nil
      let data = snapshot.dataActive.map { text($0 ? "value.on" : "value.off") }
      let values: [ViewNode?] = [
        pair("field.phone", snapshot.phoneNumbers.joined(separator: ", "), tone: tone),
        pair("field.operator", snapshot.operatorName, tone: tone),
        pair("field.signal", snapshot.signalPercent.map { "\($0)%" }, tone: tone),
        pair("field.registration", snapshot.registration, tone: tone),
        pair("field.data", data, tone: tone),
        pair(
          "field.temperature",
          DeviceReading.celsius.checked(snapshot.temperatureCelsius).map {
            String(format: "%.1f°C", $0)
          },
          tone: tone),
        pair("field.model", snapshot.model, tone: tone),
        pair("field.imei", snapshot.imei, tone: tone),
        pair("field.iccid", snapshot.iccid, tone: tone),
        pair(
          "field.memory",
          DeviceReading.percent.checked(snapshot.memoryPercent).map {
            String(format: "%.0f%%", $0)
          },
          tone: tone),
        pair("field.uptime", snapshot.uptime, tone: tone),
      ]
      let title = row.isStale ? text("detail.deviceStale") : text("detail.device")
      let notes = (snapshot.notes ?? []).map { pair("field.note", $0.text(language), tone: .muted) }
      children.append(
        .section(Section(title: title, children: (values + notes).compactMap { $0 })))
      if let sms = snapshot.latestSMS {
        let direction = text(sms.direction == "outgoing" ? "value.outgoing" : "value.incoming")
        let when = sms.date.map { Freshness.age(of: $0, now: now, language) }
        let lines: [ViewNode?] = [
          pair("field.peer", "\(sms.peer) (\(direction))"),
          pair("field.preview", sms.maskedBody),
          pair("field.received", when),
        ]
        children.append(
          .section(Section(title: text("detail.sms"), children: lines.compactMap { $0 })))
      }
    }

    let registry: [ViewNode?] = [
      pair("field.id", row.id),
      pair("field.origin", row.origin),
      pair("field.group", row.group ?? text("value.ungrouped")),
      pair("field.tags", row.tags.isEmpty ? text("value.none") : row.tags.joined(separator: ", ")),
      pair("field.password", text(row.hasPassword ? "value.stored" : "value.notStored")),
      pair("field.revision", String(row.revision)),
    ]
    children.append(
      .section(Section(title: text("detail.registry"), children: registry.compactMap { $0 })))
    children.append(
      .inline([
        .button(
          Button(title: text("action.test"), command: "fleet test \(row.id)", role: .primary)),
        .button(Button(title: text("action.edit"), command: "view fleet/\(row.id)/edit")),
        .button(
          Button(
            title: text("action.remove"), command: "fleet remove \(row.id)", role: .destructive)),
      ]))
    return .screen(Screen(title: row.name, subtitle: row.origin, children: children))
  }
}
