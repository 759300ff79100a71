import AppCore
import AppRuntime
import Essentials
import FeatureKit
import Foundation
import Testing

@testable import MSAApp

/// The iPhone app composes the same features as `msa` without its built-ins: its registry must
/// hold them (every route action parsing against the features' own commands) with the tabs
/// design 001 names, and a phone screen for every route.
@Suite("The iPhone app's composition")
struct PhoneCompositionTests {
  @Test func thePhoneRegistryHoldsEveryFeatureWithItsThreeTabs() throws {
    let registry = try PhoneRuntime.registry(modules: CompiledFeatures.modules)
    #expect(
      AppState.tabs(of: registry, language: .simplifiedChinese).map(\.title)
        == ["节点", "消息", "设置"])
    #expect(AppState.tabs(of: registry, language: .english).count == 3)
  }

  @Test func everyRouteHasAPhoneScreenAndEveryPhoneScreenARoute() throws {
    let registry = try PhoneRuntime.registry(modules: CompiledFeatures.modules)
    #expect(registry.routesWithoutPhoneScreen == [])
    #expect(registry.phoneScreensWithoutRoute == [])
  }

  @MainActor
  @Test func thePhoneSessionStartsInItsSandboxAndShowsTheFleet() async throws {
    let sandbox = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-phone-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: sandbox) }
    let session = try PhoneRuntime.session(
      modules: CompiledFeatures.modules, schemaModules: CompiledFeatures.schemaModules,
      version: "0.1.0", applicationSupport: sandbox,
      documents: sandbox.appendingPathComponent("Documents"),
      preferredLanguages: ["zh-Hans-CN"])
    session.start()
    await session.idle()
    let outline = try #require(session.visible).outline()
    #expect(outline.title.text == "节点")
    #expect(outline.status.map(\.text).contains("还没有设备"))
    #expect(
      FileManager.default.fileExists(
        atPath: sandbox.appendingPathComponent("MultiSimAdmin").path))
  }
}
