import Essentials
import FeatureKit
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import SimAdminSimulator
import Testing
import ViewKit

@Suite struct RouteTests {
  @Test func routesLoadFromTheStore() async throws {
    let harness = try FeatureHarness(.fleet)
    _ = await harness.outcome(["fleet", "add", "--name", "Alpha", "--url", "http://10.1.1.1:3000"])
    let id = try #require(try harness.registry.list().first?.id)
    let environment = harness.environment
    func render(_ path: String) async throws -> String {
      let module = Fleet.module
      let match = try #require(
        module.routes.compactMap { route in route.pattern.match(path).map { (route, $0) } }
          .min { $0.1.count < $1.1.count })
      let node = await match.0.render(
        RouteRequest(path: path, parameters: match.1, environment: environment))
      return TextRenderer.render(node, options: RenderOptions(width: 120))
    }
    #expect(try await render("fleet").contains("Alpha"))
    #expect(try await render("fleet/\(id)").contains("http://10.1.1.1:3000"))
    #expect(try await render("fleet/Alpha/edit").contains("Edit Alpha"))
    #expect(try await render("fleet/new").contains("Add instance"))
    #expect(try await render("fleet/ghost").contains("ghost"))
  }

  @Test func changingTheOriginDropsTheSession() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "a", password: "pw", smsCount: 0),
      DeviceProfile(name: "b", password: "pw", smsCount: 0),
    ])
    let harness = try FeatureHarness(.fleet)
    harness.attach(fleet)
    _ = await harness.outcome(
      [
        "fleet", "add", "--name", "a", "--url", fleet.devices[0].origin.absoluteString,
        "--password-stdin",
      ], input: "pw")
    let login = await harness.outcome(["fleet", "login", "a"])
    #expect(login.exitCode == .success, "\(login.message)")
    let id = try #require(try harness.registry.list().first?.id)
    #expect(harness.connector.instanceIDs == [id])
    let edit = await harness.outcome(
      ["fleet", "edit", "a", "--url", fleet.devices[1].origin.absoluteString])
    await fleet.stop()
    #expect(edit.exitCode == .success)
    #expect(harness.connector.instanceIDs.isEmpty)
  }
}
