import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import SimAdminSimulator
import ViewKit

/// `msa demo`: the whole product against an embedded simulated fleet, with no hardware.
enum DemoCommand {
  /// Six devices that show every state the console knows.
  static let profiles: [DeviceProfile] = [
    // Its live traffic includes late messages and identical pairs (issue 14).
    DeviceProfile(
      name: "Beijing CPE", smsCount: 80, seed: 11, trafficPerMinute: 4,
      smsCases: [.late(minutes: 180), .identical]),
    DeviceProfile(name: "Shanghai Dongle", smsCount: 50, seed: 12, trafficPerMinute: 2),
    DeviceProfile(name: "Guangzhou Router", password: "demo-router-pass", smsCount: 30, seed: 13),
    DeviceProfile(name: "Hangzhou No Modem", hasModem: false, seed: 14),
    DeviceProfile(
      name: "Chengdu Legacy", version: "1.1.8", smsCount: 20, seed: 15, smsCases: [.noStats]),
    DeviceProfile(name: "Wuhan Hanging", seed: 16, faults: [FaultRule(.hang)]),
  ]

  /// A demo's devices answer within this many seconds or count as hanging.
  static let requestTimeout: TimeInterval = 3

  static let command = FeatureCommand(
    CommandSpec(
      "demo", abstract: AppStrings.string("command.demo"),
      discussion: AppStrings.string("command.demo.discussion"),
      options: [AppCommands.refreshOption]
    ).withoutJSON()
  ) { invocation in
    let refresh = try invocation.parsed.optionalInt("refresh", range: 1...86_400)
    let base = invocation.environment
    let application = try base.services.resolve(MSAApplication.self)
    let keepsData = invocation.parsed.optionalString("home") != nil
    let home =
      keepsData
      ? base.dataDirectory
      : FileManager.default.temporaryDirectory.appendingPathComponent(
        "msa-demo-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true)
    defer {
      if !keepsData { try? FileManager.default.removeItem(at: home) }
    }

    let say = { (key: String, arguments: [String: String]) in
      base.streams.writeError(AppStrings.text(key, base.language, arguments) + "\n")
    }
    say("demo.starting", ["count": "\(profiles.count)"])
    let fleet = try await SimulatedFleet.start(profiles, clock: base.clock)
    do {
      let environment = application.environment(
        base, dataDirectory: home, requestTimeout: requestTimeout)
      say("demo.preparing", ["home": home.path])
      await prepare(fleet, application: application, environment: environment)
      if TerminalSessionCheck.isInteractive {
        try await AppCommands.openConsole(environment, refresh: refresh)
      } else {
        try await tour(fleet, application: application, environment: environment)
      }
    } catch {
      await fleet.stop()
      throw error
    }
    await fleet.stop()
    return .written()
  }

  /// Registers the devices, tests them and takes a first sync, through the same commands a
  /// user would type; a build without a feature simply skips its step.
  static func prepare(
    _ fleet: SimulatedFleet, application: MSAApplication, environment: AppEnvironment
  ) async {
    for device in fleet.devices where application.hasCommand(["fleet", "add"]) {
      var arguments = [
        "fleet", "add", "--name", device.profile.name, "--url", device.origin.absoluteString,
        "--tag", "demo",
      ]
      if device.profile.password != nil { arguments.append("--password-stdin") }
      // A kept --home already has the devices from an earlier demo: that is fine.
      _ = try? await application.execute(
        arguments, in: environment, input: device.profile.password)
    }
    let timeout = "\(Int(requestTimeout))"
    for step in [["fleet", "test", "--all", "--timeout", timeout], ["messages", "sync"]]
    where application.hasCommand(Array(step.prefix(2))) {
      _ = try? await application.execute(step, in: environment)
    }
  }

  /// What `msa demo` prints when it is not on a terminal: the workbench, the message list
  /// and one device section, then it exits.
  static func tour(
    _ fleet: SimulatedFleet, application: MSAApplication, environment: AppEnvironment
  ) async throws {
    let first = fleet.devices[0].profile.name
    let stops: [(title: String, command: [String], arguments: [String])] = [
      ("demo.tour.fleet", ["fleet", "list"], []),
      ("demo.tour.messages", ["messages", "list"], ["--limit", "8"]),
      ("demo.tour.device", ["device"], [first, "sim"]),
    ]
    var sections: [String] = []
    for stop in stops where application.hasCommand(stop.command) {
      let arguments = stop.command + stop.arguments
      let result = try await application.execute(arguments, in: environment)
      let heading = AppStrings.text(stop.title, environment.language)
      let command =
        "$ msa "
        + arguments.map { $0.contains(" ") ? "'\($0)'" : $0 }
        .joined(separator: " ")
      let body = TextRenderer.render(
        result.view,
        options: RenderOptions(
          width: environment.output.width, colorMode: environment.output.colorMode,
          language: environment.language, theme: environment.theme))
      sections.append([heading, command, "", body].joined(separator: "\n"))
    }
    sections.append(AppStrings.text("demo.tour.end", environment.language))
    environment.streams.writeOutput(sections.joined(separator: "\n\n") + "\n")
  }
}

/// Whether the demo can take over the terminal.
enum TerminalSessionCheck {
  static var isInteractive: Bool {
    isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
  }
}
