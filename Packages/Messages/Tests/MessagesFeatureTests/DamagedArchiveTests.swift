import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import LocalStoreTesting
import MessagesFeature
import SimAdminSimulator
import Testing

/// Issue 35 point 4: a sync that meets a malformed page says so once — the file and the fix
/// (`msa data check`, then `msa data restore`) — and exits 1. It is this computer's failure:
/// no device's progress line or sync state carries it (before: each device's row said
/// "failed: Database error (11) … [SELECT …]", and the command went on to its view).
@Suite struct DamagedArchiveTests {
  /// A synced archive whose device-id index (read by every sync's matching) has one page
  /// overwritten, reopened as the next command would open it.
  func damagedArchive() async throws -> (FeatureHarness, FeatureHarness, URL) {
    let first = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "A", smsCount: 400, seed: 11),
        DeviceProfile(name: "B", smsCount: 400, seed: 12),
      ])
    #expect(await first.outcome(["messages", "sync"]).exitCode == .success)
    let database = first.store.database
    let root = try #require(
      try database.queryOne(
        "SELECT rootpage FROM sqlite_master WHERE name = 'messages_by_upstream'")?.int("rootpage"))
    let pageSize = try #require(try database.queryOne("PRAGMA page_size")?.int("page_size"))
    _ = try database.query("PRAGMA wal_checkpoint(TRUNCATE)")
    database.close()
    let file = first.store.databaseURL
    let handle = try FileHandle(forUpdating: file)
    try handle.seek(toOffset: UInt64((root - 1) * pageSize))
    try handle.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
    try handle.close()
    let reopened = try TestStore(
      directory: first.testStore.directory, modules: TestedFeature.messages.schema)
    return (first, try FeatureHarness(.messages, store: reopened), file)
  }

  @Test func aSyncThatMeetsAMalformedPageSaysSoOnce() async throws {
    let (first, harness, file) = try await damagedArchive()
    defer { Task { await first.stop() } }
    for language in [AppLanguage.english, .simplifiedChinese] {
      let sync = await harness.outcome(["messages", "sync"], language: language)
      #expect(sync.exitCode == .failure)
      #expect((sync.error as? SQLiteError)?.isDamage == true, "\(String(describing: sync.error))")
      #expect(sync.message.contains(file.path))
      #expect(sync.message.contains("msa data check") && sync.message.contains("msa data restore"))
      #expect(!sync.message.contains("SELECT") && !sync.message.contains("Database error"))
      #expect(sync.result == nil, "no view of a sync half done")
      let said = sync.stderr + sync.output
      #expect(!said.contains(file.path), "not on any device's line: \(said)")
    }
  }
}
