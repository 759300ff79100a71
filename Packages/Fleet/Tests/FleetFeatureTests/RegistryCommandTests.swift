import Essentials
import FleetFeature
import Foundation
import LocalStore
import Testing

@Suite struct RegistryCommandTests {
  @Test func addListShowEditAndGroups() async throws {
    let harness = try Harness()
    #expect(await harness.run(["groups", "add", "Shop"]).exitCode == .success)
    let added = await harness.run(
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

    let list = await harness.run(["fleet", "list", "--tag", "lab"])
    #expect(try list.payload(InstancesPayload.self).instances.map(\.name) == ["Router A"])
    #expect(list.text().contains("Router A"))
    let none = await harness.run(["fleet", "list", "--status", "online"])
    #expect(try none.payload(InstancesPayload.self).instances.isEmpty)
    // A filter matching nothing says so; it does not claim there are no instances.
    #expect(none.text().contains("No instance matches the filter"))
    #expect(!none.text().contains("No instances yet"))

    let edited = await harness.run(
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

    let shown = await harness.run(["fleet", "show", String(written.instance.id.prefix(6))])
    #expect(try shown.payload(InstancesPayload.self).instances.first?.name == "Router B")
    #expect(shown.text().contains("never tested"))

    let tags = await harness.run(["tags"])
    #expect(
      try tags.payload(TagsPayload.self).tags.map { "\($0.tag):\($0.count)" } == ["shop-floor:1"])
    let renamed = await harness.run(["groups", "rename", "Shop", "Store"])
    #expect(try renamed.payload(GroupsPayload.self).groups.map(\.name) == ["Store"])
    let removed = await harness.run(["groups", "remove", "Store"])
    #expect(try removed.payload(GroupsPayload.self).groups.isEmpty)

    let cleared = await harness.run(["fleet", "edit", "Router B", "--clear-password"])
    #expect(cleared.exitCode == .success)
    #expect(try harness.store.credentials.password(for: written.instance.id) == nil)
  }

  @Test func groupRemovalUngroupsMembers() async throws {
    let harness = try Harness()
    _ = await harness.run(["groups", "add", "Lab"])
    _ = await harness.run([
      "fleet", "add", "--name", "a", "--url", "http://a.lan", "--group", "Lab",
    ])
    #expect(await harness.run(["groups", "remove", "Lab"]).exitCode == .success)
    let row = try #require(try harness.registry.list().first)
    #expect(row.groupID == nil)
    #expect(row.revision == 2)
  }
}
