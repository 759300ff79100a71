import CommandLineKit
import Foundation
import Testing

@Suite struct TerminalInfoTests {
  @Test func aPipeIsNotATerminal() throws {
    let pipe = Pipe()
    let descriptor = pipe.fileHandleForWriting.fileDescriptor
    #expect(!TerminalInfo.isTerminal(fileDescriptor: descriptor))
    #expect(TerminalInfo.width(fileDescriptor: descriptor) == nil)
    let info = TerminalInfo.detect(fileDescriptor: descriptor, environment: [:])
    #expect(info == TerminalInfo(isTerminal: false, width: 80))
  }

  @Test func columnsOverridesTheWidth() {
    let pipe = Pipe()
    let descriptor = pipe.fileHandleForWriting.fileDescriptor
    #expect(
      TerminalInfo.detect(fileDescriptor: descriptor, environment: ["COLUMNS": "120"]).width == 120)
    #expect(
      TerminalInfo.detect(fileDescriptor: descriptor, environment: ["COLUMNS": "zero"]).width == 80)
    #expect(TerminalInfo.columns(from: ["COLUMNS": "-3"]) == nil)
  }

  @Test(arguments: [
    (true, [String: String](), false, true),
    (false, [:], false, false),
    (true, [:], true, false),
    (true, ["NO_COLOR": "1"], false, false),
    (true, ["NO_COLOR": ""], false, true),
    (true, ["TERM": "dumb"], false, false),
  ])
  func colourRules(terminal: Bool, environment: [String: String], noColor: Bool, expected: Bool) {
    let info = TerminalInfo(isTerminal: terminal, width: 80)
    #expect(info.wantsColor(environment: environment, noColorFlag: noColor) == expected)
  }
}
