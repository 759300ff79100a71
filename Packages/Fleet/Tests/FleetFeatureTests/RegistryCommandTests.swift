import Essentials
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import Testing

@Suite struct RegistryCommandTests {
  @Test func addListShowEditAndGroups() async throws {
    let harness = try FeatureHarness(.fleet)
    #expect(await harness.outcome(["groups", "add", "Shop"]).exitCode == .success)
    let added = await harness.outcome(
      [
        "fleet", "add", "--name", " Router A ", "--url", "HTTP://Router.LAN:80/", "--tag", "Lab",
        "--tag", "shop floor", "--group", "shop", "--password-stdin",
      ], input: "s3cret\n")
    #expect(added.exitCode == .success, "\(added.message)")
    let written = try added.payload(WrittenPayload.self)
    #expect(written.instance.name == "Router A")
    #expect(written.instance.origin == "http://router.lan")
    #expect(written.instance.tags == ["lab", "shop-floor"])
    #expect(written.instance.group == "Shop")
    #expect(written.instance.hasPassword)
    // The password is in the credential store, one trailing newline trimmed, never in the DB.
    #expect(try harness.store.credentials.password(for: written.instance.id) == "s3cret")
    let dump = try harness.store.database.query("SELECT * FROM instances").description
    #expect(!dump.contains("s3cret"))

    let list = await harness.outcome(["fleet", "list", "--tag", "lab"])
    #expect(try list.payload(InstancesPayload.self).instances.map(\.name) == ["Router A"])
    #expect(list.text().contains("Router A"))
    let none = await harness.outcome(["fleet", "list", "--status", "online"])
    #expect(try none.payload(InstancesPayload.self).instances.isEmpty)
    // A filter matching nothing says so; it does not claim there are no instances.
    #expect(none.text().contains("No instance matches the filter"))
    #expect(!none.text().contains("No instances yet"))

    let edited = await harness.outcome(
      [
        "fleet", "edit", "Router A", "--name", "Router B", "--untag", "lab", "--no-group",
        "--revision", "1",
      ])
    #expect(edited.exitCode == .success, "\(edited.message)")
    let after = try edited.payload(WrittenPayload.self).instance
    #expect(after.name == "Router B")
    #expect(after.tags == ["shop-floor"])
    #expect(after.group == nil)
    #expect(after.revision == 2)

    let shown = await harness.outcome(["fleet", "show", String(written.instance.id.prefix(6))])
    #expect(try shown.payload(InstancesPayload.self).instances.first?.name == "Router B")
    #expect(shown.text().contains("never tested"))

    let tags = await harness.outcome(["tags"])
    #expect(
      try tags.payload(TagsPayload.self).tags.map { "\($0.tag):\($0.count)" } == ["shop-floor:1"])
    let renamed = await harness.outcome(["groups", "rename", "Shop", "Store"])
    #expect(try renamed.payload(GroupsPayload.self).groups.map(\.name) == ["Store"])
    let removed = await harness.outcome(["groups", "remove", "Store"])
    #expect(try removed.payload(GroupsPayload.self).groups.isEmpty)

    let cleared = await harness.outcome(["fleet", "edit", "Router B", "--clear-password"])
    #expect(cleared.exitCode == .success)
    #expect(try harness.store.credentials.password(for: written.instance.id) == nil)
  }

  @Test func namesAreUniqueIgnoringCaseAndSurroundingSpaces() async throws {
    let harness = try FeatureHarness(.fleet)
    let first = await harness.outcome(
      ["fleet", "add", "--name", "Real Healthy", "--url", "http://10.0.0.1:3000"])
    #expect(first.exitCode == .success)
    let before = try harness.fingerprint()
    let clash = await harness.outcome(
      ["fleet", "add", "--name", "  real healthy ", "--url", "http://10.0.0.2:3000"])
    #expect(clash.exitCode == .failure)
    #expect(clash.message.contains("Real Healthy"), "\(clash.message)")
    #expect(try harness.fingerprint() == before)
    let other = await harness.outcome([
      "fleet", "add", "--name", "Other", "--url", "http://10.0.0.3:3000",
    ])
    #expect(other.exitCode == .success)
    let rename = await harness.outcome(["fleet", "edit", "other", "--name", "REAL HEALTHY"])
    #expect(rename.exitCode == .failure)
    // Changing the case of its own name is allowed.
    let recase = await harness.outcome(["fleet", "edit", "real healthy", "--name", "real healthy"])
    #expect(recase.exitCode == .success, "\(recase.message)")
    #expect(try harness.registry.list().map(\.name) == ["Other", "real healthy"])
  }

  @Test func existingCollisionsAreListedAndRenamableNeverRenamedSilently() async throws {
    let harness = try FeatureHarness(.fleet)
    _ = await harness.outcome(["fleet", "add", "--name", "Shop", "--url", "http://10.0.0.1:3000"])
    _ = await harness.outcome(["fleet", "add", "--name", "Lab", "--url", "http://10.0.0.2:3000"])
    // Stored before names were compared this way.
    try harness.store.database.run("UPDATE instances SET name = ' shop ' WHERE name = 'Lab'")
    let collisions = try harness.registry.nameCollisions()
    #expect(collisions.count == 1)
    #expect(collisions.first?.map(\.name).sorted() == [" shop ", "Shop"])
    // A reference by name is ambiguous and says so; the ids rename one.
    let ambiguous = await harness.outcome(["fleet", "show", "shop"])
    #expect(ambiguous.exitCode == .failure)
    let id = try #require(collisions.first?.first?.id)
    let renamed = await harness.outcome(["fleet", "edit", id, "--name", "Lab"])
    #expect(renamed.exitCode == .success, "\(renamed.message)")
    #expect(try harness.registry.nameCollisions().isEmpty)
  }

  @Test func testChoosesByGroupTagOrStatus() async throws {
    let harness = try FeatureHarness(.fleet)
    _ = await harness.outcome(["groups", "add", "Shop"])
    // Nothing listens on these ports: every test is quick and Offline.
    for (name, port, options) in [
      ("a", 9, ["--group", "Shop"]), ("b", 19, ["--tag", "lab"]), ("c", 29, [String]()),
    ] {
      let added = await harness.outcome(
        ["fleet", "add", "--name", name, "--url", "http://127.0.0.1:\(port)"] + options)
      #expect(added.exitCode == .success, "\(added.message)")
    }
    func tested(_ arguments: [String]) async throws -> [String] {
      let outcome = await harness.outcome(["fleet", "test"] + arguments + ["--timeout", "2"])
      return try outcome.payload(TestPayload.self).results.map(\.instanceName).sorted()
    }
    #expect(try await tested(["--group", "shop"]) == ["a"])
    #expect(try await tested(["--tag", "lab"]) == ["b"])
    #expect(try await tested(["--status", "unknown"]) == ["c"])
    // c was just tested: now every instance is offline and none unknown.
    #expect(try await tested(["--status", "offline"]) == ["a", "b", "c"])
    #expect(try await tested(["--status", "unknown"]) == [])
    #expect(try await tested(["--all", "--tag", "lab"]) == ["b"])
    let both = await harness.outcome(["fleet", "test", "a", "--tag", "lab"])
    #expect(both.exitCode == .usage)
    let none = await harness.outcome(["fleet", "test"])
    #expect(none.exitCode == .usage)
    let badStatus = await harness.outcome(["fleet", "test", "--status", "sleepy"])
    #expect(badStatus.exitCode == .usage)
  }

  @Test func groupRemovalUngroupsMembers() async throws {
    let harness = try FeatureHarness(.fleet)
    _ = await harness.outcome(["groups", "add", "Lab"])
    _ = await harness.outcome([
      "fleet", "add", "--name", "a", "--url", "http://a.lan", "--group", "Lab",
    ])
    #expect(await harness.outcome(["groups", "remove", "Lab"]).exitCode == .success)
    let row = try #require(try harness.registry.list().first)
    #expect(row.groupID == nil)
    #expect(row.revision == 2)
  }
}
