import Essentials
import EssentialsTesting
import FeatureKit
import FeatureKitTesting
import Foundation
import SimAdminSimulator
import Testing
import ViewKit

@testable import MessagesFeature

/// The console's message list judges a code's recency as `msa code` does: by when msa first
/// archived it, not by the device's clock (issue 29 point 7, issue 36 point 6), and shows the
/// device's own time beside it; approximate times carry `≈` on every screen.
@Suite("Console recency", .serialized)
struct ConsoleRecencyTests {
  /// The `messages` route as the console loads it.
  static func messagesScreen(_ harness: FeatureHarness, flags: Set<String> = []) async throws
    -> ViewNode
  {
    let route = try #require(Messages.module.routes.first { $0.pattern.description == "messages" })
    return await route.render(
      RouteRequest(
        path: "messages", parameters: [:], environment: harness.environment, flags: flags))
  }

  static func table(_ view: ViewNode) -> Table? {
    if case .table(let table) = view { return table }
    for child in view.children {
      if let table = table(child) { return table }
    }
    return nil
  }

  static func texts(_ view: ViewNode) -> [String] {
    if case .text(let text) = view { return [text.text] }
    return view.children.flatMap(texts)
  }

  @Test("a code from a device whose clock is 30 minutes slow is the list's first row; c copies it")
  func slowClockCodeOnTop() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "Right", smsCount: 3), DeviceProfile(name: "Slow", smsCount: 3),
      ],
      devicesOnTestClock: true)
    let (right, slow) = (harness.devices[0], harness.devices[1])
    _ = try await harness.run(["messages", "sync"])
    harness.clock.advance(by: 60)
    right.receiveSMS(from: "10690001", content: "【美团】验证码 111111，5分钟内有效。")
    right.receiveSMS(from: "10086", content: "余额 12.5 元")
    _ = try await harness.run(["messages", "sync"])
    harness.clock.advance(by: 60)
    slow.setClockOffset(-1_800)
    slow.receiveSMS(from: "10690002", content: "【京东】验证码 222222，5分钟内有效。")
    harness.clock.advance(by: 5)
    _ = try await harness.run(["messages", "sync"])

    let view = try await Self.messagesScreen(harness)
    let rows = try #require(Self.table(view)).rows
    // Newest arrival first, whatever the device's clock: what `msa code` prints.
    #expect(rows.first?.copyValue == "222222")
    #expect(rows.dropFirst().first?.copyValue == "111111")
    #expect(Set(rows.map(\.id)).count == rows.count)
    let plain = try #require(try await TimeIdentityTests.code(harness))
    #expect(plain == "222222")
    // The line above says so, with the device's own time (30 minutes behind), code masked.
    let display = MessagesDisplay.resolve(harness.environment)
    let deviceTime = display.format(harness.clock.clock.now() - 5 - 1_800)
    let line = try #require(Self.texts(view).first { $0.contains("Newest") })
    #expect(line.contains("device time " + deviceTime), "\(line)")
    #expect(line.contains("10690002") && !line.contains("222222"))
    let revealed = try await Self.messagesScreen(harness, flags: ["bodies"])
    #expect(Self.texts(revealed).contains { $0.contains("Newest: 222222") })

    // Ten minutes on, nothing is recent: the list is in time order again.
    harness.clock.advance(by: 700)
    let later = try #require(Self.table(try await Self.messagesScreen(harness))).rows
    #expect(later.first?.copyValue == "111111")
    #expect(!Self.texts(try await Self.messagesScreen(harness)).contains { $0.contains("Newest") })
    await harness.stop()
  }

  @Test("a first sync's history puts no code on top; an approximate time has ≈ in conversations")
  func historyAndApproximateTimes() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 3)], devicesOnTestClock: true)
    let device = harness.devices[0]
    device.storeSMS(
      direction: "incoming", phoneNumber: "10690009", content: "验证码 499999，5分钟内有效",
      timestamp: "9999-12-31 23:59:59")
    _ = try await harness.run(["messages", "sync"])
    let view = try await Self.messagesScreen(harness)
    #expect(!Self.texts(view).contains { $0.contains("Newest") })
    let conversations = TextRenderer.render(
      try await harness.run(["messages", "conversations"]).view, options: RenderOptions(width: 100))
    let line = try #require(conversations.split(separator: "\n").first { $0.contains("10690009") })
    #expect(line.contains("≈ "), "\(line)")
    await harness.stop()
  }
}
