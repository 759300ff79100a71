import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import MessagesFeature
import SimAdminSimulator
import Testing

/// A long read shows, on a terminal, the devices being read and the rows so far, in place on
/// standard error (issue 36 point 3); nothing of it in a pipe or with `--json`.
@Suite("Sync progress line", .serialized)
struct SyncProgressLineTests {
  /// What reached standard error, in order: `.line` for whole lines, `.status` for the status
  /// line's texts.
  enum Written: Equatable {
    case line(String)
    case status(String)
  }

  static func environment(
    _ harness: FeatureHarness, written: Locked<[Written]>, terminal: Bool, json: Bool = false
  ) -> AppEnvironment {
    var environment = harness.environment
    let status: @Sendable (String) -> Void = { text in
      written.withLock { $0.append(.status(text)) }
    }
    environment.streams = StandardStreams(
      writeError: { text in written.withLock { $0.append(.line(text)) } },
      readInput: { nil },
      writeStatus: terminal ? status : nil)
    environment.output.json = json
    environment.services = environment.services.registering(
      SyncProgressTiming(delay: 0, interval: 0.02))
    return environment
  }

  static func harness() async throws -> FeatureHarness {
    try await FeatureHarness(
      .messages,
      devices: [
        DeviceProfile(
          name: "Slow", smsCount: 80, seed: 21,
          faults: [FaultRule(.latency(milliseconds: 120), pathPrefix: "/api/sms/list")]),
        DeviceProfile(name: "Quick", smsCount: 5, seed: 22),
      ])
  }

  @Test("on a terminal: the device and its rows so far, in place, cleared before each line")
  func onATerminal() async throws {
    let harness = try await Self.harness()
    let written = Locked<[Written]>([])
    _ = try await harness.run(
      ["messages", "sync", "--page-size", "10"],
      environment: Self.environment(harness, written: written, terminal: true))
    let events = written.current
    let statuses = events.compactMap { if case .status(let text) = $0 { text } else { nil } }
    #expect(statuses.contains { $0.hasPrefix("Slow: ") && $0.hasSuffix(" rows read") })
    // The count goes up as pages come.
    let counts = statuses.compactMap {
      $0.hasPrefix("Slow: ") ? Int($0.dropFirst(6).prefix { $0.isNumber }) : nil
    }
    #expect(counts.count >= 2 && counts == counts.sorted() && (counts.last ?? 0) > 10)
    // Cleared at the end, and out of the way whenever a whole line is written.
    #expect(statuses.last == "")
    var shown = false
    for event in events {
      switch event {
      case .status(let text): shown = !text.isEmpty
      case .line(let text): #expect(!shown, "a line written over the status line: \(text)")
      }
    }
    #expect(
      events.contains {
        if case .line(let text) = $0 { text.contains("[2/2] Slow") } else { false }
      })
    await harness.stop()
  }

  @Test("nothing of it in a pipe or with --json")
  func notInPipesOrJSON() async throws {
    let harness = try await Self.harness()
    for (terminal, json) in [(false, false), (true, true)] {
      let written = Locked<[Written]>([])
      _ = try await harness.run(
        ["messages", "sync", "--page-size", "10", "--full"],
        environment: Self.environment(harness, written: written, terminal: terminal, json: json))
      #expect(!written.current.contains { if case .status = $0 { true } else { false } })
      #expect(
        written.current.contains {
          if case .line(let text) = $0 { text.contains("Slow") } else { false }
        })
    }
    await harness.stop()
  }
}
