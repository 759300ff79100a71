import Essentials
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import Testing
import ViewKit

/// Issue 36 point 10 through `msa fleet`: the forms of one address are one origin, a second
/// registration is refused naming the first, and what an older version registered twice is
/// said on the workbench, never removed.
@Suite struct SameOriginTests {
  @Test func fleetAddRefusesTheSameDeviceUnderAnotherName() async throws {
    let harness = try FeatureHarness(.fleet)
    let added = await harness.outcome([
      "fleet", "add", "--name", "Lab", "--url", "http://0x7f000001:3000",
    ])
    #expect(added.exitCode == .success)
    #expect(try harness.registry.list().map(\.origin.string) == ["http://127.0.0.1:3000"])
    for url in [
      "http://127.0.0.1:3000", "http://2130706433:3000", "http://127.1:3000",
      "http://[::ffff:127.0.0.1]:3000",
    ] {
      let twin = await harness.outcome(["fleet", "add", "--name", "Twin", "--url", url])
      #expect(twin.exitCode == .failure, "\(url)")
      #expect(
        twin.message.contains("Lab") && twin.message.contains("http://127.0.0.1:3000"),
        "\(twin.message)")
    }
    let long = await harness.outcome([
      "fleet", "add", "--name", "Long", "--url", "http://" + String(repeating: "a", count: 10_240),
    ])
    #expect(long.exitCode != .success)
    #expect(long.message.contains("10240") && long.message.count < 400, "\(long.message)")
    #expect(try harness.registry.list().count == 1)
  }

  @Test func theWorkbenchSaysWhichNamesAreOneDevice() async throws {
    let harness = try FeatureHarness(.fleet)
    _ = await harness.outcome(["fleet", "add", "--name", "Owner", "--url", "http://127.0.0.1:3000"])
    _ = await harness.outcome(["fleet", "add", "--name", "Alone", "--url", "http://10.0.0.9:3000"])
    try harness.store.database.run(
      """
      INSERT INTO instances (id, name, origin, tags, revision, created_at, updated_at)
      VALUES ('cafe00000001', 'Decimal', 'http://2130706433:3000', '[]', 1, 0, 0)
      """)
    for language in AppLanguage.allCases {
      let list = try await harness.run(["fleet", "list"], language: language)
      let text = TextRenderer.render(
        list.view, options: RenderOptions(width: 400, language: language))
      let said =
        language == .english
        ? "Decimal, Owner are one device (http://127.0.0.1:3000)"
        : "Decimal, Owner 是同一台设备（http://127.0.0.1:3000）"
      #expect(text.contains(said), "\(text)")
      #expect(text.contains("msa fleet remove"))
      #expect(!text.contains("Alone are one device") && !text.contains("Alone 是同一台设备"))
      // Narrow, it still fits.
      _ = TextRenderer.render(list.view, options: RenderOptions(width: 40, language: language))
    }
    #expect(try harness.registry.list().count == 3)
  }
}
