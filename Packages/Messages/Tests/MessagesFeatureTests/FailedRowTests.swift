import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import MessagesFeature
import SimAdminSimulator
import Testing

/// Issue 29 point 9: SimAdmin's automation stores a send it could not make as an outgoing row
/// with status `failed`; msa listed it like a sent message.
@Suite struct FailedRowTests {
  @Test func aFailedOutgoingRowIsListedAsFailedNotAsSent() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "auto", smsCount: 0)])
    let device = harness.devices[0]
    device.storeSMS(direction: "outgoing", phoneNumber: "10086", content: "sent fine")
    device.storeSMS(
      direction: "outgoing", phoneNumber: "10086", content: "never left", status: "failed")
    _ = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    let list = await harness.outcome(["messages", "list"])
    let lines = list.text(width: 120).split(separator: "\n")
    let failed = try #require(lines.first { $0.contains("never") })
    let sent = try #require(lines.first { $0.contains("sent") && !$0.contains("never") })
    #expect(failed.contains("✗") && !failed.contains("↑"))
    #expect(sent.contains("↑"))
    let thread = await harness.outcome(["messages", "show", "10086"])
    #expect(thread.text(width: 120).contains("Not sent: the device stored this message as failed."))
    let chinese = await harness.outcome(
      ["messages", "show", "10086"], language: .simplifiedChinese)
    #expect(chinese.text(width: 120).contains("未发送"))
    let json = String(
      decoding: try JSONOutputTest.encode(try #require(list.result).payload), as: UTF8.self)
    #expect(json.contains(#""status":"failed""#))
    await harness.stop()
  }
}
