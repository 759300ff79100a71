import Essentials
import Foundation
import ViewKit

/// The views of the log center: pure functions of their state and the language.
public enum LogViews {
  // MARK: - List

  /// The log list: one table row per record (row id = record id, Enter opens its detail).
  public static func list(_ items: [LogItem], language: AppLanguage) -> ViewNode {
    let items = items.map { $0.localized(language) }
    func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
      LogCenterStrings.text(key, language, arguments)
    }
    let subtitle = text("logs.count", ["count": String(items.count)])
    guard !items.isEmpty else {
      return .screen(
        Screen(
          title: text("logs.title"), subtitle: subtitle,
          children: [
            .empty(EmptyState(title: text("logs.empty.title"), message: text("logs.empty.message")))
          ]))
    }
    let columns = [
      TableColumn(id: "time", title: text("column.time"), minWidth: 20, maxWidth: 20, priority: 3),
      TableColumn(id: "level", title: text("column.level"), minWidth: 7, maxWidth: 8, priority: 2),
      TableColumn(
        id: "instance", title: text("column.instance"), minWidth: 6, maxWidth: 18, priority: 1),
      TableColumn(id: "message", title: text("column.message"), minWidth: 10, priority: 4),
      TableColumn(id: "id", title: text("column.id"), minWidth: 4, maxWidth: 8, priority: 0),
    ]
    let rows = items.map { item in
      TableRow(
        id: item.id.description,
        cells: [
          TableCell(LogTime.display(item.date), tone: .muted),
          TableCell(item.level.rawValue, tone: tone(item.level)),
          TableCell(item.instanceName ?? item.instanceID ?? "—"),
          TableCell(item.message),
          TableCell(item.id.description, tone: .muted),
        ],
        link: "settings/logs/\(item.id)")
    }
    return .screen(
      Screen(
        title: text("logs.title"), subtitle: subtitle,
        children: [.table(Table(columns: columns, rows: rows))]))
  }

  // MARK: - Detail

  /// One record in full (still redacted: secrets never reach the screen).
  public static func detail(_ item: LogItem, language: AppLanguage) -> ViewNode {
    let item = item.localized(language)
    func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
      LogCenterStrings.text(key, language, arguments)
    }
    var rows: [ViewNode] = [
      .keyValue(KeyValue(key: text("field.kind"), value: item.kind.title(language))),
      .keyValue(KeyValue(key: text("field.time"), value: LogTime.display(item.date))),
      .keyValue(
        KeyValue(key: text("field.level"), value: item.level.rawValue, tone: tone(item.level))),
      .keyValue(KeyValue(key: text("field.source"), value: item.source)),
    ]
    if item.instanceID != nil || item.instanceName != nil {
      let name = [item.instanceName, item.instanceID.map { "(\($0))" }].compactMap { $0 }
      rows.append(
        .keyValue(KeyValue(key: text("field.instance"), value: name.joined(separator: " "))))
    }
    rows.append(.keyValue(KeyValue(key: text("field.message"), value: item.message)))
    var children: [ViewNode] = [.section(Section(children: rows))]
    if let probe = item.probe {
      var probeRows: [ViewNode] = [
        .keyValue(KeyValue(key: text("field.result"), value: probe.result)),
        .keyValue(
          KeyValue(
            key: text("field.status"), value: probe.status,
            tone: probe.status == "online" ? .success : .warning)),
      ]
      if let previous = probe.previousStatus {
        probeRows.append(.keyValue(KeyValue(key: text("field.previousStatus"), value: previous)))
      }
      if let latency = probe.latencyMS {
        probeRows.append(
          .keyValue(
            KeyValue(
              key: text("field.latency"), value: text("value.milliseconds", ["ms": "\(latency)"])
            )))
      }
      if let reason = probe.reason {
        probeRows.append(.keyValue(KeyValue(key: text("field.reason"), value: reason)))
      }
      children.append(.section(Section(title: text("section.probe"), children: probeRows)))
      if !probe.requests.isEmpty {
        children.append(
          .section(
            Section(
              title: text("section.requests"),
              children: probe.requests.map { .text(Text($0.line, style: .code)) })))
      }
    }
    if !item.metadata.isEmpty {
      let pairs = item.metadata.sorted { $0.key < $1.key }.map {
        ViewNode.keyValue(KeyValue(key: $0.key, value: $0.value))
      }
      children.append(.section(Section(title: text("section.metadata"), children: pairs)))
    }
    return .screen(
      Screen(
        title: text("detail.title", ["id": item.id.description]),
        subtitle: item.kind.title(language), children: children))
  }

  static func tone(_ level: LogLevel) -> Tone {
    switch level {
    case .trace, .debug: .muted
    case .info, .notice: .info
    case .warning: .warning
    case .error, .critical: .danger
    }
  }
}
