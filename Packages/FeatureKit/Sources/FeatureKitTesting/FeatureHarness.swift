import CommandLineKit
import Essentials
import EssentialsTesting
import FeatureKit
import Foundation
import LocalStore
import LocalStoreTesting
import SimAdminClient
import SimAdminSimulator
import ViewKit

/// A feature as its tests run it: its module, the tables it adds to the store and the services
/// it expects beside the store and the connector.
public struct TestedFeature: Sendable {
  /// The module whose commands the harness runs.
  public let module: FeatureModule
  /// The schema modules the feature's store opens with (besides core).
  public let schema: [SchemaModule]
  /// Adds the feature's own services to the store and connector the harness registers.
  public let services: @Sendable (Services) -> Services

  /// A feature from its module, its schema and its extra services.
  public init(
    _ module: FeatureModule, schema: [SchemaModule] = [],
    services: @escaping @Sendable (Services) -> Services = { $0 }
  ) {
    self.module = module
    self.schema = schema
    self.services = services
  }
}

/// One feature's commands against real parts: a SQLite store in a temporary directory, a
/// SimAdmin connector and, when asked, a simulated fleet on 127.0.0.1 whose devices are
/// registered as instances named after their profiles.
///
/// Requests to the devices of the harness's fleets (its own and any ``attach(_:)``ed) go
/// straight into the simulator without a socket (HTTPKit's in-memory transport: the same
/// router, faults, deadlines and size cap as over loopback HTTP); other origins go over real
/// sockets. A test of the network itself passes `transport: HTTPTransports.standard()`;
/// `MSA_TEST_TRANSPORT=sockets` sends every harness's requests over loopback sockets for a
/// whole run (see ``DeviceRoute``).
///
/// `run` returns what the command returns and throws what it throws; `outcome` keeps either,
/// with the exit status, the message and what was written to the standard streams.
public final class FeatureHarness: Sendable {
  /// The feature under test.
  public let feature: TestedFeature
  /// The store, its temporary directory and its clock.
  public let testStore: TestStore
  /// The instances registered for ``devices``, in the same order.
  public let instances: [Instance]
  /// The connector every command uses; passwords come from the store's credentials.
  public let connector: SimAdminConnector
  /// The streams of ``environment`` (its input is the one given at creation).
  public let streams: CapturedStreams
  /// What the commands logged (unless the harness records into the store's runtime log).
  public let logs = InMemoryLogHandler()
  /// The language commands run in unless a run names another.
  public let language: AppLanguage
  private let input: String?
  private let recordsLog: Bool
  private let fleet: SimulatedFleet?
  private let services: Services
  /// The default transport, which knows the fleets; `nil` when the test gave its own.
  private let routing: FleetRoutingTransport?

  /// A harness with no devices: the store (a fresh ``TestStore`` with the feature's schema
  /// when nil) and a connector.
  ///
  /// - Parameters:
  ///   - input: standard input of ``environment``.
  ///   - recordsLog: commands log into the store's runtime log, as the app wires it, instead
  ///     of into ``logs``.
  ///   - timeout: the connector's seconds per request.
  ///   - transport: the connector's transport (default: in memory to the fleets the harness
  ///     knows, over loopback sockets elsewhere).
  ///   - route: how the default transport reaches the fleets' devices (default: the one
  ///     `MSA_TEST_TRANSPORT` names, in memory when it is unset).
  ///   - wrapping: wraps the transport (the default or `transport`) in one of the test's own,
  ///     which sees every request and answer: an injected fault or a count.
  /// - Throws: ``UnknownDeviceRoute`` when `MSA_TEST_TRANSPORT` names no route.
  public init(
    _ feature: TestedFeature, store: TestStore? = nil, language: AppLanguage = .english,
    input: String? = nil, recordsLog: Bool = false, timeout: TimeInterval = 5,
    transport: (any HTTPTransport)? = nil, route: DeviceRoute? = nil,
    wrapping: (@Sendable (any HTTPTransport) -> any HTTPTransport)? = nil
  ) throws {
    self.feature = feature
    let testStore = try store ?? TestStore(modules: feature.schema)
    self.testStore = testStore
    self.language = language
    self.input = input
    self.recordsLog = recordsLog
    streams = CapturedStreams(input: input)
    fleet = nil
    instances = []
    let credentials = testStore.store.credentials
    let routing =
      transport == nil ? FleetRoutingTransport(route: try route ?? .configured()) : nil
    self.routing = routing
    let chosen = transport ?? routing ?? HTTPTransports.standard()
    let clock = testStore.clock.clock
    // As the app wires it (AppRuntime's CredentialPasswordKeeper): refusals remembered in
    // the store's credential store.
    let connector = SimAdminConnector(
      transport: wrapping?(chosen) ?? chosen, timeout: timeout,
      userAgentVersion: "test", clock: clock, passwords: HarnessPasswords(credentials, clock))
    self.connector = connector
    services = feature.services(Services().registering(testStore.store).registering(connector))
  }

  private init(
    _ base: FeatureHarness, fleet: SimulatedFleet, passwords: [String: String]
  ) throws {
    feature = base.feature
    testStore = base.testStore
    language = base.language
    input = base.input
    recordsLog = base.recordsLog
    streams = base.streams
    connector = base.connector
    services = base.services
    routing = base.routing
    self.fleet = fleet
    var added: [Instance] = []
    for device in fleet.devices {
      let name = device.profile.name
      let instance = try base.registry.add(
        name: name, origin: InstanceOrigin(parsing: device.origin.absoluteString))
      if let password = passwords[name] {
        try base.store.credentials.setPassword(password, for: instance.id)
      }
      added.append(instance)
    }
    instances = added
  }

  /// A harness with a simulated fleet of `profiles` on 127.0.0.1, each device registered as
  /// an instance named after its profile, with `passwords` (by profile name) stored. Call
  /// ``stop()`` at the end, or run the test in ``use(_:)``. Requests reach the devices in
  /// memory unless `transport` or `route` says otherwise (`HTTPTransports.standard()` or
  /// `.sockets`: loopback sockets); `wrapping` puts a transport of the test's own around it. The devices' clocks are the system's unless `devicesOnTestClock`: then they
  /// read the harness's ``clock`` (a device stamps its messages with it, as a real device and
  /// msa share the wall clock).
  public convenience init(
    _ feature: TestedFeature, devices profiles: [DeviceProfile],
    passwords: [String: String] = [:], store: TestStore? = nil,
    language: AppLanguage = .english, input: String? = nil, recordsLog: Bool = false,
    timeout: TimeInterval = 5, transport: (any HTTPTransport)? = nil,
    route: DeviceRoute? = nil,
    wrapping: (@Sendable (any HTTPTransport) -> any HTTPTransport)? = nil,
    devicesOnTestClock: Bool = false
  ) async throws {
    let base = try FeatureHarness(
      feature, store: store, language: language, input: input, recordsLog: recordsLog,
      timeout: timeout, transport: transport, route: route, wrapping: wrapping)
    let fleet = try await SimulatedFleet.start(
      profiles, clock: devicesOnTestClock ? base.testStore.clock.clock : .system)
    base.attach(fleet)
    do {
      try self.init(base, fleet: fleet, passwords: passwords)
    } catch {
      await fleet.stop()
      throw error
    }
  }

  /// The simulated devices, in the order of the profiles (none without a fleet).
  public var devices: [SimulatedDevice] { fleet?.devices ?? [] }
  /// The opened store.
  public var store: Store { testStore.store }
  /// The clock of the store and the environment; advance it to move time.
  public var clock: TestClock { testStore.clock }
  /// The data directory.
  public var directory: URL { testStore.directory.url }
  /// The instance registry.
  public var registry: InstanceRepository { testStore.instances }

  /// The environment commands run in: the test clock, ``language``, ``streams``, the store,
  /// the connector and the feature's services.
  public var environment: AppEnvironment {
    makeEnvironment(language: language, streams: streams.streams)
  }

  private func makeEnvironment(language: AppLanguage, streams: StandardStreams)
    -> AppEnvironment
  {
    var environment = AppEnvironment.test(
      dataDirectory: directory, clock: clock.clock, language: language, streams: streams,
      services: services)
    environment.logger =
      recordsLog
      ? storeLogger()
      : Logger(label: "msa", handler: logs, clock: clock.clock)
    return environment
  }

  /// A logger writing into the store's runtime log at every level, as the app wires it.
  public func storeLogger(_ label: String = "msa.test") -> Logger {
    Logger(
      label: label, handler: StoreLogHandler(store: store), logLevel: .trace, clock: clock.clock)
  }

  /// Parses `msa <arguments>` against the feature's commands and runs the command.
  ///
  /// - Parameters:
  ///   - input: standard input for this run (fresh streams; default: ``streams``).
  ///   - language: the language of this run (default: ``language``).
  ///   - environment: the environment to run in instead of ``environment``.
  public func run(
    _ arguments: [String], input: String? = nil, language: AppLanguage? = nil,
    environment custom: AppEnvironment? = nil
  ) async throws -> CommandResult {
    var environment =
      custom
      ?? makeEnvironment(
        language: language ?? self.language, streams: streams.streams)
    if let language { environment.language = language }
    if let input { environment.streams = CapturedStreams(input: input).streams }
    return try await run(arguments, in: environment)
  }

  private func run(_ arguments: [String], in environment: AppEnvironment) async throws
    -> CommandResult
  {
    let module = feature.module
    let root = CommandSpec(
      "msa", abstract: module.name, subcommands: module.commands.map { $0.spec(group: nil) })
    let parsed = try CommandParser().parse(arguments, root: root, globalOptions: [])
    guard let first = parsed.path.first,
      let command = module.commands.first(where: { $0.name == first })?
        .descendant(parsed.path.dropFirst()),
      let run = command.run
    else { throw NotRunnable(path: parsed.path) }
    return try await run(CommandInvocation(parsed: parsed, environment: environment))
  }

  /// Runs `msa <arguments>` in fresh streams holding `input` (default: the harness's) and
  /// keeps what happened: the result or the error, the exit status and what was written.
  public func outcome(
    _ arguments: [String], input: String? = nil, language: AppLanguage? = nil
  ) async -> Outcome {
    let language = language ?? self.language
    let captured = CapturedStreams(input: input ?? self.input)
    let environment = makeEnvironment(language: language, streams: captured.streams)
    do {
      let result = try await run(arguments, in: environment)
      return Outcome(
        exitCode: result.exitCode, result: result, error: nil, language: language,
        output: captured.output, stderr: captured.error)
    } catch {
      let exitCode: ExitCode =
        error is NotRunnable ? .usage : UserFacingMessage.exitCode(of: error)
      return Outcome(
        exitCode: exitCode, result: nil, error: error, language: language,
        output: captured.output, stderr: captured.error)
    }
  }

  /// Registers `name` at `origin` directly in the store.
  @discardableResult
  public func addInstance(_ name: String, _ origin: String) throws -> Instance {
    try registry.add(name: name, origin: try InstanceOrigin(parsing: origin))
  }

  /// Sends requests to `fleet`'s devices in memory from now on (unless the harness was given
  /// its own transport or runs on the sockets route): for a fleet a test starts itself and
  /// registers.
  public func attach(_ fleet: SimulatedFleet) {
    routing?.attach(fleet)
  }

  /// Stops the simulated fleet: nothing stays listening.
  public func stop() async {
    await fleet?.stop()
  }

  /// Runs `body` with this harness and then stops the fleet, whether `body` throws or not.
  public func use<Value>(_ body: (FeatureHarness) async throws -> Value) async throws
    -> Value
  {
    do {
      let result = try await body(self)
      await stop()
      return result
    } catch {
      await stop()
      throw error
    }
  }

  /// What one command run came to.
  public struct Outcome: Sendable {
    /// The exit status the app would end with.
    public let exitCode: ExitCode
    /// The command's result, when it returned one.
    public let result: CommandResult?
    /// What the command (or parsing) threw.
    public let error: (any Error)?
    /// The language the command ran in.
    public let language: AppLanguage
    /// What the command wrote to standard output.
    public let output: String
    /// What the command wrote to standard error (progress, warnings).
    public let stderr: String

    /// The error's message as the app shows it, in the run's language (empty when none).
    public var message: String {
      error.map { UserFacingMessage.of($0, language) } ?? ""
    }

    /// The text output at `width` columns (empty when the command failed).
    public func text(width: Int = 100, language: AppLanguage? = nil) -> String {
      result?.text(width: width, language: language ?? self.language) ?? ""
    }

    /// The `data` of the `--json` output decoded as `T`; throws the message when the command
    /// failed.
    public func payload<T: Decodable>(_ type: T.Type) throws -> T {
      guard let result else { throw NoResult(message: message) }
      return try result.decodedPayload(type)
    }
  }

  /// The parsed path names a group without work of its own (the app would print its help).
  struct NotRunnable: Error, CustomStringConvertible {
    let path: [String]
    var description: String { "msa \(path.joined(separator: " ")) runs nothing by itself" }
  }

  /// A payload was asked of a run that failed.
  struct NoResult: Error, CustomStringConvertible {
    let message: String
    var description: String { "the command returned no result: \(message)" }
  }
}

extension CommandResult {
  /// The text output as the app prints it at `width` columns.
  public func text(width: Int = 100, language: AppLanguage = .english) -> String {
    TextRenderer.render(view, options: RenderOptions(width: width, language: language))
  }

  /// The `--json` output as the app prints it.
  public func json(command: String = "test", language: AppLanguage = .english) throws -> String {
    try JSONOutput.render(command: command, data: payload, language: language)
  }

  /// The `data` object of the `--json` output.
  public func jsonData() throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(try json().utf8))
    guard let data = (object as? [String: Any])?["data"] as? [String: Any] else {
      throw NotAnObject()
    }
    return data
  }

  /// The `data` of the `--json` output decoded as `T`.
  public func decodedPayload<T: Decodable>(_ type: T.Type) throws -> T {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try decoder.decode(Envelope<T>.self, from: Data(try json().utf8)).data
  }

  private struct Envelope<T: Decodable>: Decodable {
    let data: T
  }

  private struct NotAnObject: Error, CustomStringConvertible {
    var description: String { "the JSON output's data is not an object" }
  }
}

/// The harness's passwords: the store's credential store, refusals remembered there.
struct HarnessPasswords: PasswordKeeper {
  let credentials: any CredentialStore
  let clock: AppClock

  init(_ credentials: any CredentialStore, _ clock: AppClock) {
    self.credentials = credentials
    self.clock = clock
  }

  func storedPassword(for instanceID: String, origin: URL) -> StoredPassword {
    switch credentials.loginPassword(for: instanceID, origin: origin.absoluteString) {
    case .none: .none
    case .password(let password): .password(password)
    case .refused(let refusal): .refused(at: refusal.at)
    }
  }

  func passwordRefused(_ password: String, for instanceID: String, origin: URL) {
    try? credentials.recordRefusal(
      of: password, for: instanceID, origin: origin.absoluteString, at: clock.now())
  }
}
