import EssentialsTesting
import Foundation
import Testing

@testable import Essentials

@Suite struct UntrustedTextTests {
  /// What a hostile SMS carries: clear screen, OSC 52 clipboard, OSC 0 title, BEL, BS, CR,
  /// the one-byte CSI and a right-to-left override.
  static let hostile =
    "a\u{1B}[2Jb\u{1B}]52;c;aGFja2Vk\u{07}c\u{1B}]0;owned\u{07}d\u{07}\u{08}\r\u{9B}31m\u{202E}e"

  @Test func everyControlIsShownByAStandIn() {
    let shown = UntrustedText.neutralised(Self.hostile)
    #expect(RawControls.find(in: shown).isEmpty)
    #expect(shown == "a␛[2Jb␛]52;c;aGFja2Vk␇c␛]0;owned␇d␇␈␍\\u{9B}31m\\u{202E}e")
  }

  @Test(
    arguments: Array(0..<0x20) + [0x7F] + Array(0x80..<0xA0) + [
      0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068,
      0x2069,
    ])
  func classifiesEachControl(value: Int) throws {
    let scalar = try #require(Unicode.Scalar(UInt32(value)))
    #expect(UntrustedText.isControl(scalar))
    let text = "x" + String(scalar) + "y"
    #expect(UntrustedText.containsControl(text))
    for mode in [UntrustedText.LineFeeds.symbol, .breakLines] {
      let shown = UntrustedText.neutralised(text, lineFeeds: mode)
      let allowed: Set<Unicode.Scalar> = mode == .breakLines ? ["\n"] : []
      #expect(
        shown.unicodeScalars.allSatisfy { !UntrustedText.isControl($0) || allowed.contains($0) })
    }
  }

  @Test func leavesOrdinaryTextAlone() {
    for text in ["", "hello", "验证码 123456，请勿泄露", "“quoted” – dash …", "emoji 👍🏽", "\u{200D}"] {
      #expect(!UntrustedText.containsControl(text))
      #expect(UntrustedText.neutralisedIfNeeded(text) == nil)
      #expect(UntrustedText.terminalSafe(text) == text)
      #expect(UntrustedText.escapingJSON(text) == text)
    }
  }

  @Test func lineFeedsAndTabsDependOnThePlace() {
    let text = "one\r\ntwo\nthree\tfour\rfive"
    #expect(
      UntrustedText.neutralised(text, lineFeeds: .breakLines) == "one\ntwo\nthree    four␍five")
    #expect(UntrustedText.neutralised(text, lineFeeds: .symbol) == "one⏎two⏎three four␍five")
  }

  @Test func terminalGuardKeepsColourOnly() {
    let colour = "\u{1B}[1;38;5;33mtitle\u{1B}[0m\nplain"
    #expect(UntrustedText.terminalSafe(colour) == colour)
    let mixed = colour + Self.hostile + "\t|"
    let safe = UntrustedText.terminalSafe(mixed)
    #expect(
      RawControls.find(in: safe.replacingOccurrences(of: "\t", with: ""), allowingColour: true)
        .isEmpty)
    #expect(safe.hasPrefix(colour))
    #expect(safe.hasSuffix("\\u{202E}e\t|"))
    // An SGR cut short or with other bytes is not colour.
    #expect(UntrustedText.terminalSafe("\u{1B}[31") == "␛[31")
    #expect(UntrustedText.terminalSafe("\u{1B}[2J") == "␛[2J")
  }

  @Test func withoutColourEvenSGRIsShownByStandIns() {
    // Standard error's guard (issue 30): a device's colour and conceal codes are shown.
    let line = "[1/2] Bank\u{1B}[31m: \u{1B}[8mhidden\u{1B}[0m text"
    let safe = UntrustedText.terminalSafe(line, keepingColour: false)
    #expect(safe == "[1/2] Bank␛[31m: ␛[8mhidden␛[0m text")
    #expect(RawControls.find(in: safe).isEmpty)
    #expect(UntrustedText.terminalSafe("plain\nline", keepingColour: false) == "plain\nline")
    // With colour kept (standard output), the same line keeps its SGR.
    #expect(UntrustedText.terminalSafe(line) == line)
  }

  @Test func jsonKeepsTheExactContentAsEscapes() throws {
    let encoder = JSONEncoder()
    let raw = String(
      decoding: try encoder.encode(["body": Self.hostile + "\u{7F}\u{85}"]), as: UTF8.self)
    let escaped = UntrustedText.escapingJSON(raw)
    #expect(RawControls.find(in: escaped).isEmpty)
    #expect(escaped.contains("\\u202e"))
    #expect(escaped.contains("\\u009b"))
    #expect(escaped.contains("\\u007f"))
    let decoded = try JSONDecoder().decode([String: String].self, from: Data(escaped.utf8))
    #expect(decoded["body"] == Self.hostile + "\u{7F}\u{85}")
  }

  @Test func exportCellsEscapeControlsButKeepLineBreaks() {
    let cell = "line\r\nnext\t\u{1B}[2J\u{202E}\rover"
    #expect(
      UntrustedText.escapingControls(cell, keepingLineBreaks: true)
        == "line\r\nnext\t\\u001b[2J\\u202e\\u000dover")
    #expect(
      UntrustedText.escapingControls(cell, keepingLineBreaks: false)
        == "line\\u000d\\u000anext\\u0009\\u001b[2J\\u202e\\u000dover")
  }

  @Test(arguments: [
    ("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""),
    ("+1+2", "'+1+2"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tcmd", "'\tcmd"), ("\rcmd", "'\\u000dcmd"), ("\r\ncmd", "\"'\r\ncmd\""),
    ("+8613800138000", "+8613800138000"), ("+", "'+"), ("+86 138", "'+86 138"),
    ("plain", "plain"), ("a,b", "\"a,b\""), ("two\nlines", "\"two\nlines\""),
    ("\u{1B}[2J=x", "\\u001b[2J=x"), ("=\u{202E}", "'=\\u202e"),
  ])
  func csvCellsAreNeitherFormulasNorControls(cell: String, expected: String) {
    #expect(UntrustedText.csvCell(cell) == expected)
    #expect(
      RawControls.find(
        in: UntrustedText.csvCell(cell).replacingOccurrences(of: "\t", with: "")
          .replacingOccurrences(of: "\r", with: "")
      ).isEmpty)
  }

  @Test func byteCheckFindsEveryKind() {
    #expect(RawControls.find(in: Self.hostile).count == 10)
    #expect(RawControls.find(in: "ok\nok").isEmpty)
  }
}
