import Essentials
import EssentialsTesting
import FeatureKitTesting
import Foundation
import LocalStore
import SimAdminClient
import SimAdminSimulator
import Testing

@testable import MessagesFeature

/// The log center learns what the operator did with messages: each sync's summary and
/// failures, each send's outcome, each delete and export, with the instance's name of the
/// time and bodies masked.
@Suite("Messages in the log")
struct MessagesLogTests {
  @Test("sync, send, delete and export leave records in words, masked")
  func operatorActionsAreRecorded() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "Alpha", smsCount: 3), DeviceProfile(name: "Gone", smsCount: 2),
      ])
    harness.devices[1].setFaults([FaultRule(.down)])
    _ = try await harness.run(["messages", "sync"])
    _ = try await harness.run(
      ["messages", "send", "--from", "Alpha", "--to", "10086", "--text", "code 852-598"])
    _ = try await harness.run(
      ["messages", "send", "--from", "Gone", "--to", "10010", "--text", "later 4829"])
    let peer = try #require(try harness.all().first { $0.instanceName == "Alpha" }?.peer)
    _ = try await harness.run(
      ["messages", "delete", "--peer", peer, "--scope", "local", "--yes"])
    let file = harness.testStore.directory.url.appendingPathComponent("out.jsonl")
    _ = try await harness.run(
      ["messages", "export", "--format", "jsonl", "--output", file.path])

    let records = harness.logs.records
    let codes = records.map(\.message)
    for code in [
      "messages.synced", "messages.syncFailed", "messages.sent", "messages.queued",
      "messages.deleted", "messages.exported",
    ] {
      #expect(codes.contains(code), "\(code) missing from \(codes)")
    }
    let summary = try #require(records.first { $0.message == "messages.synced" })
    #expect(summary.metadata["instances"] == "2" && summary.metadata["failed"] == "1")
    let failure = try #require(records.first { $0.message == "messages.syncFailed" })
    #expect(failure.metadata["instance_name"] == "Gone")
    #expect(failure.metadata["reason"] == "refused")
    // The operator's records (not the client's request lines, whose ports, bytes and
    // milliseconds can hold any digits) must not carry the bodies or their codes. The checks
    // are whole (a random temporary path or a duration may hold "598" by chance).
    for record in records where record.message.hasPrefix("messages.") {
      let line = record.line
      for secret in ["852-598", "852598", "code 852", "later 4829"] {
        #expect(!line.contains(secret), "\(secret) in \(line)")
      }
      for language in AppLanguage.allCases {
        let text = try #require(EventText.event(record.message, language, record.metadata))
        #expect(!text.contains("{"), "\(text)")
      }
    }
    #expect(
      EventText.event(failure.message, .simplifiedChinese, failure.metadata)
        == "Gone：同步失败 · 连接被拒绝")
    await harness.stop()
  }

  @Test("durations are times wherever a time is", arguments: ["7d", "12h", "30m", "2026-01-01"])
  func sinceTakesDurations(value: String) async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "Alpha", smsCount: 2)])
    _ = try await harness.run(["messages", "sync"])
    let result = try await harness.run(["messages", "list", "--since", value])
    #expect(result.exitCode == .success)
    await harness.stop()
  }
}
