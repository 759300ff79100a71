import Foundation
import Testing

/// `msa simulate --faults` and `--sms-cases` specs are option values: a malformed one is a
/// usage error (exit 64) naming the item and what to write instead.
@Suite struct SimulateSpecTests {
  @Test(arguments: [
    (
      ["--sms-cases", "1=clock:0"],
      "SMS case item \"1=clock:0\": \"0\" is not allowed for clock; give the minutes the device's clock is off, not 0, negative for a slow clock (clock:-30)"
    ),
    (
      ["--sms-cases", "1=restore:0"],
      "SMS case item \"1=restore:0\": \"0\" is not allowed here; give a positive whole number"
    ),
    (
      ["--faults", "1=bogus"],
      "Fault item \"1=bogus\": unknown fault \"bogus\"; use latency, hang, reset, 500, malformed, oversized, slow, html, redirect, down, error, hostile or absurd."
    ),
  ])
  func badSpecsAreUsageErrors(spec: [String], message: String) async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await msa(["simulate", "--devices", "2"] + spec, home: home)
    #expect(run.status == 64)
    #expect(run.output.isEmpty)
    #expect(run.error.hasPrefix("Error: \(message)"), "\(run.error)")
  }

  @Test func aBadClockIsExplainedInChinese() async throws {
    let home = try temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await msa(
      ["simulate", "--devices", "1", "--sms-cases", "1=clock:x"], home: home,
      environment: ["LANG": "zh_CN.UTF-8"])
    #expect(run.status == 64)
    #expect(run.error.contains("clock 不接受 \"x\"；请给出设备时钟偏差的分钟数，不能为 0"), "\(run.error)")
  }
}
