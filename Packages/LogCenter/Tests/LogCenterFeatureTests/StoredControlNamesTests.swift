import Essentials
import EssentialsTesting
import FeatureKitTesting
import Foundation
import LocalStore
import Testing

@testable import LogCenterFeature

/// Names and tags stored with control characters (before they were refused) are listed by
/// `data check`, shown by stand-ins, and left as they are.
@Suite struct StoredControlNamesTests {
  @Test func dataCheckListsThemWithTheFixAndChangesNothing() async throws {
    let harness = try FeatureHarness(.logCenter)
    let registry = InstanceRepository(store: harness.store)
    let instance = try registry.add(
      name: "evil", origin: try InstanceOrigin(parsing: "http://127.0.0.1:9"), tags: ["lab"])
    let group = try registry.createGroup(name: "team")
    // As an older msa would have stored them.
    let name = "evil\u{1B}]0;owned\u{07}"
    _ = try harness.store.database.run(
      "UPDATE instances SET name = ?, tags = ? WHERE id = ?",
      [name, "[\"lab\",\"t\u{202E}x\"]", instance.id])
    _ = try harness.store.database.run(
      "UPDATE instance_groups SET name = ? WHERE id = ?", ["te\u{9B}am", group.id])
    let check = try await harness.run(["data", "check"])
    #expect(check.exitCode == .failure)
    let problems = try #require(try check.jsonData()["problems"] as? [String])
    #expect(problems.count == 3)
    #expect(problems.contains { $0.contains("evil␛]0;owned␇") && $0.contains("fleet edit") })
    #expect(problems.contains { $0.contains("t\\u{202E}x") && $0.contains("--untag") })
    #expect(problems.contains { $0.contains("te\\u{9B}am") && $0.contains("groups rename") })
    let (text, json) = (check.text(width: 120), try check.json())
    #expect(RawControls.find(in: text).isEmpty)
    #expect(RawControls.find(in: json).isEmpty)
    // Nothing was changed.
    #expect(try registry.get(id: instance.id)?.name == name)
    // The tag goes by the form the check shows; the name is renamed.
    _ = try registry.update(
      id: instance.id, expectedRevision: nil,
      changes: InstanceChanges(name: "evil", removeTags: ["t\\u{202E}x"]))
    _ = try registry.renameGroup(id: group.id, to: "team")
    let again = try await harness.run(["data", "check"])
    #expect(again.exitCode == .success)
  }

  /// Names that collide ignoring case and surrounding spaces (stored before that rule) are
  /// listed by `data check` with every id and the rename by id, in both languages; nothing
  /// is renamed, and renaming one by id clears the problem.
  @Test(arguments: [AppLanguage.english, .simplifiedChinese])
  func dataCheckListsNameCollisionsAndChangesNothing(language: AppLanguage) async throws {
    let harness = try FeatureHarness(.logCenter, language: language)
    let registry = InstanceRepository(store: harness.store)
    let one = try registry.add(
      name: "Real Healthy", origin: try InstanceOrigin(parsing: "http://127.0.0.1:9"))
    let two = try registry.add(
      name: "other", origin: try InstanceOrigin(parsing: "http://127.0.0.1:10"))
    _ = try registry.add(name: "alone", origin: try InstanceOrigin(parsing: "http://127.0.0.1:11"))
    // As an older msa would have stored it, before names were compared without case.
    _ = try harness.store.database.run(
      "UPDATE instances SET name = ? WHERE id = ?", ["  real healthy ", two.id])
    let check = try await harness.run(["data", "check"])
    #expect(check.exitCode == .failure)
    let problems = try #require(try check.jsonData()["problems"] as? [String])
    #expect(problems.count == 1)
    let line = try #require(problems.first)
    #expect(line.contains(one.id) && line.contains(two.id))
    #expect(line.contains("\"Real Healthy\"") && line.contains("\"  real healthy \""))
    #expect(line.contains("msa fleet edit"))
    #expect(!line.contains("alone"))
    let text = check.text(width: 120)
    let banner = language == .english ? "ambiguous" : "歧义"
    #expect(text.contains(banner))
    #expect(text.contains(one.id) && text.contains(two.id))
    // Nothing was renamed.
    #expect(try registry.get(id: two.id)?.name == "  real healthy ")
    #expect(try registry.get(id: one.id)?.name == "Real Healthy")
    // Renamed by id, the check passes.
    _ = try registry.update(
      id: two.id, expectedRevision: nil, changes: InstanceChanges(name: "Real Healthy 2"))
    #expect(try await harness.run(["data", "check"]).exitCode == .success)
  }
}
