import Essentials
import EssentialsTesting
import FeatureKitTesting
import Foundation
import LocalStore
import Testing

@testable import LogCenterFeature

/// Issue 36 point 10: an older version registered one device under several names
/// (`http://0x7f000001:3000` beside `http://127.0.0.1:3000`). `data check` lists them with
/// every id and how to remove one by id, in both languages; nothing is removed.
@Suite struct SameOriginTests {
  @Test(arguments: [AppLanguage.english, .simplifiedChinese])
  func dataCheckListsOneDeviceUnderSeveralNames(language: AppLanguage) async throws {
    let harness = try FeatureHarness(.logCenter, language: language)
    let registry = InstanceRepository(store: harness.store)
    let owner = try registry.add(
      name: "Owner", origin: try InstanceOrigin(parsing: "http://127.0.0.1:3000"))
    // As an older msa stored them: the forms as typed.
    for (id, name, text) in [
      ("cafe00000001", "Hex", "http://0x7f000001:3000"),
      ("cafe00000002", "Mapped", "http://[::ffff:127.0.0.1]:3000"),
    ] {
      try harness.store.database.run(
        """
        INSERT INTO instances (id, name, origin, tags, revision, created_at, updated_at)
        VALUES (?, ?, ?, '[]', 1, 9999999999999, 9999999999999)
        """, [id, name, text])
    }
    let check = try await harness.run(["data", "check"])
    #expect(check.exitCode == .failure)
    let problems = try #require(try check.jsonData()["problems"] as? [String])
    #expect(problems.count == 1, "\(problems)")
    let line = try #require(problems.first)
    for part in [owner.id, "cafe00000001", "cafe00000002", "http://127.0.0.1:3000"] {
      #expect(line.contains(part), "\(line)")
    }
    #expect(line.contains("msa fleet remove cafe00000001 cafe00000002 --yes"))
    #expect(check.text(width: 80).contains(language == .english ? "several names" : "多个名称"))
    // Nothing was removed; removing the extra ones clears it.
    #expect(try registry.list().count == 3)
    _ = try registry.delete(id: "cafe00000001", expectedRevision: nil)
    _ = try registry.delete(id: "cafe00000002", expectedRevision: nil)
    #expect(try await harness.run(["data", "check"]).exitCode == .success)
  }

  /// An import names each address in one form too: a device already registered under
  /// another form is skipped, and two forms of one address in the file are one problem.
  @Test func importSkipsTheSameDeviceUnderAnotherForm() async throws {
    let harness = try FeatureHarness(.logCenter)
    let registry = InstanceRepository(store: harness.store)
    _ = try registry.add(
      name: "Owner", origin: try InstanceOrigin(parsing: "http://127.0.0.1:3000"))
    let file = harness.directory.appendingPathComponent("registry.json")
    try Data(
      #"{"schemaVersion": 1, "instances": [{"name": "Hex", "origin": "http://0x7f000001:3000"}, {"name": "New", "origin": "http://[::ffff:10.0.0.7]"}]}"#
        .utf8
    ).write(to: file)
    let imported = try await harness.run(["data", "import-registry", file.path])
    #expect(try imported.jsonData()["skipped"] as? [String] == ["Hex"])
    #expect(try imported.jsonData()["added"] as? [String] == ["New"])
    #expect(
      try registry.list().map(\.origin.string).sorted() == [
        "http://10.0.0.7", "http://127.0.0.1:3000",
      ])
    try Data(
      #"{"schemaVersion": 1, "instances": [{"name": "A", "origin": "http://2130706433"}, {"name": "B", "origin": "http://127.1"}]}"#
        .utf8
    ).write(to: file)
    let twins = await harness.outcome(["data", "import-registry", file.path])
    #expect(twins.exitCode == .failure)
    #expect(
      twins.message.contains("instances[1]") && twins.message.contains("http://127.0.0.1"),
      "\(twins.message)")
  }
}
