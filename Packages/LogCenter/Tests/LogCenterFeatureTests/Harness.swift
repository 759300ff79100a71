import CommandLineKit
import Essentials
import EssentialsTesting
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import LocalStoreTesting
import Testing
import ViewKit

@testable import LogCenterFeature

/// A real store in a temporary directory, the feature's commands, and captured streams.
final class Harness: Sendable {
  let testStore: TestStore
  let streams = CapturedStreams()
  let language: AppLanguage
  /// Whether commands log into the store's runtime log, as in the app.
  let recordsLog: Bool

  init(language: AppLanguage = .english, recordsLog: Bool = false) throws {
    testStore = try TestStore()
    self.language = language
    self.recordsLog = recordsLog
  }

  var store: Store { testStore.store }
  var clock: TestClock { testStore.clock }
  var directory: URL { testStore.directory.url }

  var environment: AppEnvironment {
    var environment = AppEnvironment.test(
      dataDirectory: directory, clock: clock.clock, language: language,
      streams: streams.streams, services: Services().registering(store))
    if recordsLog { environment.logger = logger() }
    return environment
  }

  /// A logger writing into the store's runtime log, as the app wires it.
  func logger(_ label: String = "msa.test") -> Logger {
    Logger(
      label: label, handler: StoreLogHandler(store: store), logLevel: .trace, clock: clock.clock)
  }

  /// Parses `arguments` as `msa` would and runs the command.
  func run(_ arguments: [String]) async throws -> CommandResult {
    let root = CommandSpec(
      "msa", abstract: LocalizedString("module.name", in: LogCenterStrings.catalogue),
      subcommands: LogCenter.module.commands.map { $0.spec(group: nil) })
    let parsed = try CommandParser().parse(arguments, root: root, globalOptions: [])
    let top = try #require(LogCenter.module.commands.first { $0.name == parsed.path.first })
    let command = try #require(top.descendant(parsed.path.dropFirst()))
    let run = try #require(command.run)
    return try await run(CommandInvocation(parsed: parsed, environment: environment))
  }

  /// The text and the `--json` output of a result, as the app prints them.
  func outputs(_ result: CommandResult, command: String = "test", width: Int = 120) throws
    -> (text: String, json: String)
  {
    let text = TextRenderer.render(result.view, options: RenderOptions(width: width))
    let json = try JSONOutput.render(command: command, data: result.payload)
    return (text, json)
  }

  /// The message a failed command shows.
  func failure(_ arguments: [String]) async -> (message: String, error: (any Error)?) {
    do {
      _ = try await run(arguments)
      return ("", nil)
    } catch {
      return (UserFacingMessage.of(error, language), error)
    }
  }

  func addInstance(_ name: String, _ origin: String) throws -> Instance {
    try testStore.instances.add(name: name, origin: try InstanceOrigin(parsing: origin))
  }

  func addProbe(
    _ instance: Instance, result: String, status: String, previous: String? = nil,
    reason: String? = nil
  ) throws {
    try ConnectionLogRepository(store: store).append(
      ConnectionLogEntry(
        instanceID: instance.id, instanceName: instance.name, at: clock.clock.now(),
        result: result, status: status, previousStatus: previous, latencyMS: 42, reason: reason))
  }

  func fileNames() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
  }
}

/// The JSON payload of a result as a dictionary.
func payloadObject(_ result: CommandResult) throws -> [String: Any] {
  let json = try JSONOutput.render(command: "t", data: result.payload)
  let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
  return try #require(object?["data"] as? [String: Any])
}
