import AppCore
import AppRuntime
import Essentials
import EssentialsTesting
import FeatureKit
import Foundation
import SimAdminSimulator
import Testing

@testable import MSAApp

/// Walks the iPhone app on Linux as a person taps through it: the phone runtime with the app's
/// modules against a simulated fleet, every flow performed by the messages the SwiftUI views
/// send to the screens' models. Each screen shown goes into a transcript (its title, rows,
/// inputs, actions, notice and dialog) and is checked: no terminal words, one-line strings
/// that fit at 390 points in the largest standard text size.
@MainActor
final class PhoneWalker {
  /// The simulated devices: a password device, a device without a modem, a device that never
  /// answers, and a device with SMS traffic.
  static let profiles = [
    DeviceProfile(name: "Lab", password: "s3cret-lab", hub: .standalone(), smsCount: 6, seed: 11),
    DeviceProfile(name: "NoModem", hub: .standalone(), hasModem: false, smsCount: 0, seed: 12),
    DeviceProfile(name: "Hanging", smsCount: 0, seed: 13, faults: [FaultRule(.hang)]),
    DeviceProfile(name: "Traffic", hub: .standalone(), smsCount: 64, seed: 14),
  ]

  let language: AppLanguage
  let fleet: SimulatedFleet
  let session: PhoneSession
  let clock: TestClock
  let sandbox: URL
  /// The transcript's lines.
  private(set) var lines: [String] = []
  /// What the checks found.
  private(set) var problems: [String] = []
  /// The route patterns a screen was shown for.
  private(set) var reached: Set<String> = []

  init(language: AppLanguage, modules: [FeatureModule]) async throws {
    self.language = language
    clock = TestClock(start: Date(timeIntervalSince1970: 1_767_261_600))  // 2026-01-01 10:00Z
    sandbox = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-phone-walk-\(UUID().uuidString)")
    fleet = try await SimulatedFleet.start(Self.profiles, clock: clock.clock)
    session = try PhoneRuntime.session(
      modules: modules, schemaModules: CompiledFeatures.schemaModules, version: "0.1.0",
      applicationSupport: sandbox.appendingPathComponent("Application Support"),
      documents: sandbox.appendingPathComponent("Documents"),
      preferredLanguages: [language == .simplifiedChinese ? "zh-Hans-CN" : "en-GB"],
      timeZone: Self.timeZone, clock: clock.clock)
  }

  /// The phone's time zone in the walk: not UTC and not Beijing's, so a time shown in either
  /// would be seen.
  static let timeZone = TimeZone(identifier: "Asia/Tokyo") ?? .current

  /// Stops the fleet and removes the sandbox.
  func stop() async {
    await fleet.stop()
    try? FileManager.default.removeItem(at: sandbox)
  }

  /// The device of a profile.
  func device(_ name: String) -> SimulatedDevice {
    fleet.devices.first { $0.profile.name == name } ?? fleet.devices[0]
  }

  /// The origin of a profile's device, as a user types it.
  func origin(_ name: String) -> String {
    device(name).origin.absoluteString
  }

  /// Waits until every load the session started has ended.
  func settle() async {
    await session.idle()
  }

  /// The model of the screen shown, as `Model`.
  func screen<Model>(_ type: Model.Type, sourceLocation: SourceLocation = #_sourceLocation)
    throws -> Model
  {
    let visible = try #require(session.visible, sourceLocation: sourceLocation)
    return try #require(
      visible as? Model, "the screen shown is \(Swift.type(of: visible))",
      sourceLocation: sourceLocation)
  }

  /// Records the screen shown under `step` and checks its words. With `rows`, the transcript
  /// keeps only the first rows of each section (the log center's older records tie on their
  /// time and come in the order the devices answered); every row is checked all the same.
  func show(_ step: String, rows limit: Int? = nil) {
    guard let model = session.visible else {
      problems.append("\(step): no screen is shown")
      return
    }
    let path = session.state.screen.path
    if let match = session.context.registry.phoneScreen(for: path) {
      reached.insert(match.screen.pattern.description)
    }
    let outline = model.outline()
    var shown = outline
    if let limit {
      for index in shown.sections.indices where shown.sections[index].rows.count > limit {
        let more = shown.sections[index].rows.count - limit
        shown.sections[index].rows =
          Array(shown.sections[index].rows.prefix(limit))
          + [PhoneOutline.Row([PhoneText("(\(more) older rows not written here)")])]
      }
    }
    lines.append("")
    lines.append("## \(step) — \(normalized(path))")
    lines += shown.lines.map(normalized)
    for text in outline.texts where text.role != .foreign {
      if let word = PhoneWording.terminalWord(in: text.text) {
        problems.append("\(step): terminal word “\(word)” in “\(text.text)”")
      }
      if let problem = PhoneFit.problem(text) {
        problems.append("\(step): \(problem)")
      }
    }
  }

  /// Adds a line of its own to the transcript (what the walk did).
  func note(_ line: String) {
    lines.append("> " + normalized(line))
  }

  /// Records a problem.
  func fail(_ problem: String) {
    problems.append(problem)
  }

  /// The requests `device` received while `work` ran.
  func requests(to device: String, during work: () async throws -> Void) async rethrows
    -> [RecordedRequest]
  {
    self.device(device).clearRequests()
    try await work()
    await settle()
    return self.device(device).requests()
  }

  /// What varies from run to run written as it is fixed: the simulator's ports and the
  /// instances' random ids (in paths).
  static func normalized(_ line: String) -> String {
    let line = line.split(separator: "/", omittingEmptySubsequences: false).map { part in
      part.count == 12 && part.allSatisfy(\.isHexDigit) ? "ID" : String(part)
    }.joined(separator: "/")
    var result = ""
    var rest = Substring(line)
    while let range = rest.range(of: "127.0.0.1:") {
      result += rest[..<range.upperBound]
      rest = rest[range.upperBound...]
      let digits = rest.prefix { $0.isNumber }
      result += digits.isEmpty ? "" : "PORT"
      rest = rest.dropFirst(digits.count)
    }
    return result + rest
  }

  /// `line` with the sandbox's random path written `SANDBOX`, then ``normalized(_:)``.
  func normalized(_ line: String) -> String {
    Self.normalized(line.replacingOccurrences(of: sandbox.path, with: "SANDBOX"))
  }

  /// The transcript as a file's text.
  var transcript: String {
    let header = [
      "# The iPhone app walked on Linux (\(language == .english ? "English" : "简体中文"))",
      "# Written by Tests/MSAAppTests/PhoneWalkTests.swift (SNAPSHOT_RECORD=1 to rewrite).",
      "# Time zone \(Self.timeZone.identifier); ports shown as PORT.",
    ]
    return (header + lines).joined(separator: "\n") + "\n"
  }
}
