import Essentials
import FeatureKit
import Foundation
import Testing
import ViewKit
import ViewKitTesting

@testable import LogCenterFeature

@Suite struct ViewSnapshotTests {
  static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

  static let items: [LogItem] = [
    LogItem(
      id: LogRecordID(kind: .runtime, rowID: 12), date: start.addingTimeInterval(3725),
      level: .error, source: "msa.messages", instanceID: "3f2a9c1d0b7e", instanceName: "深圳办公室",
      message: "sync failed: upstream error (no modem)",
      metadata: ["instance_id": "3f2a9c1d0b7e", "page": "3", "password": "x"]),
    LogItem(
      id: LogRecordID(kind: .connection, rowID: 7), date: start.addingTimeInterval(3600),
      level: .warning, source: "probe", instanceID: "3f2a9c1d0b7e", instanceName: "深圳办公室",
      message: "timeout: online → offline (timeout)",
      probe: .init(
        result: "timeout", status: "offline", previousStatus: "online", latencyMS: 10_000,
        reason: "timeout")),
    LogItem(
      id: LogRecordID(kind: .runtime, rowID: 11), date: start.addingTimeInterval(60),
      level: .info, source: "msa.fleet", instanceID: nil, instanceName: nil,
      message: "instance added"),
  ]

  static let summary = DataSummary(
    dataDirectory: "/home/ops/.local/share/multisimadmin",
    databasePath: "/home/ops/.local/share/multisimadmin/msa.sqlite", databaseBytes: 245_760,
    tables: [
      .init(table: "connection_log", rows: 1204), .init(table: "instances", rows: 12),
      .init(table: "runtime_log", rows: 5310), .init(table: "schema_versions", rows: 2),
    ],
    schemaVersions: ["core": 1, "messages": 2], readOnly: false)

  static let cases: [(width: Int, language: AppLanguage)] = [40, 80, 120].flatMap { width in
    AppLanguage.allCases.map { (width, $0) }
  }

  func render(_ node: ViewNode, _ width: Int, _ language: AppLanguage) -> String {
    TextRenderer.render(node, options: RenderOptions(width: width, language: language))
  }

  @Test(arguments: cases)
  func logList(width: Int, language: AppLanguage) {
    assertSnapshot(
      of: render(LogViews.list(Self.items, language: language), width, language),
      named: "log-list-\(width)-\(language.rawValue)")
  }

  @Test(arguments: cases)
  func recordDetail(width: Int, language: AppLanguage) {
    let text =
      render(LogViews.detail(Self.items[0], language: language), width, language) + "\n\n"
      + render(LogViews.detail(Self.items[1], language: language), width, language)
    assertSnapshot(of: text, named: "record-detail-\(width)-\(language.rawValue)")
  }

  @Test(arguments: cases)
  func localDataPage(width: Int, language: AppLanguage) {
    assertSnapshot(
      of: render(DataViews.localData(Self.summary, language: language), width, language),
      named: "local-data-\(width)-\(language.rawValue)")
  }

  @Test(arguments: [(80, AppLanguage.english), (80, .simplifiedChinese)])
  func settingsPage(width: Int, language: AppLanguage) {
    let state = SettingsState(
      build: AppBuildInfo(version: "0.1.0", platform: "linux-x86_64"),
      features: [(id: "settings", name: LogCenter.module.name)],
      plainHTTP: [
        PlainHTTPInstance(id: "3f2a9c1d0b7e", name: "深圳办公室", origin: "http://10.0.0.1:3000")
      ],
      data: Self.summary)
    assertSnapshot(
      of: render(DataViews.settings(state, language: language), width, language),
      named: "settings-\(width)-\(language.rawValue)")
  }

  @Test func emptyLogList() {
    let text = render(LogViews.list([], language: .english), 80, .english)
    #expect(text.contains("No log records"))
  }

  @Test func rowsLinkToTheirDetail() throws {
    guard case .screen(let screen) = LogViews.list(Self.items, language: .english),
      case .table(let table)? = screen.children.first
    else {
      Issue.record("expected a screen with a table")
      return
    }
    #expect(table.rows.map(\.id) == ["r12", "c7", "r11"])
    #expect(
      table.rows.map(\.link) == ["settings/logs/r12", "settings/logs/c7", "settings/logs/r11"])
  }
}
