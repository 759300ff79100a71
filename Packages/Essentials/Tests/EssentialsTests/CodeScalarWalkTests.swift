import Foundation
import Testing

@testable import Essentials

/// Code extraction walks most texts by Unicode scalar instead of by `Character`
/// (``CodeTextScalars``); these tests hold it to the same answers: every scalar it accepts
/// behaves as the character it stands for, and over a corpus of real-looking, hostile and
/// random messages ``CodeDetector/code(in:)`` equals ``CodeDetector/referenceCode(in:)``.
@Suite struct CodeScalarWalkTests {
  /// Every scalar ``CodeTextScalars/isSimple(_:)`` accepts.
  static let simpleScalars: [Unicode.Scalar] = (0...0x10FFFF).compactMap { value in
    guard let scalar = Unicode.Scalar(value), CodeTextScalars.isSimple(scalar) else { return nil }
    return scalar
  }

  @Test func theBundledRulesAreWalkedByScalar() {
    // Every word and separator of CodeRules.json is a simple scalar: the cheap walk is used.
    #expect(CodeDetector.standard.scalarTables != nil)
    #expect(CodeTextScalars.simple("【京东】验证码：736210，请勿泄露。") != nil)
    #expect(CodeTextScalars.simple("e\u{301} 4821") == nil)
  }

  @Test func aSimpleScalarIsACharacterOfItsOwn() {
    let scalars = Self.simpleScalars
    #expect(scalars.count > 20_000)
    // No two adjacent simple scalars form one grapheme, whatever their kinds.
    var all = String.UnicodeScalarView()
    all.append(contentsOf: scalars)
    #expect(String(all).count == scalars.count)
    let neighbours: [Unicode.Scalar] = [
      "a", "Z", "0", " ", "\n", "\t", "\u{0}", "-", "验", "：", "Ａ", "©", "‼", "\u{AD}", "€", "。",
    ]
    for scalar in scalars {
      for neighbour in neighbours {
        var pair = String.UnicodeScalarView()
        pair.append(contentsOf: [neighbour, scalar, neighbour])
        if String(pair).count != 3 {
          Issue.record("U+\(String(scalar.value, radix: 16)) joins U+\(neighbour.value)")
        }
      }
    }
  }

  @Test func aSimpleScalarEqualsNoOtherAndAsksTheSameAsItsCharacter() {
    for scalar in Self.simpleScalars {
      let character = Character(scalar)
      let text = String(character)
      // Its own canonical composition and decomposition: no other scalar equals it.
      let composed = text.precomposedStringWithCanonicalMapping
      if Array(composed.unicodeScalars) != [scalar] {
        Issue.record("U+\(String(scalar.value, radix: 16)) is not its own composition")
      }
      if character.caseFolded != Character(scalar.caseFolded)
        || scalar.isTokenUnit != character.isTokenUnit
        || scalar.isCodeDigit != character.isCodeDigit
        || scalar.asciiDigit.map(Character.init) != character.asciiDigit
        || scalar.isASCIILetter != character.isASCIILetter
        || scalar.isASCIIDigit != character.isASCIIDigit
        || scalar.isNumber != character.isNumber
        || (scalar.isASCIILetter && scalar.isLowercase != character.isLowercase)
      {
        Issue.record("U+\(String(scalar.value, radix: 16)) differs from its character")
      }
    }
  }

  /// Real-looking messages, hostile input and the extraction table.
  static let corpus: [String] =
    CodeExtractionTests.table.map(\.0) + CodeExtractionTests.issue30Families.map(\.0)
    + HeldBackCodeTable.entries.map(\.body) + [
      "【京东】验证码：482913，您正在登录京东账户，若非本人操作，请勿泄露。",
      "【Bench】您的验证码是 100007，new message 7",
      "【通知】您的快递已到达驿站，取件码1-2-4417。",
      "G-482913 is your Google verification code.",
      "Your WhatsApp code: 151-337\nDon't share this code with others",
      "Telegram code: 55123\n\nYou can also tap on this link to log in:\nhttps://t.me/login/12345",
      "尊敬的客户，您好！截至12日8时，您的话费余额为12.50元。",
      // Carriage returns, combining marks, joiners, variation selectors, emoji.
      "验证码\r\n482913", "code\r4821", "验证码 4821\u{301}", "e\u{301}code 4821", "code 48\u{20DD}21",
      "验证码👨‍👩‍👧 4821", "🇨🇳验证码 4821", "code\u{FE0F} 4821", "code\u{200D}4821",
      // Characters that equal other scalars or lowercase to ASCII: the Kelvin sign, an ångström,
      // CJK compatibility ideographs, fullwidth letters and digits.
      "to\u{212A}en 4821", "TO\u{212A}EN 4821", "\u{212B} code 4821", "验\u{F900}码 4821",
      "ＣＯＤＥ 4821", "Ｃｏｄｅ：４８２１", "ｃｏｄｅ 4821", "CODE 4821", "ÀB code 4821",
      "验证码 ４８２１ 4821", "验证码 4821五元", "code 4821 五", "code 4821.五", "code 五.4821",
      "Ünïcödé cödé 4821", "ΣΑΣ code 4821", "İstanbul code 4821",
      // Hostile: empty, controls, long runs, only digits, only keywords.
      "", " ", "\u{0}", "code", "验证码", "4821", "code\u{0}4821", "code\t4821",
      String(repeating: "9", count: 600), String(repeating: "验证码 ", count: 60) + "1234",
      String(repeating: "code 1234 ", count: 40), "＋4821 code", "+4821 code", "code 1-2-3-4-5",
      "\u{202E}code 4821", "code\u{2028}4821", "code 4821%", "code 2024-05-12", "A1B2 code",
    ]

  @Test func theCorpusGivesTheSameCodes() {
    var found = 0
    for text in Self.corpus {
      let code = CodeDetector.standard.code(in: text)
      #expect(code == CodeDetector.standard.referenceCode(in: text), "\(text.debugDescription)")
      if code != nil { found += 1 }
    }
    #expect(found > 100)
  }

  @Test func randomTextsGiveTheSameCodes() {
    // Pieces the rules look at (keywords, ignored phrases, refusing words, joiners,
    // separators, digits, capitals) mixed with random scalars, simple or not.
    let rules = CodeRules.bundled
    let extraction = rules.extraction
    var pieces: [String] = (extraction?.keywords ?? []) + (extraction?.ignoredPhrases ?? [])
    pieces += (extraction?.refuseBefore ?? []) + (extraction?.refuseAfter ?? [])
    pieces += (extraction?.joiners ?? []) + rules.digitGroups.separators.map(\.character)
    pieces += ["CODE", "Code", "PIN", "OTP", "G-", "A7K9", "＋", "+", "\n", "\r\n", "，", "：", " "]
    // Issue 30's rules: copulas, months, signatures, origin-bound lines, full-width digits,
    // words after a number that do not refuse it, keyword-less clauses.
    pieces += (extraction?.copulas ?? []) + (extraction?.months ?? [])
    pieces += (extraction?.allowAfter ?? []) + (extraction?.refuseJustBefore ?? [])
    pieces += (extraction?.keywordless?.actions ?? []) + (extraction?.keywordless?.assurances ?? [])
    pieces += ["【", "】", "[", "]", "@a.com #", " #", "@", "１２３", "４", "－", "4q7k", "SAVE"]
    // Any failing text is recorded whole (debugDescription), so a failure can be replayed.
    var generator = SystemRandomNumberGenerator()
    func randomScalar() -> String {
      let ranges: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0xA0...0xFF, 0x300...0x36F, 0x2010...0x205E, 0x212A...0x212B,
        0x3000...0x303F, 0x4E00...0x4E40, 0x9A8C...0x9A8C, 0xF900...0xF910, 0xFE00...0xFE0F,
        0xFF01...0xFF5E, 0x1F468...0x1F469, 0x200D...0x200D, 0x0D...0x0D,
      ]
      let range = ranges[Int.random(in: 0..<ranges.count, using: &generator)]
      let value = UInt32.random(in: range, using: &generator)
      return Unicode.Scalar(value).map { String($0) } ?? ""
    }
    var simple = 0
    var codes = 0
    for _ in 0..<6_000 {
      var text = ""
      for _ in 0..<Int.random(in: 1...24, using: &generator) {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<4: text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
        case 4..<7: text += String(Int.random(in: 0...99_999_999, using: &generator))
        default: text += randomScalar()
        }
      }
      let code = CodeDetector.standard.code(in: text)
      if code != CodeDetector.standard.referenceCode(in: text) {
        Issue.record("differs on \(text.debugDescription)")
      }
      if CodeTextScalars.simple(text) != nil { simple += 1 }
      if code != nil { codes += 1 }
    }
    // Both walks and both answers are exercised.
    #expect(simple > 600 && simple < 5_400, "\(simple) simple texts")
    #expect(codes > 300, "\(codes) codes")
  }

  /// Masking by scalar gives ``CodeDetector/referenceMask(_:)``'s text, and
  /// ``Redactor/maskBody(_:preview:)`` the walk by `Character`'s preview at every length: a
  /// code the cut goes through is masked as far as it is shown.
  static func expectSameMasking(_ text: String, previews: [Int]? = nil) {
    let detector = CodeDetector.standard
    let masked = detector.mask(text)
    if masked != detector.referenceMask(text) {
      Issue.record("mask differs on \(text.debugDescription)")
    }
    // Byte for byte, not only canonically equal.
    if !masked.utf8.elementsEqual(detector.referenceMask(text).utf8) {
      Issue.record("mask bytes differ on \(text.debugDescription)")
    }
    for preview in previews ?? Array(0...(text.unicodeScalars.count + 1)) {
      let body = Redactor.maskBody(text, preview: preview)
      let reference = Redactor.referenceMaskBody(text, preview: preview)
      if !body.utf8.elementsEqual(reference.utf8) {
        Issue.record("maskBody(preview: \(preview)) differs on \(text.debugDescription)")
      }
    }
  }

  @Test func theCorpusIsMaskedTheSame() {
    var simple = 0
    for text in Self.corpus + CodeMaskingTests.table.map(\.0) {
      Self.expectSameMasking(text, previews: text.count > 100 ? [0, 20, 99, 200, 700] : nil)
      if CodeTextScalars.simple(text) != nil { simple += 1 }
    }
    #expect(simple > 100)
  }

  @Test func aCodeTheCutGoesThroughIsMaskedAsFarAsItIsShown() {
    let body = "Your code is 482913, valid 5 min"
    // Cut inside the code: the digits shown are masked, none is left.
    #expect(Redactor.maskBody(body, preview: 15) == "Your code is ••…")
    #expect(Redactor.maskBody("验证码\n852-598\n\n请勿泄露", preview: 6) == "验证码 ••…")
    #expect(Redactor.maskBody("取件码2-3-1174，请凭码取件", preview: 5) == "取件码•-…")
    #expect(Redactor.maskBody("code A7K9Q2 now", preview: 8) == "code •••…")
    for preview in 0...40 {
      let shown = Redactor.maskBody(body, preview: preview)
      // The only digit ever shown is the 5 of "5 min".
      #expect(shown.allSatisfy { !$0.isNumber || $0 == "5" }, "\(shown)")
    }
  }

  @Test func randomTextsAreMaskedTheSame() {
    let rules = CodeRules.bundled
    var pieces: [String] = (rules.extraction?.keywords ?? []) + ["\n", "\n\n", "\u{0B}", "\u{0C}"]
    pieces +=
      rules.digitGroups.separators.map(\.character) + rules.digitGroups.separators.map(\.character)
    pieces += ["CODE", "A7K9", "G-", "-", " ", "，", "\r\n", "\r", "\u{85}", "\u{2028}", "e\u{301}"]
    pieces += ["Ａ", "５", "٣", "Ⅻ", "½", "²", "①", "〇", "二", "é", "ß", "•", "…"]
    var generator = SystemRandomNumberGenerator()
    var simple = 0
    var masked = 0
    for _ in 0..<4_000 {
      var text = ""
      for _ in 0..<Int.random(in: 1...16, using: &generator) {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<4: text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
        case 4..<7: text += String(Int.random(in: 0...99_999_999, using: &generator))
        default:
          let value = UInt32.random(in: 0x20...0x7E, using: &generator)
          text += Unicode.Scalar(value).map { String($0) } ?? ""
        }
      }
      let count = text.unicodeScalars.count
      Self.expectSameMasking(
        text, previews: [0, 1, Int.random(in: 0...count + 1, using: &generator), 20, 200])
      if CodeTextScalars.simple(text) != nil { simple += 1 }
      if CodeDetector.standard.mask(text) != text { masked += 1 }
    }
    // Both walks and masking itself are exercised.
    #expect(simple > 400 && simple < 3_900, "\(simple) simple texts")
    #expect(masked > 1_000, "\(masked) masked texts")
  }

  @Test func aMaskThatIsNoSimpleScalarMasksByCharacter() {
    var rules = CodeRules.bundled
    rules.maskCharacter = "**"
    let detector = CodeDetector(rules: rules)
    #expect(detector.maskScalar == nil)
    #expect(detector.mask("code 4821") == "code ********")
    rules.maskCharacter = "*"
    let star = CodeDetector(rules: rules)
    #expect(star.maskScalar == "*")
    #expect(star.mask("code 4821, A7K9Q2") == "code ****, ******")
    #expect(star.mask("code 4821, A7K9Q2") == star.referenceMask("code 4821, A7K9Q2"))
  }

  @Test func rulesWithAWordThatIsNoSimpleScalarAreWalkedByCharacter() {
    var rules = CodeRules.bundled
    rules.extraction?.keywords = ["cafe\u{301}"]
    let detector = CodeDetector(rules: rules)
    #expect(detector.scalarTables == nil)
    #expect(detector.code(in: "caf\u{E9} 4821") == "4821")
    #expect(detector.code(in: "caf\u{E9} 4821") == detector.referenceCode(in: "caf\u{E9} 4821"))
  }
}
