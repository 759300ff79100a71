import Essentials
import EssentialsTesting
import FeatureKit
import FeatureKitTesting
import Foundation
import SimAdminSimulator
import Testing
import ViewKit

@testable import MessagesFeature

/// How `msa code`'s details and the console's line above the message list word a device time
/// msa did not believe: one that names no time is "not a time"; one that names a time more
/// than a day ahead is that time, said to have been in the future (issue 36 point 6).
@Suite("Device time words", .serialized)
struct DeviceTimeWordsTests {
  @Test("a clock two days fast: its time shown, in the future, not 'not a time'")
  func aheadIsATimeInTheFuture() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "Fast", smsCount: 3)], devicesOnTestClock: true)
    let device = harness.devices[0]
    _ = try await harness.run(["messages", "sync"])
    harness.clock.advance(by: 60)
    let ahead = harness.clock.clock.now() + 2 * 86_400
    device.storeSMS(
      direction: "incoming", phoneNumber: "10690002", content: "【京东】验证码 222222，5分钟内有效。",
      timestamp: BeijingTime.string(from: ahead))
    device.storeSMS(
      direction: "incoming", phoneNumber: "10690003", content: "【美团】验证码 333333，5分钟内有效。",
      timestamp: "0000-00-00 00:00:00")
    harness.clock.advance(by: 5)
    _ = try await harness.run(["messages", "sync"])
    let messages = try harness.all()
    let future = try #require(messages.first { $0.peer == "10690002" })
    let unnamed = try #require(messages.first { $0.peer == "10690003" })
    #expect(future.timeApproximate && unnamed.timeApproximate)

    let display = MessagesDisplay.resolve(harness.environment)
    let shown = display.format(ahead)
    #expect(
      CodeText.deviceTime(future, display, .english)
        == shown + " (in the future when msa received it)")
    #expect(
      CodeText.deviceTime(future, display, .simplifiedChinese) == shown + "（msa 收到时仍是未来时间）")
    #expect(CodeText.deviceTime(unnamed, display, .english) == "“0000-00-00 00:00:00” (not a time)")

    // The console's line above the list, when the future one is the newest code.
    harness.clock.advance(by: 60)
    device.storeSMS(
      direction: "incoming", phoneNumber: "10690004", content: "【京东】验证码 444444，5分钟内有效。",
      timestamp: BeijingTime.string(from: ahead + 60))
    harness.clock.advance(by: 5)
    _ = try await harness.run(["messages", "sync"])
    let view = try await ConsoleRecencyTests.messagesScreen(harness)
    let line = try #require(ConsoleRecencyTests.texts(view).first { $0.contains("Newest") })
    #expect(line.contains("10690004"), "\(line)")
    #expect(line.contains(display.format(ahead + 60) + " (in the future"), "\(line)")
    #expect(!line.contains("not a time"), "\(line)")
    await harness.stop()
  }
}
