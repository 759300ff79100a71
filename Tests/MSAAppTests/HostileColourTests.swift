import CommandLineApp
import Essentials
import EssentialsTesting
import FeatureKit
import Foundation
import MSAApp
import SimAdminSimulator
import Testing

/// Issue 30: a device's colour and conceal codes (`ESC[31m`, `ESC[8m` hides what follows)
/// never reach standard error raw, the one stream msa never colours: `msa code` names the
/// sender there, progress lines carry devices' error messages.
@Suite(.serialized) struct HostileColourTests {
  static let sender = "\u{1B}[31mBank\u{1B}[8m\u{1B}[0m"

  /// Runs msa in `home` with both of its stdout paths captured (`msa code` writes its code
  /// while it runs, through the streams).
  static func run(_ arguments: [String], home: URL, terminal: Bool) async throws -> Run {
    let output = Captured()
    let error = Captured()
    let context = ProcessContext(
      environment: ["MSA_HOME": home.path, "LANG": "en_US.UTF-8"],
      streams: StandardStreams(
        writeOutput: { text in output.text.withLock { $0 += text } },
        writeError: { text in error.text.withLock { $0 += text } }, readInput: { nil }),
      writeOutput: { text in output.text.withLock { $0 += text } },
      outputIsTerminal: terminal, terminalWidth: terminal ? 80 : nil, clock: AppClock.system)
    let app = try MSAApplication(modules: CompiledFeatures.modules)
    let status = await app.run(arguments, context: context)
    return Run(status: status, output: output.text.current, error: error.text.current)
  }

  @Test func msaCodeShowsASendersColourCodesAsStandIns() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "colour", smsCount: 0)])
    defer { Task { await fleet.stop() } }
    let device = try #require(fleet.devices.first)
    _ = device.receiveSMS(from: Self.sender, content: "验证码 482913，5分钟内有效，请勿泄露")
    let home = HostileTextTests.Home()
    let added = try await home.run([
      "fleet", "add", "--name", "colour", "--url", device.origin.absoluteString,
    ])
    #expect(added.status == 0, "\(added.error)")
    for terminal in [false, true] {
      let code = try await Self.run(["code", "--since", "1h"], home: home.url, terminal: terminal)
      #expect(code.status == 0, "\(code.error)")
      #expect(code.output == "482913\n")
      // The sender is named on standard error, its codes shown, none raw.
      #expect(RawControls.find(in: code.error).isEmpty, "\(code.error.debugDescription)")
      #expect(code.error.contains("␛[31mBank␛[8m␛[0m"), "\(code.error)")
    }
  }

  @Test func standardErrorsGuardShowsEvenColour() {
    let error = Captured()
    let context = ProcessContext(
      environment: [:],
      streams: StandardStreams(
        writeError: { text in error.text.withLock { $0 += text } }, readInput: { nil }),
      writeOutput: { _ in }, outputIsTerminal: true, terminalWidth: 80, clock: AppClock.system
    ).guardingTerminal()
    context.streams.writeError("[1/2] evil: \u{1B}[8mhidden\u{1B}[0m\n")
    #expect(error.text.current == "[1/2] evil: ␛[8mhidden␛[0m\n")
  }
}
