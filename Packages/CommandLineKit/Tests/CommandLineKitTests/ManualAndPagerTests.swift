import CommandLineKit
import Essentials
import Foundation
import Testing

@Suite struct ManualFormatterTests {
  static func manual(_ language: AppLanguage = .english) -> String {
    var root = ConventionTests.tree
    root.discussion = SampleTree.text("fleet.add.discussion")
    return ManualFormatter.manual(
      root: root, globalOptions: SampleTree.globalOptions, language: language,
      programName: "msa", version: "1.2.3",
      environment: [EnvironmentVariable("MSA_HOME", help: SampleTree.text("opt.home"))])
  }

  @Test func theManualHoldsEveryVisibleCommandWithItsExamples() {
    let page = Self.manual()
    #expect(
      page.hasPrefix(".TH \"MSA\" 1 \"\" \"msa 1.2.3\" \"MultiSimAdmin Manual\"\n.SH \"NAME\""))
    #expect(page.contains(".SS \"msa fleet add\"\nAdd an instance."))
    #expect(page.contains("\\fB\\-\\-name\\fR \\fINAME\\fR"))
    #expect(page.contains(".nf\nmsa fleet list \\-\\-status offline\n"))
    #expect(page.contains(".SH \"ENVIRONMENT\"\n.TP\n.B MSA_HOME\nData directory."))
    #expect(page.contains(".SH \"EXIT STATUS\""))
    #expect(!page.contains("secret"))
    #expect(Self.manual(.simplifiedChinese).contains(".SH \"命令\""))
  }

  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "groff missing"))
  func groffRendersItWithoutWarnings() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-\(UUID().uuidString).1")
    try Self.manual().write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
    process.arguments = ["-k", "-man", "-Tutf8", "-ww", "-z", file.path]
    let error = Pipe()
    process.standardError = error
    try process.run()
    let warnings = String(
      decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(warnings.isEmpty, "\(warnings)")
  }
}

@Suite struct PagerTests {
  @Test func theEnvironmentChoosesThePager() {
    #expect(Pager.fromEnvironment([:])?.command == "less -FRX")
    #expect(Pager.fromEnvironment(["PAGER": "more"])?.command == "more")
    #expect(Pager.fromEnvironment(["PAGER": "more", "MSA_PAGER": "most"])?.command == "most")
    #expect(Pager.fromEnvironment(["MSA_PAGER": ""]) == nil)
    #expect(Pager.fromEnvironment(["PAGER": "cat"]) == nil)
  }

  @Test func onlyTextTallerThanTheTerminalIsPaged() {
    #expect(Pager.shouldPage(lineCount: 100, terminalRows: 40))
    #expect(!Pager.shouldPage(lineCount: 10, terminalRows: 40))
    #expect(Pager.shouldPage(lineCount: 10, terminalRows: nil))
  }

  @Test func thePagerReadsTheWholeText() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-pager-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    let text = (1...5_000).map { "line \($0)" }.joined(separator: "\n") + "\n"
    let started = Pager(command: "cat > '\(file.path)'").run(text, environment: [:])
    #expect(started)
    #expect(try String(contentsOf: file, encoding: .utf8) == text)
  }

  @Test func quittingThePagerEarlyEndsTheWritingQuietly() {
    // 4 MB through a pager that reads one line and quits: the writer gets EPIPE, not SIGPIPE.
    let text = String(repeating: String(repeating: "x", count: 99) + "\n", count: 40_000)
    #expect(Pager(command: "head -n 1 > /dev/null").run(text, environment: [:]))
  }
}
