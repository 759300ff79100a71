import CommandLineKit
import Essentials
import EssentialsTesting
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import LocalStoreTesting
import MessagesFeature
import SimAdminClient
import SimAdminSimulator

/// A transport that lets a test act on a device between SMS list pages (an injected fault).
final class HookedTransport: HTTPTransport {
  let inner = HTTPTransports.standard()
  let listPages = Locked(0)
  let hook: @Sendable (Int) -> Void

  init(hook: @escaping @Sendable (Int) -> Void = { _ in }) {
    self.hook = hook
  }

  func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(SimAdminError)
    -> HTTPResponse
  {
    let response = try await inner.send(request, timeout: timeout)
    if request.url.path == "/api/sms/list" {
      let page = listPages.withLock { count -> Int in
        count += 1
        return count
      }
      hook(page)
    }
    return response
  }
}

/// A real store, a simulated fleet on loopback, registered instances and an environment.
final class Harness: Sendable {
  let testStore: TestStore
  let fleet: SimulatedFleet
  let instances: [Instance]
  let connector: SimAdminConnector
  let streams = CapturedStreams(input: nil)
  let environment: AppEnvironment

  init(
    _ profiles: [DeviceProfile], timeout: TimeInterval = 5, transport: HookedTransport? = nil,
    language: AppLanguage = .english, schema: SchemaModule = Messages.schema
  ) async throws {
    testStore = try TestStore(modules: [schema])
    fleet = try await SimulatedFleet.start(profiles)
    var added: [Instance] = []
    for (device, profile) in zip(fleet.devices, profiles) {
      added.append(
        try testStore.instances.add(
          name: profile.name, origin: InstanceOrigin(parsing: device.origin.absoluteString)))
    }
    instances = added
    connector = SimAdminConnector(
      transport: transport ?? HookedTransport(), timeout: timeout, userAgentVersion: "test")
    environment = AppEnvironment.test(
      dataDirectory: testStore.directory.url, clock: testStore.clock.clock, language: language,
      streams: streams.streams,
      services: Services().registering(testStore.store).registering(connector)
        .registering(MessagesDisplay(timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .current)))
  }

  var store: Store { testStore.store }
  var archive: MessageArchive { MessageArchive(store: store) }

  func syncer(pageSize: Int) -> MessageSyncer {
    MessageSyncer(
      archive: archive, connector: connector, pageSize: pageSize, clock: testStore.clock.clock)
  }

  /// Parses `arguments` against the feature's commands and runs the command.
  func run(
    _ arguments: [String], input: String? = nil, environment custom: AppEnvironment? = nil
  ) async throws -> CommandResult {
    let root = CommandSpec(
      "msa", abstract: LocalizedString("module.name", in: MessagesStrings.catalogue),
      subcommands: Messages.module.commands.map { $0.spec(group: nil) })
    let parsed = try CommandParser().parse(arguments, root: root, globalOptions: [])
    var environment = custom ?? self.environment
    if let input { environment.streams = CapturedStreams(input: input).streams }
    guard let first = parsed.path.first,
      let command = Messages.module.commands.first(where: { $0.name == first })?
        .descendant(parsed.path.dropFirst()),
      let run = command.run
    else { throw CancellationError() }
    return try await run(CommandInvocation(parsed: parsed, environment: environment))
  }

  /// Every archived message.
  func all() throws -> [ArchivedMessage] {
    try archive.list(limit: 100_000)
  }

  /// Identity strings of a device's messages and of the archive's messages of one instance.
  static func identity(_ message: SimulatedSMS) -> String {
    // Invalid UTF-8 from the device is archived with U+FFFD in its place.
    let content =
      message.contentBytes.map { String(decoding: $0, as: UTF8.self) } ?? message.content
    return "\(message.direction)|\(message.phoneNumber)|\(message.timestamp)|\(content)"
  }

  static func identity(_ message: ArchivedMessage) -> String {
    "\(message.direction)|\(message.peer)|\(message.deviceTimestamp)|\(message.body)"
  }

  func stop() async {
    await fleet.stop()
  }
}

func failureMessage(_ error: any Error) -> String {
  (error as? any LocalizedFailure)?.localizedMessage(.english) ?? String(describing: error)
}
