import AppCore
import AppRuntime
import Essentials
import FeatureKit
import Foundation
import Testing

@testable import MSAApp

/// The iPhone app composes the same features as `msa` without its built-ins: its registry must
/// hold them (every route action parsing against the features' own commands) with the tabs
/// design 001 names.
@Suite("The iPhone app's composition")
struct PhoneCompositionTests {
  @Test func thePhoneRegistryHoldsEveryFeatureWithItsThreeTabs() throws {
    let registry = try PhoneRuntime.registry(modules: CompiledFeatures.modules)
    #expect(
      AppState.tabs(of: registry, language: .simplifiedChinese).map(\.title)
        == ["节点", "消息", "设置"])
    #expect(AppState.tabs(of: registry, language: .english).count == 3)
  }

  @MainActor
  @Test func thePhoneSessionStartsInItsSandboxAndLoadsTheFleet() async throws {
    let sandbox = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-phone-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: sandbox) }
    let session = try PhoneRuntime.session(
      modules: CompiledFeatures.modules, schemaModules: CompiledFeatures.schemaModules,
      version: "0.1.0",
      applicationSupport: sandbox, preferredLanguages: ["zh-Hans-CN"])
    session.start()
    let deadline = Date().addingTimeInterval(20)
    while session.state.screen.view == nil && Date() < deadline {
      try await Task.sleep(nanoseconds: 20_000_000)
    }
    let view = try #require(session.state.screen.view)
    let layout = PhoneScreen.of(session.state.screen, in: session.state, session.context)
    #expect(layout.placeholder != .loading)
    if case .error = view { Issue.record("the fleet failed to load: \(view)") }
    #expect(
      FileManager.default.fileExists(
        atPath: sandbox.appendingPathComponent("MultiSimAdmin").path))
  }
}
