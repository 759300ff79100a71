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
  @Test func aSessionLoadsRoutesAndRunsActionsThroughTheDispatcher() async throws {
    let registry = try makeRegistry()
    let dispatcher = CommandDispatcher(
      registry: registry, commandTree: registry.commandTree(root: root), globalOptions: [])
    let environment = AppEnvironment.test()
    let session = AppSession(
      context: AppContext(registry: registry, language: .english), environment: environment
    ) { arguments in
      await dispatcher.outcome(of: arguments, in: environment)
    }
    var changes = 0
    session.onChange = { changes += 1 }
    session.start()
    try await until { session.state.screen.view != nil }
    #expect(session.state.screen.cursorID == "id-alpha")
    session.send(.toggleMark(row: "id-alpha"))
    session.send(.toggleMark(row: "id-bravo"))
    session.send(.perform(action: "t"))
    #expect(session.state.running == 2)
    try await until { session.state.running == 0 && session.state.screen.result != nil }
    #expect(
      session.state.screen.result
        == ScreenResult("Test: 2 done · 1 failed (bravo: Offline)", isFailure: true))
    #expect(changes > 3)
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
