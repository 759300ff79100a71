import Essentials
import FeatureKit
import Foundation
import ViewKit

/// The Device feature (设备): the read-only sections of one device plus its own SMS.
///
/// Routes: `device/:ref` (overview) and `device/:ref/<section>` for every ``DeviceSection``.
/// Command: `msa device REF [SECTION]` (see ``DeviceCommand``). No console tab: nodes open
/// `device/<id>`. It owns no tables.
public enum DeviceModules {
  /// The module the app registers.
  public static let module = FeatureModule(
    id: "device", name: DeviceModulesStrings.string("module.name"),
    summary: DeviceModulesStrings.string("module.summary"), order: 30,
    home: nil, routes: routes, commands: [DeviceCommand.command],
    catalogue: DeviceModulesStrings.catalogue, examples: DeviceExamples.all,
    phoneScreens: DevicePhone.screens)

  // MARK: - Routes

  static var routes: [FeatureRoute] {
    [overviewRoute] + DeviceSection.allCases.map(sectionRoute)
  }

  static var overviewRoute: FeatureRoute {
    FeatureRoute(
      "device/:ref", title: DeviceModulesStrings.string("route.overview"),
      actions: [
        RouteAction(
          key: "r", title: DeviceModulesStrings.string("action.refresh"),
          arguments: ["device", "{param:ref}"]),
        revealAction,
      ],
      load: { request in
        let access = try DeviceAccess.resolve(request.parameter("ref"), in: request.environment)
        return await access.report(
          DeviceSection.allCases, environment: request.environment,
          showBodies: request.flags.contains("bodies"))
      },
      view: { report, request in DeviceViews.overview(report, context(request)) })
  }

  static func sectionRoute(_ section: DeviceSection) -> FeatureRoute {
    var actions = [
      RouteAction(
        key: "r", title: DeviceModulesStrings.string("action.refresh"),
        arguments: ["device", "{param:ref}", section.rawValue])
    ]
    if section == .sms {
      actions += [
        revealAction,
        RouteAction(
          key: "s", title: DeviceModulesStrings.string("action.send"),
          arguments: ["device", "{param:ref}", "sms", "send"],
          inputs: [
            RouteAction.Input(option: "to", label: DeviceModulesStrings.string("input.to")),
            RouteAction.Input(option: "text", label: DeviceModulesStrings.string("input.text")),
          ]),
        RouteAction(
          key: "d", title: DeviceModulesStrings.string("action.delete"),
          arguments: ["device", "{param:ref}", "sms", "delete", "--yes", "{selection}"],
          confirmation: DeviceModulesStrings.string("action.delete.confirm"), needsSelection: true),
      ]
    }
    return FeatureRoute(
      "device/:ref/\(section.rawValue)",
      title: DeviceModulesStrings.string("section.\(section.rawValue)"),
      actions: actions,
      load: { request in
        let access = try DeviceAccess.resolve(request.parameter("ref"), in: request.environment)
        return await access.report(
          [section], environment: request.environment,
          showBodies: request.flags.contains("bodies"))
      },
      view: { report, request in
        DeviceViews.sectionScreen(
          report.state(section) ?? .loading(section), instance: report.instance,
          context(request))
      })
  }

  /// The console key that shows or masks the device's SMS bodies.
  static let revealKey: Character = "v"

  static var revealAction: RouteAction {
    RouteAction(
      key: revealKey, title: DeviceModulesStrings.string("action.showBodies"), toggles: "bodies")
  }

  static func context(_ request: RouteRequest) -> ViewContext {
    ViewContext(
      language: request.environment.language, now: request.environment.clock.now(),
      ref: request.parameter("ref"), revealKey: revealKey)
  }
}
