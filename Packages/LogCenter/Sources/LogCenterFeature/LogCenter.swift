import Essentials
import FeatureKit
import Foundation
import LocalStore
import ViewKit

/// The log center and local data feature (设置 → 本地数据): the runtime and connection logs,
/// local data maintenance, registry export/import and the settings page.
///
/// It owns no tables: it reads and maintains the `core` tables of LocalStore.
public enum LogCenter {
  /// The feature module: id `settings`, order 90, home route `settings`.
  public static let module = FeatureModule(
    id: "settings", name: LogCenterStrings.string("module.name"),
    summary: LogCenterStrings.string("module.summary"), order: 90, home: "settings",
    routes: [settingsRoute, logsRoute, recordRoute, dataRoute],
    commands: [LogsCommands.command, DataCommands.command],
    catalogue: LogCenterStrings.catalogue, examples: LogCenterExamples.all,
    phoneScreens: SettingsPhone.screens)

  // MARK: - Routes

  static func string(_ key: String) -> LocalizedString { LogCenterStrings.string(key) }

  static let settingsRoute = FeatureRoute(
    "settings", title: string("settings.title"),
    actions: [
      RouteAction(key: "l", title: string("button.logs"), opens: "settings/logs"),
      RouteAction(key: "o", title: string("button.data"), opens: "settings/data"),
    ],
    load: { request in try loadSettings(request.environment) },
    view: { state, request in DataViews.settings(state, language: request.environment.language) }
  )

  static let logsRoute = FeatureRoute(
    "settings/logs", title: string("logs.title"),
    actions: [
      RouteAction(
        key: "x", title: string("action.clear"), arguments: ["logs", "clear", "--yes"],
        confirmation: string("action.clear.confirm")),
      RouteAction(
        key: "t", title: string("action.trim"), arguments: ["logs", "trim"],
        inputs: [RouteAction.Input(option: "older-than", label: string("field.olderThan"))]),
      RouteAction(
        key: "e", title: string("action.export"),
        arguments: ["logs", "export", "--format", "jsonl"],
        inputs: [RouteAction.Input(option: "output", label: string("field.file"))]),
    ],
    load: { request in
      let store = try request.environment.services.resolve(Store.self)
      return try LogBook(store: store).entries(LogFilter(limit: LogsCommands.defaultLimit))
    },
    view: { items, request in LogViews.list(items, language: request.environment.language) })

  static let recordRoute = FeatureRoute(
    "settings/logs/:id", title: LogCenterStrings.string("detail.routeTitle"),
    load: { request in
      let text = request.parameter("id")
      guard let id = LogRecordID(text) else { throw LogCenterError.invalidRecordID(text) }
      let store = try request.environment.services.resolve(Store.self)
      guard let item = try LogBook(store: store).entry(id) else {
        throw LogCenterError.recordNotFound(id.description)
      }
      return item
    },
    view: { item, request in LogViews.detail(item, language: request.environment.language) })

  static let dataRoute = FeatureRoute(
    "settings/data", title: string("data.title"),
    actions: [
      RouteAction(key: "i", title: string("button.check"), arguments: ["data", "check"]),
      RouteAction(key: "z", title: string("button.compact"), arguments: ["data", "compact"]),
      RouteAction(
        key: "b", title: string("action.backup"), arguments: ["data", "backup"],
        inputs: [.positional("file", label: string("field.file"))]),
      RouteAction(
        key: "e", title: string("action.exportRegistry"), arguments: ["data", "export-registry"],
        inputs: [.positional("file", label: string("field.file"))]),
      RouteAction(
        key: "m", title: string("action.importRegistry"), arguments: ["data", "import-registry"],
        inputs: [.positional("file", label: string("field.file"))],
        confirmation: string("action.importRegistry.confirm")),
    ],
    load: { request in
      let store = try request.environment.services.resolve(Store.self)
      return try LocalData(store: store, clock: request.environment.clock).summary()
    },
    view: { summary, request in
      DataViews.localData(summary, language: request.environment.language)
    })

  /// Everything the settings page shows, from the environment's services.
  static func loadSettings(_ environment: AppEnvironment) throws -> SettingsState {
    let services = environment.services
    let store = try services.resolve(Store.self)
    let build =
      services.contains(AppBuildInfo.self) ? try services.resolve(AppBuildInfo.self) : nil
    let features =
      services.contains(FeatureRegistry.self)
      ? try services.resolve(FeatureRegistry.self).modules.map { ($0.id, $0.name) } : []
    let plain = try InstanceRepository(store: store).list().filter(\.origin.isPlainHTTP).map {
      PlainHTTPInstance(id: $0.id, name: $0.name, origin: $0.origin.string)
    }
    return SettingsState(
      build: build, features: features.map { (id: $0.0, name: $0.1) }, plainHTTP: plain,
      data: try LocalData(store: store, clock: environment.clock).summary())
  }
}
