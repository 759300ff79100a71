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

/// `msa code`'s details on stderr show a device time's control characters by the same
/// stand-ins as the rest of stderr (`␛`), not dropped (which left `[8m]0;pwned` looking like
/// the device's own text).
@Suite("A device time's controls in msa code", .serialized)
struct CodeDeviceTimeControlTests {
  @Test("msa code shows a hostile device time's controls as stand-ins")
  func controlsAreShownNotDropped() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)], devicesOnTestClock: true)
    let device = harness.devices[0]
    _ = try await harness.run(["messages", "sync"])
    harness.clock.advance(by: 60)
    device.storeSMS(
      direction: "incoming", phoneNumber: "10690005", content: "【京东】验证码 555555，5分钟内有效。",
      timestamp: "\u{1B}[8m\u{1B}]0;pwned\u{07}\u{9B}2J")
    harness.clock.advance(by: 5)
    _ = try await harness.run(["messages", "sync"])
    let streams = CapturedStreams()
    var environment = harness.environment
    environment.streams = streams.streams
    _ = try await harness.run(["code"], environment: environment)
    #expect(streams.output == "555555\n")
    let details = streams.error
    #expect(details.contains("“␛[8m␛]0;pwned␇\\u{9B}2J” (not a time)"), "\(details)")
    #expect(!details.unicodeScalars.contains { UntrustedText.isControl($0) && $0 != "\n" })
    #expect(details == UntrustedText.terminalSafe(details))
    await harness.stop()
  }
}

/// What `≈` means is said where it is shown: under a list or conversations that show one, and
/// beside an approximate message in its thread, with the device's own time.
@Suite("The ≈ mark explained", .serialized)
struct ApproximateMarkTests {
  static let legend = "≈ the time msa received it: the device's own time named none"

  @Test("lists and conversations with an approximate time say what ≈ means; threads show why")
  func approximateTimesAreExplained() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 3)], devicesOnTestClock: true)
    let device = harness.devices[0]
    _ = try await harness.run(["messages", "sync"])
    // Believable times only: no legend.
    let plain = TextRenderer.render(
      try await harness.run(["messages", "list"]).view, options: RenderOptions(width: 80))
    #expect(!plain.contains("≈"), "\(plain)")
    device.storeSMS(
      direction: "incoming", phoneNumber: "10690009", content: "验证码 499999，5分钟内有效",
      timestamp: "0000-00-00 00:00:00")
    _ = try await harness.run(["messages", "sync"])
    for command in [["messages", "list"], ["messages", "conversations"]] {
      let text = TextRenderer.render(
        try await harness.run(command).view, options: RenderOptions(width: 80))
      #expect(text.contains(Self.legend), "\(command): \(text)")
      #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }
    let chinese = try await harness.outcome(["messages", "list"], language: .simplifiedChinese)
    #expect(
      chinese.text(width: 80, language: .simplifiedChinese).contains("≈ 为 msa 收到的时间"))
    let thread = TextRenderer.render(
      try await harness.run(["messages", "show", "10690009"]).view,
      options: RenderOptions(width: 80))
    #expect(thread.contains("device time “0000-00-00 00:00:00” (not a time)"), "\(thread)")
    await harness.stop()
  }
}
