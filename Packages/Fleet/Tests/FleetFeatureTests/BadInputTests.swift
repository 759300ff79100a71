import Essentials
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import LocalStoreTesting
import Testing

@Suite struct BadInputTests {
  /// A harness with one instance `Existing` at http://10.0.0.1:3000, and a group `Lab`.
  func seeded() async throws -> FeatureHarness {
    let harness = try FeatureHarness(.fleet)
    _ = await harness.outcome(["groups", "add", "Lab"])
    let added = await harness.outcome([
      "fleet", "add", "--name", "Existing", "--url", "http://10.0.0.1:3000",
    ])
    #expect(added.exitCode == .success)
    return harness
  }

  @Test(arguments: [
    ("http://host/path", "path"),
    ("http://host?x=1", "query"),
    ("http://user:pw@host", "user"),
    ("ftp://host", "ftp"),
    ("http://", "host"),
    ("http://host:99999", "99999"),
    ("http://my host", "space"),
  ])
  func badURLIsRefusedAndNothingWritten(url: String, mention: String) async throws {
    let harness = try await seeded()
    let before = try harness.fingerprint()
    let outcome = await harness.outcome(["fleet", "add", "--name", "New", "--url", url])
    #expect(outcome.exitCode == .failure)
    #expect(outcome.message.lowercased().contains(mention), "\(outcome.message)")
    #expect(try harness.fingerprint() == before)
    let edit = await harness.outcome(["fleet", "edit", "Existing", "--url", url])
    #expect(edit.exitCode == .failure)
    #expect(try harness.fingerprint() == before)
  }

  @Test(arguments: ["", "   ", String(repeating: "x", count: 201)])
  func badNameIsRefused(name: String) async throws {
    let harness = try await seeded()
    let before = try harness.fingerprint()
    let outcome = await harness.outcome([
      "fleet", "add", "--name", name, "--url", "http://10.0.0.2",
    ])
    #expect(outcome.exitCode == .failure)
    #expect(!outcome.message.isEmpty)
    #expect(try harness.fingerprint() == before)
  }

  @Test func duplicateOriginIsRefused() async throws {
    let harness = try await seeded()
    let before = try harness.fingerprint()
    let outcome = await harness.outcome(
      ["fleet", "add", "--name", "Copy", "--url", "HTTP://10.0.0.1:3000/"])
    #expect(outcome.exitCode == .failure)
    #expect(outcome.message.contains("Existing"))
    #expect(try harness.fingerprint() == before)
  }

  @Test func staleRevisionIsAConflict() async throws {
    let harness = try await seeded()
    _ = await harness.outcome(["fleet", "edit", "Existing", "--tag", "x"])
    let before = try harness.fingerprint()
    let outcome = await harness.outcome([
      "fleet", "edit", "Existing", "--name", "Z", "--revision", "1",
    ])
    #expect(outcome.exitCode == .failure)
    #expect(outcome.message.contains("2"), "\(outcome.message)")
    #expect(try harness.fingerprint() == before)
  }

  @Test func unknownGroupInstanceAndAmbiguousReference() async throws {
    let harness = try await seeded()
    // The same name in another case is refused; one stored before that rule is ambiguous.
    let twin = await harness.outcome([
      "fleet", "add", "--name", "existing", "--url", "http://10.0.0.9",
    ])
    #expect(twin.exitCode == .failure)
    try harness.store.database.run(
      """
      INSERT INTO instances (id, name, origin, tags, revision, created_at, updated_at)
      VALUES ('abcdef000009', 'existing', 'http://10.0.0.9', '[]', 1, 0, 0)
      """)
    let before = try harness.fingerprint()
    let group = await harness.outcome(
      ["fleet", "add", "--name", "N", "--url", "http://10.0.0.3", "--group", "Nope"])
    #expect(group.exitCode == .failure)
    #expect(group.message.contains("Nope"))
    let unknown = await harness.outcome(["fleet", "remove", "ghost", "--yes"])
    #expect(unknown.exitCode == .failure)
    #expect(unknown.message.contains("ghost"))
    let ambiguous = await harness.outcome(["fleet", "show", "EXISTING"])
    #expect(ambiguous.exitCode == .failure)
    #expect(ambiguous.message.contains("10.0.0") || ambiguous.message.contains("existing"))
    #expect(try harness.fingerprint() == before)
  }

  @Test func usageErrorsExit64() async throws {
    let harness = try await seeded()
    let before = try harness.fingerprint()
    #expect(await harness.outcome(["fleet", "add", "--name", "x"]).exitCode == .usage)
    #expect(
      await harness.outcome(["fleet", "edit", "Existing", "--group", "Lab", "--no-group"]).exitCode
        == .usage)
    #expect(await harness.outcome(["fleet", "test"]).exitCode == .usage)
    #expect(await harness.outcome(["fleet", "test", "Existing", "--all"]).exitCode == .usage)
    #expect(await harness.outcome(["fleet", "edit", "Existing"]).exitCode == .usage)
    #expect(try harness.fingerprint() == before)
  }

  @Test func worldReadableCredentialsFileIsRefused() async throws {
    let harness = try await seeded()
    let file = harness.directory.appendingPathComponent("credentials.json")
    try Data(#"{"version": 1, "passwords": {}}"#.utf8).write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
    let before = try harness.fingerprint()
    let outcome = await harness.outcome(
      ["fleet", "add", "--name", "New", "--url", "http://10.0.0.5", "--password-stdin"],
      input: "pw\n")
    #expect(outcome.exitCode == .failure)
    #expect(outcome.message.contains("chmod 600") || outcome.message.contains("0644"))
    #expect(try harness.fingerprint() == before)
  }

  @Test func unreadableCredentialsFileIsRefused() async throws {
    let harness = try await seeded()
    // A directory where the file should be: it cannot be read as a file.
    let file = harness.directory.appendingPathComponent("credentials.json")
    try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: file.path)
    let before = try harness.fingerprint()
    let outcome = await harness.outcome(
      ["fleet", "edit", "Existing", "--password-stdin"], input: "pw\n")
    #expect(outcome.exitCode == .failure)
    #expect(outcome.message.contains("credentials.json"), "\(outcome.message)")
    #expect(try harness.fingerprint() == before)
  }

  @Test func newerDatabaseIsReadOnlyAndRefusesWrites() async throws {
    let directory = try TemporaryDirectory(prefix: "fleet-newer")
    do {
      let store = try Store.open(directory: directory.url, modules: [], clock: .system)
      try store.database.run("UPDATE schema_versions SET version = 99 WHERE module = 'core'")
      store.database.close()
    }
    let reopened = try TestStore(directory: directory)
    #expect(reopened.store.isReadOnly)
    let harness = try FeatureHarness(.fleet, store: reopened)
    let outcome = await harness.outcome(["fleet", "add", "--name", "N", "--url", "http://10.0.0.7"])
    #expect(outcome.exitCode == .failure)
    #expect(outcome.message.contains("99"), "\(outcome.message)")
    #expect(try harness.registry.list().isEmpty)
  }
}
