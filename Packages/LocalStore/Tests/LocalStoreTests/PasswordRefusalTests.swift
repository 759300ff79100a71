import Essentials
import Foundation
import LocalStore
import LocalStoreTesting
import Testing

/// Issue 29 point 3: a refused password is remembered, next to it in the credential store,
/// until the password changes (or is removed); a refusal of a password that is no longer the
/// stored one is not recorded.
@Suite struct PasswordRefusalTests {
  let directory: TemporaryDirectory
  let store: FileCredentialStore
  let when = Date(timeIntervalSince1970: 1_767_225_600)

  init() throws {
    directory = try TemporaryDirectory()
    store = FileCredentialStore(directory: directory.url)
  }

  @Test func aRefusalIsKeptUntilThePasswordChanges() throws {
    try store.setPassword("wrong-one", for: "a1")
    try store.setPassword("other", for: "b2")
    #expect(try store.refusal(for: "a1") == nil)
    try store.recordRefusal(of: "wrong-one", for: "a1", origin: "http://10.0.0.1:3000", at: when)
    let refusal = try #require(try store.refusal(for: "a1"))
    #expect(refusal == PasswordRefusal(origin: "http://10.0.0.1:3000", at: when))
    // A second store over the same file (another msa process) sees it.
    let again = FileCredentialStore(directory: directory.url)
    #expect(try again.refusal(for: "a1") == refusal)
    #expect(try again.password(for: "a1") == "wrong-one")
    #expect(try again.refusal(for: "b2") == nil)
    // A new password forgets the refusal of the old one.
    try store.setPassword("right-one", for: "a1")
    #expect(try store.refusal(for: "a1") == nil)
    // A refusal of a password that is not the stored one (stored meanwhile) is ignored.
    try store.recordRefusal(of: "wrong-one", for: "a1", origin: "http://10.0.0.1:3000", at: when)
    #expect(try store.refusal(for: "a1") == nil)
    // Removing the password removes its refusal too.
    try store.recordRefusal(of: "right-one", for: "a1", origin: "http://10.0.0.1:3000", at: when)
    #expect(try store.refusal(for: "a1") != nil)
    try store.removePassword(for: "a1")
    #expect(try store.refusal(for: "a1") == nil)
    #expect(try store.instanceIDsWithPasswords() == ["b2"])
  }

  @Test func aFileWithoutRefusalsReadsAsBeforeAndStaysPrivate() throws {
    let file = directory.url.appendingPathComponent("credentials.json")
    try AtomicFile.write(
      Data(#"{"version": 1, "passwords": {"a1": "secret"}}"#.utf8), to: file, mode: 0o600,
      existing: .refuse)
    #expect(try store.password(for: "a1") == "secret")
    #expect(try store.refusal(for: "a1") == nil)
    try store.recordRefusal(of: "secret", for: "a1", origin: "https://dev.example", at: when)
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.contains("\"refused\""))
    #expect(text.contains("2026-01-01T00:00:00Z"))
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect(attributes[.posixPermissions] as? Int == 0o600)
  }
}
