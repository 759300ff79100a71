import Testing

@testable import ViewKit

/// The line-breaking rule for punctuation (UAX #14 / the Chinese and Japanese kinsoku rule,
/// kept small): no line begins with closing punctuation and no line ends with opening
/// punctuation, where the text puts no space there and the pair fits on a line.
@Suite struct LineBreakPunctuationTests {
  /// The console's line above the message list at 80 columns in Chinese started its second
  /// line with "，" (the sender's number filled the first line).
  @Test func noLineBeginsWithAFullWidthComma() {
    let text = "最新验证码来自 106962581447，经 bad-dates"
    let lines = DisplayWidth.wrap(text, width: 27)
    #expect(lines == ["最新验证码来自", "106962581447，经 bad-dates"])
  }

  @Test func closingPunctuationStaysWithWhatItCloses() {
    #expect(DisplayWidth.wrap("验证码已发送。请查收", width: 12) == ["验证码已发", "送。请查收"])
    #expect(DisplayWidth.wrap("设备（离线）", width: 10) == ["设备（离", "线）"])
    #expect(DisplayWidth.wrap("中文中文,abc", width: 8) == ["中文中", "文,abc"])
    #expect(DisplayWidth.wrap("好的！！", width: 6) == ["好", "的！！"])
  }

  @Test func openingPunctuationStaysWithWhatItOpens() {
    #expect(DisplayWidth.wrap("请运行《用户指南》", width: 8) == ["请运行", "《用户指", "南》"])
    #expect(DisplayWidth.wrap("名称「仓库」", width: 6) == ["名称", "「仓", "库」"])
    #expect(DisplayWidth.wrap("设置“仓库”名称", width: 5) == ["设置", "“仓", "库”名", "称"])
    #expect(DisplayWidth.wrap("中(中文", width: 3) == ["中", "(中", "文"])
  }

  /// A space stays a place to break, and a pair wider than the line breaks as before.
  @Test func spacesAndOverWidePairsBreakAsBefore() {
    #expect(DisplayWidth.wrap("a b c", width: 3) == ["a b", "c"])
    #expect(DisplayWidth.wrap("http://主机:3000。然后重试", width: 16) == ["http://主机:3000", "。然后重试"])
    #expect(DisplayWidth.wrap("。。。", width: 2) == ["。", "。", "。"])
  }

  // MARK: - Random mixed text

  static let wide: Set<Character> = Set("中文验证码设备离线仓库短信" + "，。、；：！？）」』】》〉（「『【《〈")
  static let closers: [Character] = Array("，。、；：！？）」』】》〉…,.;:!?)”")
  static let openers: [Character] = Array("（「『【《〈(“")
  static let cjk: [Character] = Array("中文验证码设备离线仓库短信")
  static let latin: [Character] = Array("abcxyz0123456789")

  /// Text of chunks: up to two opening marks, a Latin word or a run of CJK, up to two closing
  /// marks; no space ever follows an opening mark or precedes a closing one. Latin chunks are
  /// set apart by spaces (so no unbreakable Latin run outgrows the line).
  static func mixedTexts(count: Int) -> [String] {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    return (0..<count).map { _ in
      var text = ""
      var previousLatin = false
      for index in 0..<(1 + next(14)) {
        let latin = next(3) == 0
        if index > 0 && (latin || previousLatin || next(3) == 0) { text += " " }
        for _ in 0..<max(0, next(5) - 2) { text.append(openers[next(openers.count)]) }
        let pool = latin ? Self.latin : cjk
        for _ in 0..<(1 + next(latin ? 6 : 3)) { text.append(pool[next(pool.count)]) }
        for _ in 0..<max(0, next(5) - 2) { text.append(closers[next(closers.count)]) }
        previousLatin = latin
      }
      return text
    }
  }

  /// Columns counted independently of ``DisplayWidth``: the CJK and full-width marks 2.
  static func columns(_ line: String) -> Int {
    line.reduce(0) { $0 + (wide.contains($1) ? 2 : 1) }
  }

  @Test func randomMixedTextKeepsEveryCharacterWidthAndRule() {
    var checked = 0
    for text in Self.mixedTexts(count: 600) {
      for width in [2, 3, 5, 8, 13, 16, 21, 30, 47, 80] {
        let lines = DisplayWidth.wrap(text, width: width)
        // Nothing lost, nothing doubled: only spaces go (at breaks) and none is added.
        #expect(
          lines.joined().filter { $0 != " " } == text.filter { $0 != " " }, "\(text) @\(width)")
        for line in lines {
          #expect(Self.columns(line) <= width, "\(line) @\(width)")
          #expect(DisplayWidth.of(line) == Self.columns(line), "\(line)")
          #expect(!line.hasPrefix(" ") && !line.hasSuffix(" "), "\(line)")
        }
        // Every group that may not be split (two opening and two closing marks around a
        // word of at most 6 columns) fits in 14 columns: from 16 the rule always holds.
        guard width >= 16 else { continue }
        for (index, line) in lines.enumerated() {
          if index > 0, let first = line.first {
            #expect(!Self.closers.contains(first), "\(lines) @\(width)")
          }
          if index < lines.count - 1, let last = line.last {
            #expect(!Self.openers.contains(last), "\(lines) @\(width)")
          }
        }
        checked += 1
      }
    }
    #expect(checked == 600 * 5)
  }
}
