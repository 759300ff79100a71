import CommandLineKit
import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import SimAdminClient
import SimAdminSimulator
import Testing
import ViewKit

@testable import DeviceModulesFeature

@Suite("msa device")
struct DeviceCommandTests {
  @Test("an unknown section is a usage error listing the sections")
  func unknownSection() async throws {
    try await FeatureHarness(.deviceModules, devices: [DeviceProfile(name: "open", smsCount: 3)])
      .use { harness in
        let error = await harness.outcome(["device", "open", "simm"]).error
        let usage = try #require(error as? UsageError)
        #expect(usage.kind == .invalidValue)
        #expect(usage.problem == .notAllowed(allowed: DeviceSection.names))
        #expect(usage.suggestion == "sim")
        #expect(UserFacingMessage.exitCode(of: usage) == .usage)
        #expect(harness.devices[0].requests().isEmpty)
      }
  }

  @Test("an unknown instance names the reference")
  func unknownInstance() async throws {
    try await FeatureHarness(.deviceModules, devices: [DeviceProfile(name: "open", smsCount: 3)])
      .use { harness in
        let error = await harness.outcome(["device", "nowhere"]).error
        let failure = try #require(error as? any LocalizedFailure)
        #expect(failure.localizedMessage(.english).contains("nowhere"))
      }
  }

  @Test("one section as JSON: section, status, fetchedAt and full identifiers")
  func sectionJSON() async throws {
    try await FeatureHarness(.deviceModules, devices: [DeviceProfile(name: "open", smsCount: 3)])
      .use { harness in
        let result = try await harness.run(["device", "open", "device"])
        #expect(result.exitCode == .success)
        let json = try result.jsonData()
        let sections = try #require(json["sections"] as? [[String: Any]])
        #expect(sections.count == 1)
        #expect(sections[0]["section"] as? String == "device")
        #expect(sections[0]["status"] as? String == "ok")
        #expect(sections[0]["fetchedAt"] as? String == "2026-01-01T00:00:00Z")
        let data = try #require(sections[0]["data"] as? [String: Any])
        let imei = try #require(data["imei"] as? String)
        #expect(imei.count >= 14)
        let text = TextRenderer.render(result.view, options: RenderOptions(width: 80))
        #expect(text.contains(imei))
      }
  }

  @Test("the overview masks identifiers and exits 1 when a section fails")
  func overview() async throws {
    try await FeatureHarness(
      .deviceModules,
      devices: [
        DeviceProfile(
          name: "open", smsCount: 3, faults: [FaultRule(.serverError, pathPrefix: "/api/stats/cpu")]
        )
      ]
    ).use { harness in
      let full = try await harness.report("open", [.device])
      guard case .device(let info) = full.state(.device)?.content else {
        Issue.record("no device content")
        return
      }
      let result = try await harness.run(["device", "open"])
      #expect(result.exitCode == .failure)
      let text = TextRenderer.render(result.view, options: RenderOptions(width: 120))
      #expect(!text.contains(info.imei))
      #expect(text.contains(DeviceFormat.maskIdentifier(info.imei)))
      guard case .screen(let screen) = result.view, case .table(let table) = screen.children.first
      else {
        Issue.record("overview is not a screen with a table")
        return
      }
      #expect(table.rows.map(\.id) == DeviceSection.names)
      #expect(table.rows.first?.link == "device/open/device")
    }
  }

  @Test("--all-sections shows every section in full")
  func allSections() async throws {
    try await FeatureHarness(.deviceModules, devices: [DeviceProfile(name: "open", smsCount: 3)])
      .use { harness in
        let result = try await harness.run(["device", "open", "--all-sections"])
        #expect(result.exitCode == .success)
        let text = TextRenderer.render(result.view, options: RenderOptions(width: 100))
        for section in DeviceSection.allCases {
          #expect(text.contains(section.title(.english)))
        }
        #expect(text.contains("Fetched at"))
      }
  }

  /// Issue 36 point 8: an uptime of 1e308 crashed `device … --all-sections` ("Double value
  /// cannot be converted to Int"). Every number the device answers is absurd here: every
  /// section still renders, in both languages and narrow, and what cannot be believed is `—`.
  @Test(
    "absurd numbers from the device show as unknown in every section",
    arguments: ["1e308", "-1e308", "9223372036854775808", "-1", "1e-320", "\"1e999\""])
  func absurdNumbers(text: String) async throws {
    try await FeatureHarness(
      .deviceModules,
      devices: [
        DeviceProfile(
          name: "broken", smsCount: 3,
          faults: [FaultRule(.absurdNumbers(text: text), pathPrefix: "/api/stats")]),
        DeviceProfile(
          name: "hostile", smsCount: 3, faults: [FaultRule(.absurdNumbers(text: text))]),
      ]
    ).use { harness in
      for name in ["broken", "hostile"] {
        for language in AppLanguage.allCases {
          let all = try await harness.run(["device", name, "--all-sections"], language: language)
          let overview = try await harness.run(["device", name], language: language)
          _ = try all.jsonData()
          for width in [40, 80, 120] {
            let options = RenderOptions(width: width, language: language)
            for view in [all.view, overview.view] {
              let rendered = TextRenderer.render(view, options: options)
              #expect(!rendered.isEmpty)
              // No number of hundreds of digits: an unbelievable value is unknown (an
              // ICCID has 20).
              #expect(rendered.firstRange(of: #/[0-9]{25}/#) == nil, "\(name) \(text)")
            }
          }
        }
      }
      // Where the device's uptime is absurd, the row says it is unknown.
      // (A tiny number, or text that reads as 1, is a believable uptime under a minute.)
      let resources = TextRenderer.render(
        try await harness.run(["device", "broken", "resources"]).view,
        options: RenderOptions(width: 100))
      let uptime = try #require(
        resources.split(separator: "\n").first { $0.hasPrefix("Uptime") })
      let believable = text == "1e-320" || text == "\"1e999\""
      #expect(uptime.hasSuffix(believable ? "min" : "—"), "\(uptime)")
      // A size of 1e308 bytes is unknown, not 0 B (nor is a core count of 1e308 zero cores).
      let memory = try #require(resources.split(separator: "\n").first { $0.hasPrefix("Memory") })
      #expect(memory.contains(" B") == believable, "\(memory)")
      let load = try #require(resources.split(separator: "\n").first { $0.hasPrefix("Load") })
      #expect(load.contains("— cores") != believable, "\(load)")
    }
  }

  @Test("sms: bodies masked unless --show-bodies")
  func smsBodies() async throws {
    try await FeatureHarness(.deviceModules, devices: [DeviceProfile(name: "open", smsCount: 0)])
      .use { harness in
        _ = harness.devices[0].receiveSMS(from: "10086", content: "Your code is 482913")
        let masked = try await harness.run(["device", "open", "sms"])
        let maskedText = TextRenderer.render(masked.view, options: RenderOptions(width: 120))
        #expect(!maskedText.contains("482913"))
        #expect(maskedText.contains("10086"))
        #expect(
          !(String(data: try JSONEncoder().encode(masked.payload), encoding: .utf8) ?? "").contains(
            "482913"))
        let shown = try await harness.run(["device", "open", "sms", "--show-bodies"])
        let shownText = TextRenderer.render(shown.view, options: RenderOptions(width: 120))
        #expect(shownText.contains("482913"))
      }
  }

  @Test("sms send reaches the device; bad input sends nothing")
  func send() async throws {
    try await FeatureHarness(
      .deviceModules, devices: [DeviceProfile(name: "open", smsCount: 0)], input: "from stdin\n"
    ).use {
      harness in
      let device = harness.devices[0]
      let result = try await harness.run(
        ["device", "open", "sms", "send", "--to", "+8613800000000", "--text", "hello there"])
      #expect(result.exitCode == .success)
      #expect(
        device.messages().contains {
          $0.content == "hello there" && $0.phoneNumber == "+8613800000000"
        })
      _ = try await harness.run(["device", "open", "sms", "send", "--to", "10010", "--text-stdin"])
      #expect(device.messages().contains { $0.content == "from stdin" })
      let before = device.messages().count
      let empty = await harness.outcome([
        "device", "open", "sms", "send", "--to", "10010", "--text", "  ",
      ]).error
      #expect(empty is DeviceFailure)
      let noTo = await harness.outcome(["device", "open", "sms", "send", "--text", "x"]).error
      #expect(noTo is UsageError)
      let badAction = await harness.outcome(["device", "open", "sms", "sned"]).error
      #expect((badAction as? UsageError)?.suggestion == "send")
      #expect(device.messages().count == before)
    }
  }

  @Test("sms send normalises the number as messages send does; a malformed one exits 64")
  func sendNumberRule() async throws {
    try await FeatureHarness(
      .deviceModules, devices: [DeviceProfile(name: "open", smsCount: 0)], input: "x\n"
    ).use {
      harness in
      let device = harness.devices[0]
      let result = try await harness.run([
        "device", "open", "sms", "send", "--to", "+86 138-0013 8000", "--text", "spaced",
      ])
      #expect(result.exitCode == .success)
      // Spaces and dashes removed, + kept: what SimAdmin stores is the clean number.
      #expect(device.messages().first { $0.content == "spaced" }?.phoneNumber == "+8613800138000")
      let before = device.messages().count
      for bad in ["abc", "12", "+86 138 0013 8000 0000 0000 1"] {
        let failure = await harness.outcome([
          "device", "open", "sms", "send", "--to", bad, "--text", "x",
        ]).error
        #expect(failure is UsageFailure, "\(bad)")
        #expect(failure.map { UserFacingMessage.exitCode(of: $0) } == .usage)
      }
      let both = await harness.outcome([
        "device", "open", "sms", "send", "--to", "10086", "--text", "x", "--text-stdin",
      ]).error
      #expect(both.map { UserFacingMessage.exitCode(of: $0) } == .usage)
      #expect(device.messages().count == before)
    }
  }

  @Test("sms send to a device without a modem reports the device's message")
  func sendNoModem() async throws {
    try await FeatureHarness(
      .deviceModules, devices: [DeviceProfile(name: "bare", hasModem: false)]
    ).use { harness in
      let error = await harness.outcome([
        "device", "bare", "sms", "send", "--to", "10086", "--text", "x",
      ]).error
      let failure = try #require(error as? DeviceFailure)
      #expect(
        failure.localizedMessage(.simplifiedChinese).contains(DeviceProfile.noModemSendMessage))
    }
  }

  @Test("sms send whose answer is lost is 'outcome unknown', never 'failed' (issue 29)")
  func sendOutcomeUnknown() async throws {
    try await FeatureHarness(
      .deviceModules,
      devices: [
        DeviceProfile(
          name: "lossy", faults: [FaultRule(.reset, pathPrefix: "/api/sms/send")])
      ]
    ).use { harness in
      let outcome = await harness.outcome([
        "device", "lossy", "sms", "send", "--to", "10086", "--text", "x",
      ])
      #expect(outcome.exitCode == .failure)
      #expect(
        outcome.message.hasPrefix("Outcome unknown: lossy did not confirm the send to 10086."))
      #expect(outcome.message.contains("msa device lossy sms"))
      #expect(!outcome.message.contains("failed"))
      let chinese = await harness.outcome(
        ["device", "lossy", "sms", "send", "--to", "10086", "--text", "x"],
        language: .simplifiedChinese)
      #expect(chinese.message.hasPrefix("结果未知"))
    }
  }

  @Test("sms delete refuses without --yes, naming the instance and count; deletes with it")
  func delete() async throws {
    try await FeatureHarness(.deviceModules, devices: [DeviceProfile(name: "office", smsCount: 5)])
      .use { harness in
        let device = harness.devices[0]
        let ids = device.messages().map(\.id).sorted()
        let refusal = await harness.outcome([
          "device", "office", "sms", "delete", String(ids[0]), String(ids[1]),
        ]).error
        let message = try #require(refusal as? DeviceFailure).localizedMessage(.english)
        #expect(message.contains("office"))
        #expect(message.contains("2 message"))
        #expect(message.contains("--yes"))
        #expect(message.contains("archived or not (msa messages sync office first keeps a copy)"))
        #expect(device.messages().count == 5)

        let one = try await harness.run([
          "device", "office", "sms", "delete", String(ids[0]), "--yes",
        ])
        #expect(try one.jsonData()["deleted"] as? Int == 1)
        #expect(device.messages().count == 4)

        let clearRefusal = await harness.outcome(["device", "office", "sms", "delete", "--all"])
          .error
        #expect(
          (clearRefusal as? DeviceFailure)?.localizedMessage(.english).contains("4 message") == true
        )
        let cleared = try await harness.run(["device", "office", "sms", "delete", "--all", "--yes"])
        #expect(try cleared.jsonData()["deleted"] as? Int == 4)
        #expect(device.messages().isEmpty)

        let both = await harness.outcome([
          "device", "office", "sms", "delete", "3", "--all", "--yes",
        ]).error
        #expect(both is DeviceFailure)
      }
  }

  @Test("sms delete of a conversation counts it first")
  func deleteConversation() async throws {
    try await FeatureHarness(.deviceModules, devices: [DeviceProfile(name: "office", smsCount: 0)])
      .use { harness in
        let device = harness.devices[0]
        _ = device.receiveSMS(from: "+8610086", content: "a")
        _ = device.receiveSMS(from: "+8610086", content: "b")
        _ = device.receiveSMS(from: "95588", content: "c")
        let refusal = await harness.outcome([
          "device", "office", "sms", "delete", "--conversation", "+8610086",
        ]).error
        #expect(
          (refusal as? DeviceFailure)?.localizedMessage(.english).contains("2 message") == true)
        let result = try await harness.run(
          ["device", "office", "sms", "delete", "--conversation", "+8610086", "--yes"])
        #expect(try result.jsonData()["deleted"] as? Int == 2)
        #expect(device.messages().map(\.phoneNumber) == ["95588"])
      }
  }

  @Test("sms delete of everything or a conversation leaves a message that arrives meanwhile")
  func deleteLeavesAMessageThatArrivesMeanwhile() async throws {
    for target in [["--all"], ["--conversation", "10086"]] {
      try await FeatureHarness(
        .deviceModules, devices: [DeviceProfile(name: "office", smsCount: 0)]
      ).use { harness in
        let device = harness.devices[0]
        for text in ["a", "b", "c"] { _ = device.receiveSMS(from: "10086", content: text) }
        // The device's answers to the reads that list the rows come 1.5 s late; a message
        // arrives in between. SimAdmin's delete-by-number (or clear) would delete it unseen.
        device.setFaults(
          ["/api/sms/list", "/api/sms/conversation"].map {
            FaultRule(.latency(milliseconds: 1500), pathPrefix: $0, method: "GET")
          })
        async let run = harness.run(["device", "office", "sms", "delete"] + target + ["--yes"])
        try await Task.sleep(nanoseconds: 700_000_000)
        _ = device.receiveSMS(from: "10086", content: "arrived meanwhile")
        let result = try await run
        #expect(try result.jsonData()["deleted"] as? Int == 3, "\(target)")
        #expect(device.messages().map(\.content) == ["arrived meanwhile"], "\(target)")
        let paths = device.requests().map { "\($0.method) \($0.path)" }
        #expect(!paths.contains { $0.hasPrefix("POST /api/sms/clear") }, "\(target)")
        #expect(!paths.contains { $0.hasPrefix("DELETE /api/sms/conversation") }, "\(target)")
      }
    }
  }
}
