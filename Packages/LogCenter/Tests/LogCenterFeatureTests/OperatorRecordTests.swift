import Essentials
import FeatureKitTesting
import Foundation
import LocalStore
import Testing
import ViewKit

@testable import LogCenterFeature

/// The log center records what the operator did with local data and logs, in words in both
/// languages, with nothing secret.
@Suite struct OperatorRecordTests {
  @Test func backupsRestoresExportsAndImportsAreRecorded() async throws {
    let harness = try FeatureHarness(.logCenter, recordsLog: true)
    let shop = try harness.addInstance("Shop router", "http://10.0.0.2:3000")
    try harness.testStore.store.credentials.setPassword("hunter2-secret", for: shop.id)
    let backup = harness.directory.appendingPathComponent("backup.sqlite")
    let registry = harness.directory.appendingPathComponent("registry.json")
    let logs = harness.directory.appendingPathComponent("logs.jsonl")
    // A restore brings back the data of its backup, logs included: restore first.
    let first = harness.directory.appendingPathComponent("first.sqlite")
    _ = try await harness.run(["data", "backup", first.path])
    _ = try await harness.run(["data", "restore", first.path, "--yes"])
    _ = try await harness.run(["data", "backup", backup.path])
    _ = try await harness.run(["data", "export-registry", registry.path, "--include-passwords"])
    _ = try await harness.run(["logs", "export", "--output", logs.path])
    _ = try harness.testStore.instances.delete(id: shop.id, expectedRevision: nil)
    _ = try await harness.run(["data", "import-registry", registry.path])

    let codes = try LogBook(store: harness.store).entries().compactMap {
      $0.localized(.english).code
    }
    for code in [
      "data.backup", "data.registryExportedWithPasswords", "logs.exported", "data.restored",
      "data.registryImported",
    ] {
      #expect(codes.contains(code), "\(code) missing from \(codes)")
    }
    for language in AppLanguage.allCases {
      let listed = try await FeatureHarness.listing(harness, language)
      #expect(!listed.contains("hunter2-secret"))
      #expect(!listed.contains("{instance") && !listed.contains("{count"), "\(listed)")
      #expect(listed.contains(backup.path))
      if language == .simplifiedChinese {
        #expect(listed.contains("备份已写入"), "\(listed)")
        #expect(listed.contains("已从 \(first.path) 恢复"), "\(listed)")
      } else {
        #expect(listed.contains("Backup written to"), "\(listed)")
        #expect(listed.contains("1 instance imported from"), "\(listed)")
      }
    }
  }

  @Test func probesAndStatusChangesAreWords() throws {
    let harness = try FeatureHarness(.logCenter)
    let router = try harness.addInstance("Router", "http://10.0.0.2:3000")
    try harness.addProbe(
      router, result: "timeout", status: "offline", previous: "online", reason: "timeout")
    try harness.addProbe(router, result: "notSupported", status: "degraded", reason: "notSupported")
    let items = try LogBook(store: harness.store).entries()
    let english = items.map { $0.localized(.english).message }
    let chinese = items.map { $0.localized(.simplifiedChinese).message }
    #expect(english.contains("Test: Online → Offline · timed out"), "\(english)")
    #expect(english.contains("Test: Degraded · not supported by this SimAdmin version"))
    #expect(chinese.contains("测试：在线 → 离线 · 超时"), "\(chinese)")
    #expect(chinese.allSatisfy { !$0.contains("notSupported") && !$0.contains("Test") })
  }

  /// A record keeps the instance's name as it was logged, after a rename.
  @Test func recordsKeepTheNameOfTheTime() throws {
    let harness = try FeatureHarness(.logCenter)
    let router = try harness.addInstance("Old name", "http://10.0.0.2:3000")
    harness.storeLogger("msa.messages").info(
      "messages.sent",
      metadata: [
        "instance_id": router.id, "instance_name": "Old name", "peer": "10086",
        "body": "code 482913",
      ])
    _ = try harness.testStore.instances.update(
      id: router.id, expectedRevision: nil, changes: InstanceChanges(name: "New name"))
    let item = try #require(try LogBook(store: harness.store).entries().first)
    let shown = item.localized(.english)
    #expect(shown.instanceName == "Old name")
    #expect(shown.message == "Old name: message to 10086 sent")
    #expect(shown.metadata["body"]?.contains("482913") == false)
  }
}

extension FeatureHarness {
  /// `msa logs` as text and JSON in `language`.
  static func listing(_ harness: FeatureHarness, _ language: AppLanguage) async throws -> String {
    let items = try LogBook(store: harness.store).entries()
    let view = LogViews.list(items, language: language)
    let text = TextRenderer.render(view, options: RenderOptions(width: 400, language: language))
    let json = try JSONEncoder().encode(items.map { $0.localized(language) })
    return text + String(decoding: json, as: UTF8.self)
  }
}
