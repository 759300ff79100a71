import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import Testing

@testable import LogCenterFeature

@Suite struct RegistryTransferTests {
  func write(_ text: String, in harness: FeatureHarness, name: String = "registry.json") throws
    -> URL
  {
    let url = harness.directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
  }

  func mode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  @Test func exportWithoutPasswordsThenImportElsewhere() async throws {
    let source = try FeatureHarness(.logCenter)
    let group = try source.testStore.instances.createGroup(name: "Shenzhen")
    let router = try source.testStore.instances.add(
      name: "Router A", origin: try InstanceOrigin(parsing: "http://10.0.0.1:3000"),
      tags: ["office"], groupID: group.id)
    _ = try source.addInstance("Dongle B", "https://dongle.lan")
    try source.store.credentials.setPassword("Pa55-word!", for: router.id)

    let file = source.directory.appendingPathComponent("registry.json")
    _ = try await source.run(["data", "export-registry", file.path])
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(!text.contains("Pa55-word!"))
    #expect(!text.contains("password"))
    #expect(try mode(file) == 0o600, "every export is private, passwords or not")
    let document = try JSONDecoder.iso.decode(RegistryDocument.self, from: Data(text.utf8))
    #expect(document.schemaVersion == 1)
    #expect(document.groups == [.init(name: "Shenzhen")])
    #expect(document.instances.map(\.name) == ["Dongle B", "Router A"])
    #expect(document.instances.last?.group == "Shenzhen")
    #expect(document.instances.last?.tags == ["office"])

    let target = try FeatureHarness(.logCenter)
    let dry = try await target.run(["data", "import-registry", file.path, "--dry-run"])
    #expect(try dry.jsonData()["added"] as? [String] == ["Dongle B", "Router A"])
    #expect(try target.testStore.instances.list().isEmpty)

    _ = try await target.run(["data", "import-registry", file.path])
    let imported = try target.testStore.instances.list()
    #expect(imported.map(\.name) == ["Dongle B", "Router A"])
    let groups = try target.testStore.instances.listGroups()
    #expect(groups.map(\.name) == ["Shenzhen"])
    #expect(imported.last?.groupID == groups.first?.id)
    // Importing again skips what is already registered.
    let again = try await target.run(["data", "import-registry", file.path])
    #expect(try again.jsonData()["skipped"] as? [String] == ["Dongle B", "Router A"])
    #expect(try target.testStore.instances.list().count == 2)
  }

  @Test func passwordsOnlyOnRequestIntoAPrivateFile() async throws {
    let source = try FeatureHarness(.logCenter)
    let router = try source.addInstance("Router A", "http://10.0.0.1:3000")
    try source.store.credentials.setPassword("Pa55-word!", for: router.id)
    let file = source.directory.appendingPathComponent("with-passwords.json")
    _ = try await source.run(["data", "export-registry", file.path, "--include-passwords"])
    #expect(try String(contentsOf: file, encoding: .utf8).contains("Pa55-word!"))
    #expect(try mode(file) == 0o600)

    let target = try FeatureHarness(.logCenter)
    _ = try await target.run(["data", "import-registry", file.path])
    let imported = try #require(try target.testStore.instances.list().first)
    #expect(try target.store.credentials.password(for: imported.id) == "Pa55-word!")
  }

  @Test func malformedJSONIsReportedWithLineAndColumn() async throws {
    let harness = try FeatureHarness(.logCenter)
    let file = try write(
      """
      {
        "schemaVersion": 1,
        "instances": [
          {"name": "A", "origin": "http://10.0.0.1"}
          {"name": "B", "origin": "http://10.0.0.2"}
        ]
      }
      """, in: harness)
    let failure = await harness.outcome(["data", "import-registry", file.path])
    guard case .malformedJSON(_, let line, let column, _)? = failure.error as? LogCenterError else {
      Issue.record("expected malformedJSON, got \(String(describing: failure.error))")
      return
    }
    #expect(line == 5)
    #expect(column == 5)
    #expect(failure.message.contains("line 5, column 5"))
    #expect(try harness.testStore.instances.list().isEmpty)
  }

  @Test func everyProblemIsListedWithItsIndexAndNothingIsImported() async throws {
    let harness = try FeatureHarness(.logCenter)
    _ = try harness.addInstance("Existing", "http://10.9.9.9")
    let file = try write(
      """
      {"schemaVersion": 1,
       "groups": [{"name": "North"}, {"name": "north"}],
       "instances": [
         {"name": "Good", "origin": "http://10.0.0.1:3000", "group": "North"},
         {"name": "Path", "origin": "http://10.0.0.2/admin"},
         {"name": "Scheme", "origin": "ftp://10.0.0.3"},
         {"name": "Copy", "origin": "HTTP://10.0.0.1:3000/"},
         {"name": "", "origin": "https://ok.lan"},
         {"name": "Lost", "origin": "https://lost.lan", "group": "Nowhere"},
         {"name": "Secret", "origin": "http://admin:hunter2@10.0.0.4"},
         {"name": " existing ", "origin": "http://10.0.0.5"},
         {"name": "GOOD", "origin": "http://10.0.0.6"}
       ]}
      """, in: harness)
    let failure = await harness.outcome(["data", "import-registry", file.path])
    guard case .importRejected(_, let problems)? = failure.error as? LogCenterError else {
      Issue.record("expected importRejected, got \(String(describing: failure.error))")
      return
    }
    #expect(problems.count == 9)
    // Names are unique ignoring case and surrounding spaces, in the file and the registry.
    #expect(problems.contains { $0.hasPrefix("instances[7]") && $0.contains("\"Existing\"") })
    #expect(
      problems.contains { $0.hasPrefix("instances[8] (GOOD)") && $0.contains("instances[0]") })
    #expect(problems.contains { $0.hasPrefix("groups[1]") && $0.contains("groups[0]") })
    #expect(problems.contains { $0.hasPrefix("instances[1] (Path)") && $0.contains("/admin") })
    #expect(problems.contains { $0.hasPrefix("instances[2] (Scheme)") && $0.contains("ftp") })
    #expect(
      problems.contains { $0.hasPrefix("instances[3] (Copy)") && $0.contains("instances[0]") })
    #expect(problems.contains { $0.hasPrefix("instances[4]") && $0.contains("name") })
    #expect(problems.contains { $0.hasPrefix("instances[5] (Lost)") && $0.contains("Nowhere") })
    #expect(problems.contains { $0.hasPrefix("instances[6] (Secret)") })
    #expect(!failure.message.contains("hunter2"))
    #expect(failure.message.contains("instances[3]"))
    #expect(try harness.testStore.instances.list().map(\.name) == ["Existing"])
    #expect(try harness.testStore.instances.listGroups().isEmpty)
  }

  @Test func wrongShapeIsRejected() async throws {
    let harness = try FeatureHarness(.logCenter)
    let file = try write(#"{"schemaVersion": 1, "instances": [{"name": "A"}]}"#, in: harness)
    let failure = await harness.outcome(["data", "import-registry", file.path])
    guard case .importRejected(_, let problems)? = failure.error as? LogCenterError else {
      Issue.record("expected importRejected, got \(String(describing: failure.error))")
      return
    }
    #expect(problems.first?.contains("instances[0]") == true)
    #expect(problems.first?.contains("origin") == true)
  }
}

extension JSONDecoder {
  static var iso: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}
