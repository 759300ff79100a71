import Essentials
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import SimAdminSimulator
import Testing

/// Issue 35 point 7: a piped password loses exactly one line end, `\n` or `\r\n`, and keeps
/// every other character (a Swift `Character` holds `\r\n` as one, so `removeLast(2)` took the
/// password's last character with it); a password just typed and refused is "the password you
/// entered". The terminal prompt is tested on the real program, in a pty (`MSAAppTests`).
@Suite struct PasswordInputTests {
  @Test(arguments: [
    ("s3cret\r\n", "s3cret"), ("s3cret\n", "s3cret"), ("s3cret", "s3cret"),
    ("s3cret\n\n", "s3cret\n"), ("s3cret\r\n\r\n", "s3cret\r\n"), ("s3cret\r", "s3cret\r"),
    (" pa ss \t\n", " pa ss \t"), ("密码é\u{301}\r\n", "密码é\u{301}"), ("a\r\nb\r\n", "a\r\nb"),
  ])
  func exactlyOneLineEndIsRemoved(input: String, stored: String) async throws {
    let harness = try FeatureHarness(.fleet)
    let added = await harness.outcome(
      ["fleet", "add", "--name", "Router", "--url", "http://10.0.0.9:3000", "--password-stdin"],
      input: input)
    #expect(added.exitCode == .success, "\(added.message)")
    let id = try #require(try harness.registry.list().first?.id)
    #expect(try harness.store.credentials.password(for: id) == stored)

    let edited = await harness.outcome(
      ["fleet", "edit", "Router", "--password-stdin"], input: "x" + input)
    #expect(edited.exitCode == .success, "\(edited.message)")
    #expect(try harness.store.credentials.password(for: id) == "x" + stored)
  }

  @Test func aLineEndAloneIsNoPassword() async throws {
    let harness = try FeatureHarness(.fleet)
    for input in ["", "\n", "\r\n"] {
      let added = await harness.outcome(
        ["fleet", "add", "--name", "Router", "--url", "http://10.0.0.9:3000", "--password-stdin"],
        input: input)
      #expect(added.exitCode == .failure)
      #expect(added.message.contains("No password given"), "\(added.message)")
      #expect(try harness.registry.list().isEmpty, "nothing added")
    }
  }

  @Test func aCRLFPasswordLogsIn() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "locked", password: "pw-1", smsCount: 0)
    ])
    defer { Task { await fleet.stop() } }
    let harness = try FeatureHarness(.fleet)
    let origin = try #require(fleet.devices.first?.origin.absoluteString)
    #expect(
      await harness.outcome(["fleet", "add", "--name", "locked", "--url", origin]).exitCode
        == .success)
    let login = await harness.outcome(
      ["fleet", "login", "locked", "--password-stdin"], input: "pw-1\r\n")
    #expect(login.exitCode == .success, "\(login.message)")
    let id = try #require(try harness.registry.list().first?.id)
    #expect(try harness.store.credentials.password(for: id) == "pw-1")
  }

  @Test func aTypedPasswordRefusedIsThePasswordYouEntered() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "locked", password: "pw-1", smsCount: 0)
    ])
    defer { Task { await fleet.stop() } }
    let harness = try FeatureHarness(.fleet)
    let origin = try #require(fleet.devices.first?.origin.absoluteString)
    _ = await harness.outcome(["fleet", "add", "--name", "locked", "--url", origin])
    for language in [AppLanguage.english, .simplifiedChinese] {
      let wrong = await harness.outcome(
        ["fleet", "login", "locked", "--password-stdin"], input: "bad\n", language: language)
      #expect(wrong.exitCode == .failure)
      let expected = language == .english ? "the password you entered" : "您输入的密码"
      #expect(wrong.message.contains(expected), "\(wrong.message)")
      #expect(!wrong.message.contains("stored password") && !wrong.message.contains("保存的密码"))
    }
    let id = try #require(try harness.registry.list().first?.id)
    #expect(try harness.store.credentials.password(for: id) == nil, "nothing was stored")
  }
}
