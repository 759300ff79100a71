import Essentials
import FeatureKit
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import SimAdminSimulator
import Testing
import ViewKit

/// Issue 36 point 8: a temperature or uptime of 1e308 crashed `fleet test`, and once stored,
/// `fleet list`, `view fleet`, `msa ui` and the instance's detail at every start until the
/// device was removed ("Double value cannot be converted to Int").
@Suite struct AbsurdNumberTests {
  /// Every view of the Fleet feature that shows an instance: the workbench (`fleet list`,
  /// `view fleet`, the console's first screen) and the detail, in both languages and narrow.
  func renderEverything(_ harness: FeatureHarness, names: [String]) async throws -> [String] {
    var texts: [String] = []
    for language in AppLanguage.allCases {
      let list = try await harness.run(["fleet", "list"], language: language)
      _ = try list.jsonData()
      texts.append(TextRenderer.render(list.view, options: RenderOptions(width: 80)))
      for name in names {
        let show = try await harness.run(["fleet", "show", name], language: language)
        _ = try show.jsonData()
        texts.append(TextRenderer.render(show.view, options: RenderOptions(width: 60)))
      }
      for path in ["fleet"] + names.map { "fleet/\($0)" } {
        let match = try #require(
          Fleet.module.routes.compactMap { route in route.pattern.match(path).map { (route, $0) } }
            .min { $0.1.count < $1.1.count })
        let node = await match.0.render(
          RouteRequest(path: path, parameters: match.1, environment: harness.environment))
        for width in [40, 80, 120] {
          texts.append(
            TextRenderer.render(node, options: RenderOptions(width: width, language: language)))
        }
      }
    }
    return texts
  }

  @Test(
    "a connection test of a device that answers absurd numbers keeps them as unknown",
    arguments: ["1e308", "-1e308", "9223372036854775808", "-5"])
  func probe(text: String) async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(
        name: "stats", smsCount: 3,
        faults: [FaultRule(.absurdNumbers(text: text), pathPrefix: "/api/stats")]),
      DeviceProfile(
        name: "network", smsCount: 3,
        faults: [FaultRule(.absurdNumbers(text: text), pathPrefix: "/api/network")]),
    ])
    let harness = try FeatureHarness(.fleet)
    await harness.register(fleet)
    let test = await harness.outcome(["fleet", "test", "--all"])
    await fleet.stop()
    #expect(test.exitCode == .success, "\(test.message)")
    let results = try test.payload(TestPayload.self).results
    for result in results {
      // -5 °C is a believable temperature; -5% of memory is not.
      let believed = text == "-5" || result.instanceName == "network"
      #expect((result.snapshot?.temperatureCelsius != nil) == believed)
      #expect(result.snapshot?.memoryPercent == nil || result.instanceName == "network")
      #expect(result.snapshot?.signalPercent == nil || result.instanceName == "stats")
    }
    let texts = try await renderEverything(harness, names: ["stats", "network"])
    #expect(texts.allSatisfy { $0.firstRange(of: #/[0-9]{25}/#) == nil })
  }

  @Test("a stored snapshot an older version wrote with absurd readings is read as unknown")
  func storedSnapshot() async throws {
    let harness = try FeatureHarness(.fleet)
    let snapshots = [
      "hot": #"{"phoneNumbers":["+8613800138000"],"temperatureCelsius":1e308,"uptime":"1天"}"#,
      "cold":
        #"{"phoneNumbers":[],"temperatureCelsius":-1e308,"memoryPercent":1e308,"signalPercent":-5}"#,
      "huge":
        #"{"phoneNumbers":[],"temperatureCelsius":9.3e18,"memoryPercent":-1,"signalPercent":100000000000000000000,"operatorName":"CMCC"}"#,
    ]
    let now = harness.environment.clock.now()
    for (index, name) in snapshots.keys.sorted().enumerated() {
      let added = await harness.outcome([
        "fleet", "add", "--name", name, "--url", "http://10.9.9.\(index + 1):3000",
      ])
      #expect(added.exitCode == .success)
      let id = try #require(try harness.registry.list().first { $0.name == name }?.id)
      try StatusRepository(store: harness.store).save(
        InstanceStatusRecord(
          instanceID: id, status: "online", checkedAt: now, latencyMS: 3, version: "1.1.10",
          snapshot: snapshots[name], snapshotFetchedAt: now))
    }
    let texts = try await renderEverything(harness, names: snapshots.keys.sorted())
    #expect(texts.allSatisfy { $0.firstRange(of: #/[0-9]{25}/#) == nil })
    // What could be read stays: the phone number of "hot", the operator of "huge".
    let list = TextRenderer.render(
      try await harness.run(["fleet", "list"]).view, options: RenderOptions(width: 160))
    #expect(list.contains("+8613800138000"))
    #expect(list.contains("CMCC"))
    #expect(!list.contains("°C"))
    let rows = try await harness.run(["fleet", "list"]).jsonData()
    let instances = try #require(rows["instances"] as? [[String: Any]])
    for row in instances {
      let snapshot = try #require(row["snapshot"] as? [String: Any], "\(row)")
      #expect(snapshot["temperatureCelsius"] == nil)
      #expect(snapshot["memoryPercent"] == nil)
      #expect(snapshot["signalPercent"] == nil)
    }
  }
}
