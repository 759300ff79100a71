import Essentials
import Foundation
import LocalStore
import LocalStoreTesting
import Testing

@Suite struct CredentialStoreTests {
  let directory: TemporaryDirectory
  let store: FileCredentialStore

  init() throws {
    directory = try TemporaryDirectory()
    store = FileCredentialStore(directory: directory.url)
  }

  func mode() throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
    return try #require(attributes[.posixPermissions] as? Int)
  }

  @Test func writesWithMode0600AndRoundTrips() throws {
    #expect(try store.password(for: "abc") == nil)
    try store.setPassword("p@ss wörd 密码", for: "abc123abc123")
    try store.setPassword("second", for: "000000000001")
    #expect(try mode() == 0o600)
    #expect(try store.password(for: "abc123abc123") == "p@ss wörd 密码")
    #expect(try store.instanceIDsWithPasswords() == ["000000000001", "abc123abc123"])
    try store.removePassword(for: "000000000001")
    #expect(try store.instanceIDsWithPasswords() == ["abc123abc123"])
    #expect(try mode() == 0o600)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(leftovers.sorted() == ["credentials.json", "credentials.json.lock"])
  }

  @Test func looseModeIsRefusedWithTheChmodFix() throws {
    try store.setPassword("secret", for: "a")
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o644], ofItemAtPath: store.fileURL.path)
    let error = try #require(throws: CredentialError.self) { try store.password(for: "a") }
    #expect(error == .insecurePermissions(path: store.fileURL.path, mode: "0644"))
    #expect(error.description.contains("chmod 600 \(store.fileURL.path)"))
    #expect(error.localizedMessage(.simplifiedChinese).contains("chmod 600"))
    #expect(throws: CredentialError.self) { try store.setPassword("x", for: "b") }
    #expect(try mode() == 0o644)
  }

  @Test func malformedFileIsRefusedAndNeverOverwritten() throws {
    let garbage = Data("{ this is not json, password=hunter2".utf8)
    _ = FileManager.default.createFile(
      atPath: store.fileURL.path, contents: garbage, attributes: [.posixPermissions: 0o600])
    let error = try #require(throws: CredentialError.self) {
      try store.setPassword("new", for: "a")
    }
    guard case .malformed(let path, _) = error else {
      Issue.record("expected malformed, got \(error)")
      return
    }
    #expect(path == store.fileURL.path)
    #expect(!error.description.contains("hunter2"))
    #expect(try Data(contentsOf: store.fileURL) == garbage)
  }

  @Test func storeUsesTheFileInItsDataDirectoryAndKeepsPasswordsOutOfTheDatabase() throws {
    let store = try Store.open(
      directory: directory.url, modules: [], clock: AppClock { Date(timeIntervalSince1970: 0) })
    let instance = try InstanceRepository(store: store).add(
      name: "r1", origin: InstanceOrigin(parsing: "http://10.1.1.1:3000"))
    try store.credentials.setPassword("zz-unique-secret-zz", for: instance.id)
    #expect(try self.store.password(for: instance.id) == "zz-unique-secret-zz")
    try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let bytes = try Data(contentsOf: store.databaseURL)
    #expect(bytes.range(of: Data("zz-unique-secret-zz".utf8)) == nil)
  }
}
