import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import Testing
import ViewKit

@testable import LogCenterFeature

@Suite struct ModuleTests {
  @Test func declaresItselfWithoutConflicts() throws {
    let builtIns = FeatureModule(
      id: "app", name: LogCenter.module.name, summary: LogCenter.module.summary, order: 0,
      home: nil, routes: [], commands: [], catalogue: LogCenterStrings.catalogue)
    let registry = try FeatureRegistry(builtIns: builtIns, modules: [LogCenter.module])
    #expect(registry.modules.map(\.id) == ["settings"])
    #expect(LogCenter.module.order == 90)
    #expect(LogCenter.module.home == "settings")
    #expect(LogCenter.module.name.resolve(.simplifiedChinese) == "设置")
    #expect(registry.route(for: "settings/logs/r3")?.parameters == ["id": "r3"])
    #expect(registry.command(at: ["data", "import-registry"]) != nil)
    #expect(registry.command(at: ["logs", "export"]) != nil)
  }

  @Test func routesLoadFromTheStore() async throws {
    let harness = try FeatureHarness(.logCenter)
    let router = try harness.addInstance("Router A", "http://10.0.0.1:3000")
    _ = try harness.addInstance("Secure", "https://secure.lan")
    harness.storeLogger().info("hello routes")
    let builtIns = FeatureModule(
      id: "app", name: LogCenter.module.name, summary: LogCenter.module.summary, order: 0,
      home: nil, routes: [], commands: [], catalogue: LogCenterStrings.catalogue)
    let registry = try FeatureRegistry(builtIns: builtIns, modules: [LogCenter.module])
    var environment = harness.environment
    environment.services = Services().registering(harness.store).registering(registry)
      .registering(AppBuildInfo(version: "9.9.9", platform: "test-os"))
    func render(_ path: String) async throws -> String {
      let match = try #require(registry.route(for: path))
      let node = await match.route.render(
        RouteRequest(path: path, parameters: match.parameters, environment: environment))
      return TextRenderer.render(node, options: RenderOptions(width: 100))
    }
    let settings = try await render("settings")
    #expect(settings.contains("9.9.9"))
    #expect(settings.contains("Settings (settings)"))
    #expect(settings.contains(router.origin.string))
    #expect(!settings.contains("https://secure.lan"))
    #expect(try await render("settings/logs").contains("hello routes"))
    #expect(try await render("settings/logs/r1").contains("Log record r1"))
    #expect(try await render("settings/logs/r99").contains("no log record r99"))
    #expect(try await render("settings/data").contains("runtime_log"))
  }
}
