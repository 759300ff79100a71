import Essentials
import EssentialsTesting
import Foundation
import LocalStore
import LocalStoreTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 35 point 6: `msa data check` reads `credentials.json`. A file that is not a
/// credentials file, or a mode other than 0600, is a finding naming the file (before, a
/// truncated file passed with exit 0 while `fleet test` said it was unreadable); `--fix`
/// never overwrites or deletes an unreadable file: it keeps it aside and names the instances
/// whose passwords it held.
@Suite struct CredentialsCheckTests {
  let clock = TestClock()

  /// A home with Shop's and Office's passwords stored, and Bare without one.
  func home() throws -> (TestStore, FileCredentialStore, [String: String]) {
    let store = try TestStore()
    chmod(store.directory.url.path, 0o700)
    var names: [String: String] = [:]
    for (name, password) in [("Shop", "pw-one"), ("Office", "pw-two"), ("Bare", nil)] {
      let instance = try store.instances.add(
        name: name, origin: try InstanceOrigin(parsing: "http://10.0.0.\(names.count + 1):3000"))
      names[instance.id] = name
      if let password { try store.store.credentials.setPassword(password, for: instance.id) }
    }
    let credentials = try #require(store.store.credentials as? FileCredentialStore)
    return (store, credentials, names)
  }

  func findings(_ store: TestStore) -> [HomeFinding] {
    HomeInspection.findings(
      in: store.directory.url, credentials: store.store.credentials,
      instanceIDs: Set((try? store.instances.list().map(\.id)) ?? []))
  }

  @Test func aFileCutShortIsAFindingAndIsKeptAsideByFix() throws {
    let (store, credentials, names) = try home()
    let whole = try Data(contentsOf: credentials.fileURL)
    let text = String(decoding: whole, as: UTF8.self)
    // Cut after the first instance's entry: the second id is lost with the cut.
    let firstID = try #require(names.keys.sorted().first { text.contains($0) })
    let secondID = try #require(names.keys.sorted().last { text.contains($0) && $0 != firstID })
    let cut = try #require(text.range(of: secondID)).lowerBound
    let damaged = Data(text[..<cut].utf8)
    try damaged.write(to: credentials.fileURL)

    let found = findings(store).filter { $0.kind == .unreadableCredentials }
    #expect(
      found == [
        HomeFinding(
          kind: .unreadableCredentials, path: credentials.fileURL.path, detail: "not valid JSON")
      ])
    #expect(found.allSatisfy { $0.kind.blocks })
    for language in [AppLanguage.english, .simplifiedChinese] {
      #expect(found.first?.describe(language).contains(credentials.fileURL.path) == true)
    }

    let fixed = HomeInspection.fix(
      found, credentials: credentials, instanceNames: names, now: clock.clock.now())
    let aside = try #require(fixed.first)
    #expect(aside.kind == .unreadableCredentials)
    #expect(aside.path.hasSuffix(".json") && aside.path.contains("credentials.unreadable."))
    #expect(try Data(contentsOf: URL(fileURLWithPath: aside.path)) == damaged, "kept as it was")
    #expect(aside.detail == names[firstID], "the instance whose id the kept file holds")
    #expect(aside.describeFix(.english).contains(aside.path))
    #expect(!FileManager.default.fileExists(atPath: credentials.fileURL.path))
    #expect(findings(store).filter { $0.kind == .unreadableCredentials }.isEmpty)
    // Passwords can be stored again.
    try credentials.setPassword("pw-new", for: firstID)
    #expect(try credentials.password(for: firstID) == "pw-new")
  }

  @Test(arguments: [
    "", "{", "not json", "{}", #"{"version": 1}"#, #"{"version": 1, "passwords": []}"#,
  ])
  func anythingButACredentialsFileIsAFinding(content: String) throws {
    let (store, credentials, _) = try home()
    try Data(content.utf8).write(to: credentials.fileURL)
    #expect(findings(store).contains { $0.kind == .unreadableCredentials })
  }

  /// An aside name already taken is never replaced: the kept file gets the next number.
  @Test func fixNeverOverwritesAnything() throws {
    let (store, credentials, names) = try home()
    try Data("{".utf8).write(to: credentials.fileURL)
    let first = HomeInspection.fix(
      findings(store), credentials: credentials, instanceNames: names, now: clock.clock.now())
    #expect(first.count == 1)
    #expect(first.first?.detail == "", "no instance named in it")
    #expect(first.first?.describeFix(.english).contains("every instance that had one") == true)
    try Data("x".utf8).write(to: credentials.fileURL)
    let second = HomeInspection.fix(
      findings(store), credentials: credentials, instanceNames: names, now: clock.clock.now())
    let paths = (first + second).map(\.path)
    #expect(Set(paths).count == 2, "\(paths)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: paths[0])) == Data("{".utf8))
    #expect(try Data(contentsOf: URL(fileURLWithPath: paths[1])) == Data("x".utf8))
  }

  @Test(arguments: [0o644, 0o400, 0o700, 0o640])
  func aModeOtherThan0600IsAFindingFixFixes(mode: Int) throws {
    let (store, credentials, _) = try home()
    chmod(credentials.fileURL.path, mode_t(mode))
    let found = findings(store)
    let finding = HomeFinding(
      kind: .credentialsMode, path: credentials.fileURL.path, detail: "0" + String(mode, radix: 8))
    #expect(found.contains(finding))
    #expect(!found.contains { $0.kind == .looseMode && $0.path == credentials.fileURL.path })
    #expect(HomeInspection.fix(found, credentials: credentials).contains(finding))
    #expect(!findings(store).contains { $0.kind == .credentialsMode })
  }

  @Test func aSoundFileIsNoFinding() throws {
    let (store, _, _) = try home()
    #expect(
      findings(store).filter { $0.kind == .unreadableCredentials || $0.kind == .credentialsMode }
        .isEmpty)
  }
}
