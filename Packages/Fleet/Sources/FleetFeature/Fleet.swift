import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminClient
import ViewKit

/// The Fleet feature (节点): the instance registry, connection tests with plain-language
/// status, the workbench, instance detail and the add/edit form.
public enum Fleet {
  /// The module the app registers. Fleet owns no tables: it uses the `core` schema.
  public static let module = FeatureModule(
    id: "fleet", name: FleetStrings.string("module.name"),
    summary: FleetStrings.string("module.summary"), order: 10, home: "fleet",
    routes: routes,
    commands: [FleetCommands.command, GroupCommands.groups, GroupCommands.tags],
    catalogue: FleetStrings.catalogue, examples: FleetExamples.all)

  static var routes: [FeatureRoute] {
    let string = { (key: String) in FleetStrings.string(key) }
    let workbenchActions = [
      RouteAction(
        key: "t", title: string("action.test"), arguments: ["fleet", "test", "{selection}"],
        needsSelection: true, outcome: string("outcome.tested")),
      RouteAction(
        key: "d", title: string("action.remove"),
        arguments: ["fleet", "remove", "{selection}", "--yes"],
        confirmation: string("confirm.remove"), needsSelection: true,
        outcome: string("outcome.removed")),
      // One test per row, so each row leaves its pending state as soon as its own device
      // answers; a hanging device keeps only its own row waiting.
      RouteAction(
        key: "r", title: string("action.refresh"), arguments: ["fleet", "test", "{rows}"],
        outcome: string("outcome.tested")),
      RouteAction(key: "a", title: string("action.add"), opens: "fleet/new"),
      RouteAction(
        key: "e", title: string("action.edit"), opens: "fleet/{selection}/edit",
        needsSelection: true),
      RouteAction(
        key: "m", title: string("action.sections"), opens: "device/{selection}",
        needsSelection: true),
    ]
    let detailActions = [
      RouteAction(
        key: "t", title: string("action.test"), arguments: ["fleet", "test", "{param:ref}"],
        outcome: string("outcome.tested")),
      RouteAction(
        key: "d", title: string("action.remove"),
        arguments: ["fleet", "remove", "{param:ref}", "--yes"],
        confirmation: string("confirm.remove")),
      RouteAction(key: "e", title: string("action.edit"), opens: "fleet/{param:ref}/edit"),
      RouteAction(
        key: "l", title: string("action.login"), arguments: ["fleet", "login", "{param:ref}"]),
      RouteAction(
        key: "u", title: string("action.logout"), arguments: ["fleet", "logout", "{param:ref}"]),
      RouteAction(key: "m", title: string("action.sections"), opens: "device/{param:ref}"),
      // Removing never writes to the device; releasing it from its Hub is a choice of its
      // own, made on a screen that shows the Hub's address first.
      RouteAction(
        key: "h", title: string("action.release"), opens: "fleet/{param:ref}/release"),
    ]
    let releaseActions = [
      RouteAction(
        key: "d", title: string("action.releaseAndRemove"),
        arguments: ["fleet", "remove", "{param:ref}", "--release-hub", "--yes"],
        confirmation: string("confirm.release"))
    ]
    // The add and edit screens are forms: the console opens their fields at once, and `s`
    // opens them again. A password is set from the command line (`--password-stdin`), never
    // typed into the console.
    let addAction = RouteAction(
      key: "s", title: string("form.save"), arguments: ["fleet", "add"],
      inputs: [
        .init(option: "name", label: string("form.name")),
        .init(option: "url", label: string("form.url")),
        .init(option: "tag", label: string("form.tag"), isOptional: true),
        .init(option: "group", label: string("form.group"), isOptional: true),
      ])
    let editAction = RouteAction(
      key: "s", title: string("form.save"), arguments: ["fleet", "edit", "{param:ref}"],
      inputs: [
        .init(option: "name", label: string("form.name")),
        .init(option: "url", label: string("form.url")),
        .init(option: "group", label: string("form.group"), isOptional: true),
      ])
    return [
      FeatureRoute(
        "fleet", title: string("route.workbench"), actions: workbenchActions,
        load: { request in
          let store = try request.environment.services.resolve(Store.self)
          let rows = try FleetRow.load(InstanceRepository(store: store).list(), store: store)
          return WorkbenchState(rows: rows, now: request.environment.clock.now())
        },
        view: { state, request in
          WorkbenchView.view(state, language: request.environment.language)
        }),
      FeatureRoute(
        "fleet/new", title: string("route.new"), actions: [addAction], formKey: "s",
        load: { _ in InstanceFormState(editing: nil, draft: InstanceDraft()) },
        view: { state, request in
          InstanceFormView.view(state, language: request.environment.language)
        }),
      FeatureRoute(
        "fleet/:ref", title: string("route.detail"), actions: detailActions,
        load: { request in
          let store = try request.environment.services.resolve(Store.self)
          let instance = try InstanceRepository(store: store).resolve(
            reference: request.parameter("ref"))
          return (try FleetRow.load([instance], store: store)[0], request.environment.clock.now())
        },
        view: { (state: (FleetRow, Date), request) in
          InstanceDetailView.view(state.0, now: state.1, language: request.environment.language)
        }),
      FeatureRoute(
        "fleet/:ref/edit", title: string("route.edit"), actions: [editAction], formKey: "s",
        load: { request in
          let store = try request.environment.services.resolve(Store.self)
          let registry = InstanceRepository(store: store)
          let instance = try registry.resolve(reference: request.parameter("ref"))
          let row = try FleetRow.load([instance], store: store)[0]
          let draft = InstanceDraft(
            name: row.name, url: row.origin, tags: row.tags.joined(separator: ", "),
            group: row.group ?? "")
          let problems = draft.problems(
            instances: try registry.list(), groups: try registry.listGroups(),
            editingID: instance.id)
          return InstanceFormState(editing: row, draft: draft, problems: problems)
        },
        view: { state, request in
          InstanceFormView.view(state, language: request.environment.language)
        }),
      FeatureRoute(
        "fleet/:ref/release", title: string("route.release"), actions: releaseActions,
        load: { request in
          let store = try request.environment.services.resolve(Store.self)
          let instance = try InstanceRepository(store: store).resolve(
            reference: request.parameter("ref"))
          let connector = try request.environment.services.resolve(SimAdminConnector.self)
          let reading = await InstanceRemover(store: store, connector: connector)
            .hubReading(instance)
          return ReleaseScreenState(name: instance.name, reading: reading)
        },
        view: { state, request in
          ReleaseScreenState.view(state, language: request.environment.language)
        }),
    ]
  }
}

/// The release screen: what `GET /api/hub` says, read just now, before anything is written.
struct ReleaseScreenState: Sendable {
  var name: String
  var reading: HubReading

  /// The title names the Hub's address, so the release's confirmation (which names the
  /// screen) does too.
  static func view(_ state: ReleaseScreenState, language: AppLanguage) -> ViewNode {
    let text = { (key: String, arguments: [String: String]) in
      FleetStrings.text(key, language, arguments)
    }
    let hub: String
    var bound = false
    switch state.reading {
    case .bound(let url, _):
      hub = text("hub.bound", ["hub": url])
      bound = true
    case .standalone: hub = text("hub.standalone", [:])
    case .waiting: hub = text("hub.waiting", [:])
    case .notSupported: hub = text("hub.notSupported", [:])
    case .unreadable(let error):
      hub = text("hub.unreadable", ["reason": error.localizedMessage(language)])
    }
    return .screen(
      Screen(
        title: text("release.screenTitle", ["name": state.name, "hub": hub]),
        children: [
          .text(
            Text(
              bound ? text("release.explain", [:]) : text("release.notBound", [:]),
              style: .muted))
        ]))
  }
}
