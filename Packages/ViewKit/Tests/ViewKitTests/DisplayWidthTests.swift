import Testing
import ViewKit

@Suite struct DisplayWidthTests {
  @Test(arguments: [
    ("hello", 5), ("短信", 4), ("短信 SMS", 8), ("", 0), ("ｗｉｄｅ", 8), ("カタカナ", 8),
    ("한국어", 6), ("😀", 2), ("👨‍👩‍👧", 2), ("🇨🇳", 2), ("🇨🇳🇺🇸", 4), ("é", 1),
    ("e\u{301}", 1), ("a\u{300}\u{301}b", 2), ("✔", 1), ("❤️", 2), ("\u{1B}[1;31mred\u{1B}[0m", 3),
    ("a\u{200B}b", 2), ("。，", 4),
  ])
  func measures(text: String, expected: Int) {
    #expect(DisplayWidth.of(text) == expected)
  }

  @Test func truncatesAtTheTailCountingTheEllipsis() {
    #expect(DisplayWidth.truncate("Shenzhen office", to: 8) == "Shenzhe…")
    #expect(DisplayWidth.truncate("short", to: 8) == "short")
    #expect(DisplayWidth.truncate("短信短信", to: 6) == "短信…")
    #expect(DisplayWidth.truncate("短信短信", to: 4) == "短…")
    #expect(DisplayWidth.truncate("abc", to: 1) == "…")
    #expect(DisplayWidth.truncate("abc", to: 0) == "")
  }

  @Test func truncatesInTheMiddle() {
    let shown = DisplayWidth.truncate("http://192.168.10.1:3000", to: 12, mode: .middle)
    #expect(shown == "http:/…:3000")
    #expect(DisplayWidth.of(shown) == 12)
  }

  @Test func wrapsLatinAtSpaces() {
    #expect(
      DisplayWidth.wrap("the quick brown fox jumps", width: 10) == [
        "the quick", "brown fox", "jumps",
      ])
    #expect(DisplayWidth.wrap("a  b", width: 10) == ["a b"])
    #expect(DisplayWidth.wrap("one\ntwo", width: 10) == ["one", "two"])
    #expect(DisplayWidth.wrap("", width: 10) == [""])
  }

  @Test func neverBreaksInsideAnAddressOrANumber() {
    let text = "请使用例如 http://主机:3000。然后重试 1234567"
    let lines = DisplayWidth.wrap(text, width: 18)
    #expect(lines.contains { $0.contains("http://主机:3000") }, "\(lines)")
    #expect(lines.contains { $0.contains("1234567") }, "\(lines)")
    // Not simple text (a combining accent): the character-by-character path keeps it too.
    let accented = DisplayWidth.wrap("e\u{301} 请使用 http://主机:3000。然后", width: 18)
    #expect(accented.contains { $0.contains("http://主机:3000") }, "\(accented)")
    // A full-width full stop ends the address; the text after it wraps as usual.
    #expect(DisplayWidth.wrap("http://主机:3000。然后重试", width: 16) == ["http://主机:3000", "。然后重试"])
  }

  @Test func breaksCJKBetweenAnyCharacters() {
    #expect(DisplayWidth.wrap("中国移动通信集团", width: 6) == ["中国移", "动通信", "集团"])
    #expect(DisplayWidth.wrap("短信abc短信", width: 5) == ["短信", "abc短", "信"])
    #expect(DisplayWidth.wrap("验证码 123456 有效", width: 8) == ["验证码", "123456", "有效"])
  }

  @Test func hardBreaksWordsLongerThanTheWidth() {
    #expect(DisplayWidth.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    #expect(DisplayWidth.wrap("go 89860012345678", width: 6) == ["go", "898600", "123456", "78"])
  }

  @Test(arguments: [5, 7, 10, 13])
  func wrappedLinesNeverExceedTheWidth(width: Int) {
    let text = "MultiSimAdmin 是一个管理 多台设备 的控制台 with emoji 📶📶📶 and averyveryverylongword"
    for line in DisplayWidth.wrap(text, width: width) {
      #expect(DisplayWidth.of(line) <= width, "\(line)")
      #expect(!line.hasSuffix(" "))
      #expect(!line.hasPrefix(" "))
    }
  }
}
