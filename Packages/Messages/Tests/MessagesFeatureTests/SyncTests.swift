import Essentials
import FeatureKitTesting
import Foundation
import LocalStore
import MessagesFeature
import SimAdminClient
import SimAdminSimulator
import Testing
import ViewKit

@Suite("Sync")
struct SyncTests {
  @Test("first sync takes all history; a later sync stops at the first known page")
  func firstAndLaterSync() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "A", smsCount: 30, seed: 1),
        DeviceProfile(name: "B", smsCount: 25, seed: 2),
      ])
    let results = await harness.syncer(pageSize: 7).sync(harness.instances)
    #expect(results.map(\.failure) == [nil, nil])
    #expect(results.map(\.inserted) == [30, 25])
    #expect(try harness.all().count == 55)
    let again = await harness.syncer(pageSize: 7).sync(harness.instances)
    #expect(again.map(\.inserted) == [0, 0])
    #expect(again.map(\.pages) == [1, 1])
    await harness.stop()
  }

  @Test("an ok answer without data.messages is a protocol error, never \"0 new\"")
  func missingMessagesIsAProtocolError() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(
          name: "A", smsCount: 5,
          faults: [FaultRule(.oversized(bytes: 4_000), pathPrefix: "/api/sms/list")])
      ])
    let result = await harness.syncer(pageSize: 7).syncOne(harness.instances[0])
    #expect(result.failureKey == "error.missingField")
    #expect(result.failure?.contains("has no data.messages") == true, "\(result.failure ?? "")")
    #expect(result.inserted == 0)
    await harness.stop()
  }

  @Test("protection without an admin password: its own reason, not a device error")
  func protectionWithoutPassword() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "A", protectedWithoutPassword: true, smsCount: 5)
      ])
    let result = await harness.syncer(pageSize: 7).syncOne(harness.instances[0])
    #expect(result.failureKey == "error.passwordNotSet")
    #expect(result.failure?.contains("no admin password set") == true, "\(result.failure ?? "")")
    #expect(result.failure?.contains("reported an error") == false)
    await harness.stop()
  }

  @Test("live traffic between pages: nothing lost, nothing duplicated")
  func liveTraffic() async throws {
    let device = Locked<SimulatedDevice?>(nil)
    let hook: @Sendable (Int) -> Void = { page in
      device.current?.receiveSMS(from: "+8613900000\(page)", content: "live \(page) 验证码 4821")
    }
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 40)],
      wrapping: { HookedTransport($0, hook: hook) })
    let before = Set(harness.devices[0].messages().map(messageIdentity))
    device.withLock { $0 = harness.devices[0] }
    let result = await harness.syncer(pageSize: 6).syncOne(harness.instances[0])
    #expect(result.failure == nil)
    device.withLock { $0 = nil }
    let archived = try harness.all().map(messageIdentity)
    #expect(Set(archived).count == archived.count)
    #expect(before.isSubset(of: Set(archived)))
    // Messages that arrived above the pages already read come with the next sync.
    let next = await harness.syncer(pageSize: 6).syncOne(harness.instances[0])
    #expect(next.failure == nil)
    let final = try harness.all().map(messageIdentity)
    let onDevice = harness.devices[0].messages().map(messageIdentity)
    #expect(final.count == onDevice.count)
    #expect(Set(final) == Set(onDevice))
    #expect(onDevice.count > 45)
    await harness.stop()
  }

  @Test("deletions between pages: every message still on the device is archived")
  func deletionsBetweenPages() async throws {
    let device = Locked<SimulatedDevice?>(nil)
    let hook: @Sendable (Int) -> Void = { page in
      guard page <= 3, let simulated = device.current else { return }
      // Delete the 5 newest (already read) messages: older ones move to lower offsets.
      simulated.deleteMessages(ids: simulated.messages().prefix(5).map(\.id))
    }
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 60)],
      wrapping: { HookedTransport($0, hook: hook) })
    let before = Set(harness.devices[0].messages().map(messageIdentity))
    device.withLock { $0 = harness.devices[0] }
    let result = await harness.syncer(pageSize: 8).syncOne(harness.instances[0])
    device.withLock { $0 = nil }
    #expect(result.failure == nil)
    let remaining = Set(harness.devices[0].messages().map(messageIdentity))
    let archived = try harness.all().map(messageIdentity)
    #expect(Set(archived).count == archived.count)
    #expect(remaining.isSubset(of: Set(archived)))
    #expect(Set(archived).isSubset(of: before))
    await harness.stop()
  }

  @Test("an interrupted sync run again completes, also after new messages")
  func interruptedSync() async throws {
    let device = Locked<SimulatedDevice?>(nil)
    let hook: @Sendable (Int) -> Void = { page in
      if page == 2 {
        device.current?.setFaults([FaultRule(.serverError, pathPrefix: "/api/sms/list")])
      }
    }
    let transport = Locked<HookedTransport?>(nil)
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 50)],
      wrapping: { inner in
        let hooked = HookedTransport(inner, hook: hook)
        transport.withLock { $0 = hooked }
        return hooked
      })
    let simulated = harness.devices[0]
    device.withLock { $0 = simulated }
    let first = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    #expect(first.failure != nil)
    #expect(try harness.all().count < 50)
    device.withLock { $0 = nil }
    simulated.setFaults([])
    let second = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    #expect(second.failure == nil)
    #expect(try harness.all().count == 50)

    // A later sync interrupted after its first page must not stop early next time.
    for index in 0..<35 { simulated.receiveSMS(from: "10086", content: "new \(index)") }
    device.withLock { $0 = simulated }
    transport.current?.listPages.withLock { $0 = 0 }
    let third = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    #expect(third.failure != nil)
    device.withLock { $0 = nil }
    simulated.setFaults([])
    let fourth = await harness.syncer(pageSize: 10).syncOne(harness.instances[0])
    #expect(fourth.failure == nil)
    #expect(try harness.all().count == 85)
    await harness.stop()
  }

  @Test("a device database reset reuses ids without overwriting archived messages")
  func idReset() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 20)])
    let simulated = harness.devices[0]
    _ = await harness.syncer(pageSize: 8).syncOne(harness.instances[0])
    let before = try harness.all()
    simulated.resetDatabase(keepingMessages: 3)
    simulated.receiveSMS(from: "95588", content: "after reset one")
    simulated.receiveSMS(from: "95588", content: "after reset two")
    #expect(simulated.messages().map(\.id).contains(4))
    let result = await harness.syncer(pageSize: 8).syncOne(harness.instances[0])
    #expect(result.failure == nil)
    #expect(result.inserted == 2)
    let after = try harness.all()
    #expect(after.count == 22)
    for old in before {
      #expect(after.first { $0.id == old.id }?.body == old.body)
    }
    await harness.stop()
  }

  @Test("long and Unicode messages and + numbers round trip")
  func unicodeRoundTrip() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)])
    let long = String(repeating: "验证码😀abc，", count: 150)
    harness.devices[0].receiveSMS(from: "+8613800138000", content: long)
    harness.devices[0].receiveSMS(from: "Google", content: "G-123456 is your code\nline two")
    _ = await harness.syncer(pageSize: 5).syncOne(harness.instances[0])
    let all = try harness.all()
    let plus = try #require(all.first { $0.peer == "+8613800138000" })
    #expect(plus.body == long)
    #expect(plus.peerKey == "13800138000")
    #expect(all.contains { $0.body == "G-123456 is your code\nline two" && $0.peerKey == "Google" })
    await harness.stop()
  }

  @Test("a hanging instance ends at its timeout while the others finish")
  func hangingInstance() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "ok1", smsCount: 12),
        DeviceProfile(
          name: "hung", smsCount: 12, faults: [FaultRule(.hang, pathPrefix: "/api/sms")]),
        DeviceProfile(name: "ok2", smsCount: 12),
      ], timeout: 1)
    let start = Date()
    let results = await harness.syncer(pageSize: 5).sync(harness.instances)
    let elapsed = Date().timeIntervalSince(start)
    #expect(results.map(\.instanceName) == ["ok1", "hung", "ok2"])
    #expect(results[0].inserted == 12 && results[2].inserted == 12)
    #expect(results[1].failureKey == "error.timeout")
    // A hang never ends by itself: any finite bound proves the timeout ended it; a wide one keeps a
    // loaded machine from failing the test.
    #expect(elapsed < 30)
    await harness.stop()
  }

  @Test("Beijing device time becomes the true instant")
  func beijingTime() async throws {
    let harness = try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 0)])
    let at = try #require(BeijingTime.date(from: "2026-01-01 00:30:00"))
    harness.devices[0].receiveSMS(from: "10086", content: "hi", at: at)
    _ = await harness.syncer(pageSize: 5).syncOne(harness.instances[0])
    let message = try #require(try harness.all().first)
    #expect(message.deviceTimestamp == "2026-01-01 00:30:00")
    #expect(ISO8601DateFormatter().string(from: message.deviceAt) == "2025-12-31T16:30:00Z")
    await harness.stop()
  }

  @Test("sync command: failing instance on its own row, progress on stderr, exit 1")
  func syncCommand() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "good", smsCount: 5),
        DeviceProfile(
          name: "bad", smsCount: 5, faults: [FaultRule(.serverError, pathPrefix: "/api/sms")]),
      ])
    let result = try await harness.run(["messages", "sync", "--page-size", "3"])
    #expect(result.exitCode.rawValue == 1)
    #expect(harness.streams.error.contains("[2/2]"))
    #expect(try harness.all().count == 5)
    await harness.stop()
  }
}

@Suite("Sync results in words")
struct SyncResultTextTests {
  @Test(
    "a failing device's row and progress line are filled and in the chosen language",
    arguments: AppLanguage.allCases)
  func failuresAreFilled(language: AppLanguage) async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(name: "Broken", smsCount: 3), DeviceProfile(name: "Garbled", smsCount: 3),
        DeviceProfile(name: "Moved", smsCount: 3), DeviceProfile(name: "Fine", smsCount: 3),
      ], language: language)
    harness.devices[0].setFaults([FaultRule(.serverError, pathPrefix: "/api/sms")])
    harness.devices[1].setFaults([FaultRule(.malformedJSON, pathPrefix: "/api/sms")])
    harness.devices[2].setFaults([
      FaultRule(.redirect(to: "http://elsewhere.example:3000/"), pathPrefix: "/api/sms")
    ])
    let result = try await harness.run(["messages", "sync"])
    let text = TextRenderer.render(
      result.view, options: RenderOptions(width: 160, language: language))
    let progress = harness.streams.error
    for shown in [text, progress] {
      #expect(!shown.contains("{"), "\(shown)")
      #expect(shown.contains("500"), "\(shown)")
      #expect(shown.contains("elsewhere.example"), "\(shown)")
    }
    if language == .simplifiedChinese {
      #expect(!progress.contains("failed"), "\(progress)")
    }
    await harness.stop()
  }
}
