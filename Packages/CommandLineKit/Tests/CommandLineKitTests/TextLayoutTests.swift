import Testing

@testable import CommandLineKit

/// Test access to the layout's width measure.
enum TextWidth {
  static func columns(_ text: some StringProtocol) -> Int { TextLayout.width(text) }
}

@Suite struct TextLayoutTests {
  @Test(arguments: [("abc", 3), ("短信", 4), ("SIM 卡", 6), ("👍", 2), ("é", 1), ("", 0)])
  func measuresColumns(text: String, columns: Int) {
    #expect(TextLayout.width(text) == columns)
  }

  @Test func wrapsAtSpaces() {
    #expect(TextLayout.wrap("one two three four", width: 9) == ["one two", "three", "four"])
  }

  @Test func wrapsBetweenWideCharacters() {
    #expect(TextLayout.wrap("从标准输入读取密码。", width: 8) == ["从标准输", "入读取密", "码。"])
  }

  @Test func splitsWordsLongerThanALine() {
    #expect(TextLayout.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
  }

  @Test func keepsNewlines() {
    #expect(TextLayout.wrap("a b\n\nc", width: 10) == ["a b", "", "c"])
  }
}
