import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import ViewKit

/// The app's own module: the `about` route and the `routes`, `modules` and `view` commands.
enum BuiltIns {
  static func module(extraCommands: [FeatureCommand]) -> FeatureModule {
    FeatureModule(
      id: "app", name: AppStrings.string("builtins.name"),
      summary: AppStrings.string("builtins.summary"), order: 0, home: nil,
      routes: [aboutRoute],
      commands: [routes, modules, view] + ConventionCommands.all + extraCommands,
      catalogue: AppStrings.catalogue, examples: examples,
      completers: ConventionCommands.completers)
  }

  // MARK: - about

  struct About: Sendable, Encodable {
    let version: String
    let platform: String
    let dataDirectory: String
    let features: [String]
  }

  static let aboutRoute = FeatureRoute(
    "about", title: AppStrings.string("route.about"),
    load: { request in
      let registry = try request.environment.services.resolve(FeatureRegistry.self)
      return About(
        version: AppInfo.version, platform: AppInfo.platform,
        dataDirectory: request.environment.dataDirectory.path,
        features: registry.modules.map(\.id))
    },
    view: { about, request in
      let language = request.environment.language
      let text = { (key: String) in AppStrings.text(key, language) }
      return .screen(
        Screen(
          title: "MultiSimAdmin",
          children: [
            .keyValue(KeyValue(key: text("about.version"), value: about.version)),
            .keyValue(KeyValue(key: text("about.platform"), value: about.platform)),
            .keyValue(KeyValue(key: text("about.data-directory"), value: about.dataDirectory)),
            .keyValue(
              KeyValue(
                key: text("about.features"),
                value: about.features.isEmpty
                  ? text("about.none") : about.features.joined(separator: ", "))),
          ]))
    })

  // MARK: - routes

  /// `msa routes --json`: `data` names its rows.
  struct RoutesPayload: Sendable, Encodable {
    let routes: [RouteRow]
  }

  /// `msa modules --json`: `data` names its rows.
  struct ModulesPayload: Sendable, Encodable {
    let modules: [ModuleRow]
  }

  struct RouteRow: Sendable, Encodable {
    let route: String
    let module: String
    let title: String
  }

  static let routes = FeatureCommand(
    CommandSpec("routes", abstract: AppStrings.string("command.routes"))
      .listing("routes", fields: ["route", "module", "title"])
  ) { invocation in
    let environment = invocation.environment
    let registry = try environment.services.resolve(FeatureRegistry.self)
    let rows = registry.routes.map {
      RouteRow(
        route: $0.route.pattern.description, module: $0.module.id,
        title: environment.text($0.route.title))
    }
    let text = { (key: String) in AppStrings.text(key, environment.language) }
    let table = Table(
      columns: [
        TableColumn(id: "route", title: text("routes.route"), minWidth: 10, priority: 3),
        TableColumn(id: "module", title: text("routes.module"), minWidth: 6, priority: 2),
        TableColumn(id: "title", title: text("routes.screen"), minWidth: 8, priority: 1),
      ],
      rows: rows.map {
        TableRow(
          id: $0.route,
          cells: [TableCell($0.route), TableCell($0.module), TableCell($0.title)])
      })
    return CommandResult(
      view: .screen(Screen(title: text("routes.title"), children: [.table(table)])),
      payload: RoutesPayload(routes: rows))
  }

  // MARK: - modules

  struct ModuleRow: Sendable, Encodable {
    let id: String
    let name: String
    let summary: String
    let routes: [String]
    let commands: [String]
  }

  static let modules = FeatureCommand(
    CommandSpec("modules", abstract: AppStrings.string("command.modules"))
      .listing("modules", fields: ["id", "name", "summary", "commands", "routes"])
  ) { invocation in
    let environment = invocation.environment
    let registry = try environment.services.resolve(FeatureRegistry.self)
    let rows = registry.modules.map { module in
      ModuleRow(
        id: module.id, name: environment.text(module.name),
        summary: environment.text(module.summary),
        routes: module.routes.map(\.pattern.description),
        commands: module.commands.map(\.name))
    }
    let text = { (key: String) in AppStrings.text(key, environment.language) }
    let table = Table(
      columns: [
        TableColumn(id: "id", title: text("modules.id"), minWidth: 6, priority: 4),
        TableColumn(id: "name", title: text("modules.name"), minWidth: 6, priority: 3),
        TableColumn(id: "counts", title: text("modules.counts"), minWidth: 7, priority: 1),
        TableColumn(id: "summary", title: text("modules.summary"), minWidth: 10, priority: 2),
      ],
      rows: rows.map {
        TableRow(
          id: $0.id,
          cells: [
            TableCell($0.id), TableCell($0.name),
            TableCell("\($0.routes.count) / \($0.commands.count)"),
            TableCell($0.summary),
          ])
      })
    return CommandResult(
      view: .screen(Screen(title: text("modules.title"), children: [.table(table)])),
      payload: ModulesPayload(modules: rows))
  }

  // MARK: - view

  struct ViewDump: Sendable, Encodable {
    let route: String
    let module: String
    let document: ViewDocument
  }

  static let view = FeatureCommand(
    CommandSpec(
      "view", abstract: AppStrings.string("command.view"),
      arguments: [ArgumentSpec("ROUTE", help: AppStrings.string("argument.route"))])
  ) { invocation in
    let environment = invocation.environment
    let path = try invocation.parsed.argument("ROUTE")
    let registry = try environment.services.resolve(FeatureRegistry.self)
    guard let match = registry.route(for: path) else {
      throw CommandFailure(AppStrings.string("error.unknown-route", ["path": path]))
    }
    let request = RouteRequest(path: path, parameters: match.parameters, environment: environment)
    let tree = await match.route.render(request)
    return CommandResult(
      view: tree,
      payload: ViewDump(route: path, module: match.module.id, document: ViewDocument(root: tree)))
  }
}

extension BuiltIns {
  /// Examples of the app's own commands, by command path.
  static let examples: [String: [String]] = [
    "routes": ["msa routes", "msa routes --json"],
    "modules": ["msa modules", "msa modules --json"],
    "view": ["msa view about", "msa view fleet --width 120", "msa view messages --json"],
    "help": ["msa help", "msa help fleet add", "msa help messages list"],
    "completion": [
      "msa completion bash > ~/.local/share/bash-completion/completions/msa",
      "msa completion zsh > \"${fpath[1]}/_msa\"",
      "msa completion fish > ~/.config/fish/completions/msa.fish",
    ],
    "manual": ["msa manual | man -l -", "msa manual --lang zh-Hans | man -l -"],
    "ui": ["msa ui", "msa ui --refresh 30", "msa ui --home ~/lab"],
    "demo": ["msa demo", "msa demo --lang zh-Hans"],
    "simulate": [
      "msa simulate",
      "msa simulate --devices 20 --faults 3=hang,5=down",
      "msa simulate --devices 3 --base-port 4100 --password secret --traffic 6",
    ],
  ]
}
