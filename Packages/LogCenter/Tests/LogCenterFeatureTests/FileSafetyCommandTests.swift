import Essentials
import EssentialsTesting
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import LocalStoreTesting
import Testing

@testable import LogCenterFeature

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct FileSafetyCommandTests {
  @Test func checkReportsLeftoversAndLooseModesAndFixCleansThem() async throws {
    let harness = try FeatureHarness(.logCenter)
    let killed = harness.directory.appendingPathComponent(
      "\(AtomicFile.temporaryPrefix)999999-beef-msa.before-restore.sqlite")
    try Data(repeating: 1, count: 2048).write(to: killed)
    chmod(harness.directory.path, 0o755)

    let check = try await harness.run(["data", "check"])
    #expect(check.exitCode == .success, "leftovers are warnings, the database is sound")
    let object = try check.jsonData()
    let findings = try #require(object["findings"] as? [[String: Any]])
    #expect(
      findings.contains {
        $0["kind"] as? String == "leftover" && $0["path"] as? String == killed.path
      })
    #expect(
      findings.contains {
        $0["kind"] as? String == "looseMode" && $0["detail"] as? String == "0755"
      })
    let text = check.text(width: 120)
    #expect(text.contains(killed.path))
    #expect(text.contains("--fix"))

    let fix = try await harness.run(["data", "check", "--fix"])
    #expect(try (fix.jsonData()["fixed"] as? [[String: Any]])?.count == 2)
    #expect(!FileManager.default.fileExists(atPath: killed.path))
    let again = try try await harness.run(["data", "check"]).jsonData()
    #expect((again["findings"] as? [Any])?.isEmpty == true)
  }

  @Test func backupRefusesADatabaseFailingItsQuickCheckUnlessForced() async throws {
    let harness = try FeatureHarness(.logCenter)
    let logger = harness.storeLogger()
    for index in 0..<3000 { logger.info("record \(index) " + String(repeating: "y", count: 100)) }
    _ = try harness.store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
    let database = harness.store.databaseURL
    let handle = try FileHandle(forUpdating: database)
    try handle.seek(toOffset: UInt64(DatabaseFile.size(database) / 2))
    try handle.write(contentsOf: Data(repeating: 0x5A, count: 4096))
    try handle.close()
    let fresh = try Store.open(
      directory: harness.directory, modules: [], clock: harness.clock.clock)
    let data = LocalData(store: fresh, clock: harness.clock.clock)
    #expect(!data.check().isEmpty, "data check lists the problems instead of failing")

    let target = harness.directory.appendingPathComponent("b.sqlite")
    #expect {
      try data.backup(to: target, force: false)
    } throws: { error in
      guard let error = error as? LogCenterError,
        case .backupOfDamaged(let path, let problems) = error
      else { return false }
      return path == database.path && !problems.isEmpty
        && error.localizedMessage(.english).contains("--force")
    }
    #expect(!FileManager.default.fileExists(atPath: target.path))
    _ = try data.backup(to: target, force: true)
    #expect(FileManager.default.fileExists(atPath: target.path))
  }

  @Test func restoreIntoADamagedHomeKeepsTheDamagedFileAside() async throws {
    let harness = try FeatureHarness(.logCenter)
    _ = try harness.addInstance("Kept", "http://10.0.0.1:3000")
    let backup = harness.directory.appendingPathComponent("good.sqlite")
    _ = try await harness.run(["data", "backup", backup.path])
    harness.store.database.close()
    let database = harness.store.databaseURL
    for suffix in ["-wal", "-shm"] { unlink(database.path + suffix) }
    let garbage = Data("definitely not SQLite, a damaged file".utf8)
    try garbage.write(to: database)
    #expect(throws: StoreError.self) {
      try Store.open(directory: harness.directory, modules: [], clock: harness.clock.clock)
    }

    let report = try LocalData.restoreIntoDamagedHome(
      directory: harness.directory, databaseURL: database, from: backup,
      clock: harness.clock.clock)
    #expect(try Data(contentsOf: URL(fileURLWithPath: report.safetyCopy)) == garbage)
    #expect(URL(fileURLWithPath: report.safetyCopy).lastPathComponent.hasPrefix("msa.damaged."))
    let reopened = try Store.open(
      directory: harness.directory, modules: [], clock: harness.clock.clock)
    #expect(try InstanceRepository(store: reopened).list().map(\.name) == ["Kept"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: harness.directory.path)
        .allSatisfy { !AtomicFile.isTemporaryName($0) })
  }

  /// A used home whose database is gone is refused on open and restored like a damaged one;
  /// with nothing to move aside, no safety copy is claimed.
  @Test func restoreIntoAHomeWhoseDatabaseIsMissing() async throws {
    let harness = try FeatureHarness(.logCenter)
    _ = try harness.addInstance("Kept", "http://10.0.0.1:3000")
    let backup = harness.directory.appendingPathComponent("good.sqlite")
    _ = try await harness.run(["data", "backup", backup.path])
    harness.store.database.close()
    let database = harness.store.databaseURL
    for suffix in ["", "-wal", "-shm"] { unlink(database.path + suffix) }
    #expect {
      try Store.open(directory: harness.directory, modules: [], clock: harness.clock.clock)
    } throws: { error in
      guard case .damaged(_, .header(.missing), _)? = error as? StoreError else { return false }
      return true
    }
    let report = try LocalData.restoreIntoDamagedHome(
      directory: harness.directory, databaseURL: database, from: backup,
      clock: harness.clock.clock)
    #expect(report.safetyCopy.isEmpty)
    let reopened = try Store.open(
      directory: harness.directory, modules: [], clock: harness.clock.clock)
    #expect(try InstanceRepository(store: reopened).list().map(\.name) == ["Kept"])
  }
}
