import CommandLineKit
import Essentials
import EssentialsTesting
import FeatureKit
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import LocalStoreTesting
import SimAdminClient
import SimAdminSimulator
import Testing
import ViewKit

/// A real store in a temporary directory, a real connector, and a way to run `msa` command
/// lines of the Fleet module against them.
final class Harness: Sendable {
  let store: Store
  let directoryURL: URL
  let clock: TestClock
  let keepAlive: (any Sendable)?
  let connector: SimAdminConnector
  let logs = InMemoryLogHandler()

  var registry: InstanceRepository { InstanceRepository(store: store) }

  /// A fresh ``TestStore``.
  convenience init() throws {
    let testStore = try TestStore()
    self.init(store: testStore.store, clock: testStore.clock, keepAlive: testStore)
  }

  /// An already opened store.
  init(store: Store, clock: TestClock = TestClock(), keepAlive: (any Sendable)? = nil) {
    self.store = store
    self.directoryURL = store.directory
    self.clock = clock
    self.keepAlive = keepAlive
    connector = SimAdminConnector(
      timeout: 10, userAgentVersion: "test",
      credentials: { id in (try? store.credentials.password(for: id)) ?? nil })
  }

  struct Outcome {
    var exitCode: ExitCode
    var result: CommandResult?
    var error: (any Error)?
    var stderr: String

    /// The error's message in English (empty when none).
    var message: String {
      error.map { UserFacingMessage.of($0, .english) } ?? ""
    }

    /// The text output at `width` columns.
    func text(width: Int = 100, language: AppLanguage = .english) -> String {
      guard let result else { return "" }
      return TextRenderer.render(
        result.view, options: RenderOptions(width: width, language: language))
    }

    /// The JSON payload decoded as `T`.
    func payload<T: Decodable>(_ type: T.Type) throws -> T {
      let encoder = JSONEncoder()
      encoder.dateEncodingStrategy = .iso8601
      let data = try encoder.encode(AnyEncodable(try requireResult(result).payload))
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .iso8601
      return try decoder.decode(T.self, from: data)
    }
  }

  func environment(streams: StandardStreams, language: AppLanguage = .english) -> AppEnvironment {
    var environment = AppEnvironment.test(
      dataDirectory: directoryURL, clock: clock.clock, language: language,
      streams: streams, services: Services().registering(store).registering(connector))
    environment.logger = Logger(label: "msa", handler: logs, clock: clock.clock)
    return environment
  }

  /// Runs `arguments` (without `msa`) with `input` on standard input.
  func run(_ arguments: [String], input: String? = nil, language: AppLanguage = .english) async
    -> Outcome
  {
    let streams = CapturedStreams(input: input)
    let root = CommandSpec(
      "msa", abstract: LocalizedString("module.name", in: FleetStrings.catalogue),
      subcommands: Fleet.module.commands.map { $0.spec(group: nil) })
    do {
      let parsed = try CommandParser().parse(arguments, root: root, globalOptions: [])
      guard let first = parsed.path.first,
        let top = Fleet.module.commands.first(where: { $0.name == first }),
        let command = top.descendant(parsed.path.dropFirst()), let run = command.run
      else {
        return Outcome(exitCode: .usage, stderr: streams.error)
      }
      let result = try await run(
        CommandInvocation(
          parsed: parsed, environment: environment(streams: streams.streams, language: language)))
      return Outcome(exitCode: result.exitCode, result: result, stderr: streams.error)
    } catch {
      return Outcome(
        exitCode: UserFacingMessage.exitCode(of: error), error: error, stderr: streams.error)
    }
  }

  /// Adds every device of `fleet` under its profile's name, storing `passwords` by name.
  func register(_ fleet: SimulatedFleet, passwords: [String: String] = [:]) async {
    for device in fleet.devices {
      let name = device.profile.name
      var arguments = ["fleet", "add", "--name", name, "--url", device.origin.absoluteString]
      if passwords[name] != nil { arguments.append("--password-stdin") }
      let outcome = await run(arguments, input: passwords[name])
      #expect(outcome.exitCode == .success, "\(outcome.message)")
    }
  }

  /// Everything a bad input must leave untouched: instances, groups, statuses, passwords.
  func fingerprint() throws -> String {
    let instances = try registry.list().map { "\($0.id)|\($0.name)|\($0.origin)|\($0.revision)" }
    let groups = try registry.listGroups().map { "\($0.id)|\($0.name)" }
    let statuses = try StatusRepository(store: store).all().map { "\($0.instanceID)|\($0.status)" }
    let passwords = (try? store.credentials.instanceIDsWithPasswords()) ?? ["unreadable"]
    return [instances, groups, statuses, passwords].map { $0.joined(separator: ",") }
      .joined(separator: "\n")
  }
}

struct AnyEncodable: Encodable {
  let value: any Encodable
  init(_ value: any Encodable) { self.value = value }
  func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

struct MissingResult: Error {}

func requireResult(_ result: CommandResult?) throws -> CommandResult {
  guard let result else { throw MissingResult() }
  return result
}
