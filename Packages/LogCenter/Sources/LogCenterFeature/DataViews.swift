import Essentials
import FeatureKit
import Foundation
import ViewKit

/// One instance reached over plain HTTP, for the settings page's warning list.
public struct PlainHTTPInstance: Sendable, Equatable, Codable {
  /// Its id.
  public var id: String
  /// Its name.
  public var name: String
  /// Its `http://` origin.
  public var origin: String

  /// An entry.
  public init(id: String, name: String, origin: String) {
    self.id = id
    self.name = name
    self.origin = origin
  }
}

/// What the `settings` page shows.
public struct SettingsState: Sendable {
  /// Version and platform, when the app registered an ``AppBuildInfo``.
  public var build: AppBuildInfo?
  /// The features compiled in: id and localized name.
  public var features: [(id: String, name: LocalizedString)]
  /// Instances reached over plain HTTP.
  public var plainHTTP: [PlainHTTPInstance]
  /// The local data summary.
  public var data: DataSummary

  /// A state.
  public init(
    build: AppBuildInfo?, features: [(id: String, name: LocalizedString)],
    plainHTTP: [PlainHTTPInstance], data: DataSummary
  ) {
    self.build = build
    self.features = features
    self.plainHTTP = plainHTTP
    self.data = data
  }
}

/// The views of the settings and local-data pages.
public enum DataViews {
  /// The `settings` page: app info, the plain-HTTP warning list, local data in brief.
  public static func settings(_ state: SettingsState, language: AppLanguage) -> ViewNode {
    func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
      LogCenterStrings.text(key, language, arguments)
    }
    let unknown = text("value.unknown")
    let features =
      state.features.isEmpty
      ? text("value.none")
      : state.features.map { "\($0.name.resolve(language)) (\($0.id))" }.joined(separator: ", ")
    let app: [ViewNode] = [
      .keyValue(KeyValue(key: text("field.version"), value: state.build?.version ?? unknown)),
      .keyValue(KeyValue(key: text("field.platform"), value: state.build?.platform ?? unknown)),
      .keyValue(KeyValue(key: text("field.dataDirectory"), value: state.data.dataDirectory)),
      .keyValue(KeyValue(key: text("field.features"), value: features)),
    ]
    var security: [ViewNode]
    if state.plainHTTP.isEmpty {
      security = [.text(Text(text("plainHTTP.none"), style: .muted))]
    } else {
      security = [
        .banner(
          Banner(
            text("plainHTTP.warning", ["count": String(state.plainHTTP.count)]), tone: .warning)),
        .list(
          ListNode(
            items: state.plainHTTP.map {
              ListItem(
                id: $0.id, title: $0.name, subtitle: $0.origin,
                badges: [Badge(text("plainHTTP.badge"), tone: .warning)])
            })),
      ]
    }
    let rows = Dictionary(state.data.tables.map { ($0.table, $0.rows) }) { first, _ in first }
    let data: [ViewNode] = [
      .keyValue(
        KeyValue(
          key: text("field.databaseSize"),
          value: CommandSupport.byteCount(state.data.databaseBytes))),
      .keyValue(
        KeyValue(key: text("field.instances"), value: String(rows["instances"] ?? 0))),
      .keyValue(
        KeyValue(
          key: text("field.logRecords"),
          value: String((rows["runtime_log"] ?? 0) + (rows["connection_log"] ?? 0)))),
      .inline([
        .button(Button(title: text("button.logs"), command: "view settings/logs")),
        .button(Button(title: text("button.data"), command: "view settings/data")),
      ]),
    ]
    return .screen(
      Screen(
        title: text("settings.title"),
        children: [
          .section(Section(title: text("section.app"), children: app)),
          .section(Section(title: text("section.plainHTTP"), children: security)),
          .section(Section(title: text("section.localData"), children: data)),
        ]))
  }

  /// The `settings/data` page: where the data is, its size, schema versions and tables.
  public static func localData(_ summary: DataSummary, language: AppLanguage) -> ViewNode {
    func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
      LogCenterStrings.text(key, language, arguments)
    }
    var children: [ViewNode] = []
    if summary.readOnly {
      children.append(.banner(Banner(text("data.readOnly"), tone: .warning)))
    }
    children += [
      .keyValue(KeyValue(key: text("field.dataDirectory"), value: summary.dataDirectory)),
      .keyValue(KeyValue(key: text("field.database"), value: summary.databasePath)),
      .keyValue(
        KeyValue(
          key: text("field.databaseSize"), value: CommandSupport.byteCount(summary.databaseBytes))
      ),
    ]
    let versions = summary.schemaVersions.sorted { $0.key < $1.key }.map {
      ViewNode.keyValue(KeyValue(key: $0.key, value: "v\($0.value)"))
    }
    children.append(.section(Section(title: text("section.schema"), children: versions)))
    let table = Table(
      columns: [
        TableColumn(id: "table", title: text("column.table"), minWidth: 8, priority: 2),
        TableColumn(
          id: "rows", title: text("column.rows"), minWidth: 4, priority: 1, alignment: .trailing),
      ],
      rows: summary.tables.map {
        TableRow(id: $0.table, cells: [TableCell($0.table), TableCell(String($0.rows))])
      })
    children.append(.section(Section(title: text("section.tables"), children: [.table(table)])))
    children.append(
      .inline([
        .button(Button(title: text("button.check"), command: "data check")),
        .button(Button(title: text("button.compact"), command: "data compact")),
      ]))
    return .screen(Screen(title: text("data.title"), children: children))
  }
}
