import CommandLineKit
import Essentials
import EssentialsTesting
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import LocalStoreTesting
import SimAdminClient
import SimAdminSimulator
import Testing

@testable import DeviceModulesFeature

/// A real store, a real connector over loopback HTTP and a simulated fleet, for one test.
final class DeviceHarness: Sendable {
  let fleet: SimulatedFleet
  let testStore: TestStore
  let connector: SimAdminConnector
  let streams: CapturedStreams
  let instances: [Instance]

  private init(
    fleet: SimulatedFleet, testStore: TestStore, connector: SimAdminConnector,
    streams: CapturedStreams, instances: [Instance]
  ) {
    self.fleet = fleet
    self.testStore = testStore
    self.connector = connector
    self.streams = streams
    self.instances = instances
  }

  /// Starts `profiles`, registers each as an instance named after its profile, stores
  /// `passwords` (by profile name), and runs `body`; the fleet is always stopped.
  static func with<Result>(
    _ profiles: [DeviceProfile], passwords: [String: String] = [:], timeout: TimeInterval = 5,
    stdin: String? = nil, _ body: (DeviceHarness) async throws -> Result
  ) async throws -> Result {
    let fleet = try await SimulatedFleet.start(profiles)
    do {
      let testStore = try TestStore()
      var instances: [Instance] = []
      for device in fleet.devices {
        let origin = try InstanceOrigin(parsing: device.origin.absoluteString)
        let instance = try testStore.instances.add(name: device.profile.name, origin: origin)
        if let password = passwords[device.profile.name] {
          try testStore.store.credentials.setPassword(password, for: instance.id)
        }
        instances.append(instance)
      }
      let credentials = testStore.store.credentials
      let connector = SimAdminConnector(
        transport: HTTPTransports.standard(), timeout: timeout, userAgentVersion: "test",
        clock: testStore.clock.clock,
        credentials: { id in (try? credentials.password(for: id)) ?? nil })
      let harness = DeviceHarness(
        fleet: fleet, testStore: testStore, connector: connector,
        streams: CapturedStreams(input: stdin), instances: instances)
      let result = try await body(harness)
      await fleet.stop()
      return result
    } catch {
      await fleet.stop()
      throw error
    }
  }

  func environment(language: AppLanguage = .english) -> AppEnvironment {
    AppEnvironment.test(
      dataDirectory: testStore.directory.url, clock: testStore.clock.clock, language: language,
      streams: streams.streams,
      services: Services().registering(testStore.store).registering(connector))
  }

  /// Loads `sections` of the instance named `name` the way the routes do.
  func report(_ name: String, _ sections: [DeviceSection] = DeviceSection.allCases) async throws
    -> DeviceReport
  {
    let access = try DeviceAccess.resolve(name, in: environment())
    return await access.report(sections, environment: environment())
  }

  /// Runs `msa <arguments>` through the module's command.
  func run(_ arguments: [String], language: AppLanguage = .english) async throws -> CommandResult {
    let parsed = try Self.parse(arguments)
    let command = try #require(DeviceModules.module.commands.first?.run)
    return try await command(
      CommandInvocation(parsed: parsed, environment: environment(language: language)))
  }

  static func parse(_ arguments: [String]) throws -> ParsedCommand {
    let root = CommandSpec(
      "msa", abstract: LocalizedString("module.name", in: DeviceModulesStrings.catalogue),
      subcommands: DeviceModules.module.commands.map { $0.spec(group: nil) })
    return try CommandParser().parse(arguments, root: root, globalOptions: [])
  }
}

/// The error `body` threw, or nil.
func thrown(_ body: () async throws -> Void) async -> (any Error)? {
  do {
    try await body()
    return nil
  } catch {
    return error
  }
}

/// The payload of a result as a JSON object.
func payloadJSON(_ result: CommandResult) throws -> [String: Any] {
  let encoder = JSONEncoder()
  encoder.dateEncodingStrategy = .iso8601
  let data = try encoder.encode(result.payload)
  return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}
