import AppCore
import AppRuntime
import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import LocalStoreTesting
import Testing
import ViewKit

@Suite("The app runtime both shells share")
struct AppRuntimeTests {
  @Test func theDispatcherRunsACommandLineAndReadsFailures() async throws {
    let registry = try makeRegistry()
    let dispatcher = CommandDispatcher(
      registry: registry, commandTree: registry.commandTree(root: root), globalOptions: [])
    let environment = AppEnvironment.test()
    #expect(
      await dispatcher.outcome(of: ["fleet", "test", "id-alpha"], in: environment)
        == ActionOutcome(succeeded: true))
    // A failure the command's view names, and one it throws.
    #expect(
      await dispatcher.outcome(of: ["fleet", "test", "id-bravo"], in: environment)
        == ActionOutcome(succeeded: false, message: "Offline"))
    #expect(
      await dispatcher.outcome(of: ["fleet", "add", "--name", "taken"], in: environment)
        == ActionOutcome(succeeded: false, message: "--name <NAME> is taken."))
    let unknown = await dispatcher.outcome(of: ["fleet", "fly"], in: environment)
    #expect(!unknown.succeeded && unknown.message?.isEmpty == false)
  }

  @Test func thePhoneEnvironmentKeepsPasswordsInItsOwnerOnlyCredentialsFile() throws {
    let home = try TemporaryDirectory(prefix: "appcore")
    let directory = try PhoneRuntime.dataDirectory(applicationSupport: home.url)
    #expect(directory.lastPathComponent == "MultiSimAdmin")
    let mode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o700)
    let environment = PhoneRuntime.environment(
      registry: try makeRegistry(), dataDirectory: directory, language: .simplifiedChinese,
      clock: .system, schemaModules: [], buildInfo: AppBuildInfo(version: "9.9", platform: "ios"))
    let store = try environment.services.resolve(Store.self)
    #expect(store.credentials is ProtectedCredentialStore)
    try store.credentials.setPassword("s3cret", for: "node-1")
    let file = directory.appendingPathComponent("credentials.json")
    let fileMode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]
    #expect((fileMode as? NSNumber)?.intValue == 0o600)
    #expect(try ProtectedCredentialStore(directory: directory).password(for: "node-1") == "s3cret")
    try store.credentials.removePassword(for: "node-1")
    #expect(try store.credentials.instanceIDsWithPasswords().isEmpty)
    // Linux has no file protection; iOS gives the file the complete one.
    #expect(ProtectedCredentialStore.protection == nil)
    #expect(try environment.services.resolve(AppBuildInfo.self).version == "9.9")
  }

  @Test func thePhoneSpeaksChineseOnlyForSimplifiedChinese() {
    #expect(PhoneRuntime.language(preferred: ["zh-Hans-CN", "en"]) == .simplifiedChinese)
    #expect(PhoneRuntime.language(preferred: ["zh-CN"]) == .simplifiedChinese)
    #expect(PhoneRuntime.language(preferred: ["zh-Hant-TW"]) == .english)
    #expect(PhoneRuntime.language(preferred: ["de-DE", "zh-Hans"]) == .english)
    #expect(PhoneRuntime.language(preferred: []) == .english)
  }

  @MainActor
  @Test func aPhoneSessionLoadsEachScreenOnceAndResumesItWithoutFetching() async throws {
    let log = CallLog()
    let module = FeatureModule(
      id: "fleet", name: string("fleet"), summary: string("x"), order: 10, home: "fleet",
      routes: fleetModule.routes, commands: fleetModule.commands, catalogue: catalogue,
      phoneScreens: ["fleet", "fleet/:id"].map { pattern in
        PhoneScreen(pattern) { CountingScreen(path: $0.path, context: $0.context, log: log) }
      })
    let registry = try makeRegistry([module])
    #expect(registry.routesWithoutPhoneScreen == [])
    let sandbox = try TemporaryDirectory(prefix: "phone-session")
    let session = PhoneSession(
      context: AppContext(registry: registry, language: .english),
      environment: AppEnvironment.test(dataDirectory: sandbox.url), timeZone: .current,
      documents: sandbox.url)
    var changes = 0
    session.onChange = { changes += 1 }
    session.start()
    await session.idle()
    #expect(log.calls == ["appear fleet"])
    // A screen's model runs its commands through the dispatcher the console shares.
    let home = try #require(session.visible as? CountingScreen)
    #expect(await home.runTest("id-alpha") == "ok")
    #expect(await home.runTest("id-bravo") == "exit 1")
    home.context.open("fleet/id-alpha")
    await session.idle()
    #expect(session.state.screen.path == "fleet/id-alpha")
    #expect(log.calls.last == "appear fleet/id-alpha")
    // Back: the list resumes with what the closed screen said, and loads nothing.
    (session.visible as? CountingScreen)?.context.close(notice: "Saved")
    await session.idle()
    #expect(log.calls.suffix(1) == ["resume fleet Saved"])
    #expect(log.calls.filter { $0 == "appear fleet" }.count == 1)
    // No phone screen, no navigation.
    session.open("nowhere/at/all")
    #expect(session.state.screen.path == "fleet")
    // The foreground refreshes the screen shown, once.
    session.enterForeground()
    await session.idle()
    #expect(log.calls.last == "refresh fleet")
    #expect(changes >= 2)
  }

  @MainActor
  @Test func theAppRefusesToStartWithARouteThatHasNoPhoneScreen() throws {
    let sandbox = try TemporaryDirectory(prefix: "phone-missing")
    #expect(throws: PhoneScreensMissing.self) {
      try PhoneRuntime.session(
        modules: [fleetModule], schemaModules: [], version: "0", applicationSupport: sandbox.url,
        documents: sandbox.url, preferredLanguages: ["en"])
    }
    let missing = PhoneScreensMissing(patterns: ["fleet"])
    #expect(missing.localizedMessage(.english).contains("fleet"))
  }

  /// Waits (at most ten seconds) for `condition`, letting the session's tasks run.
  @MainActor
  func until(_ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(10)
    while !condition() {
      guard Date() < deadline else {
        Issue.record("timed out")
        return
      }
      try await Task.sleep(nanoseconds: 10_000_000)
    }
  }
}

/// What the counting screens were asked to do, in order.
@MainActor
final class CallLog {
  var calls: [String] = []
}

/// A phone screen that only writes down its life cycle.
@MainActor
final class CountingScreen: PhoneScreenModel {
  let path: String
  let context: PhoneContext
  let log: CallLog
  let changes = PhoneChanges()

  init(path: String, context: PhoneContext, log: CallLog) {
    self.path = path
    self.context = context
    self.log = log
  }

  var title: String { path }
  func appear() async { log.calls.append("appear \(path)") }
  func resume(notice: String?) async { log.calls.append("resume \(path) \(notice ?? "-")") }
  func refresh() async { log.calls.append("refresh \(path)") }
  func outline() -> PhoneOutline { PhoneOutline(title: PhoneText(path, .title)) }

  func runTest(_ id: String) async -> String {
    do {
      let result = try await context.run(["fleet", "test", id])
      return result.exitCode == .success ? "ok" : "exit \(result.exitCode.rawValue)"
    } catch {
      return "error \(error)"
    }
  }
}
