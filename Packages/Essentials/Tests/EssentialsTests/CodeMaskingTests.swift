import Foundation
import Testing

@testable import Essentials

/// Masking from a table of real-looking messages: every code, whatever its shape, is hidden,
/// and ordinary words and short numbers stay readable.
@Suite struct CodeMaskingTests {
  /// (body, the masked body at full length, the codes that must not survive).
  static let table: [(String, String, [String])] = [
    ("Your code is 482913, valid 5 min", "Your code is ••••••, valid 5 min", ["482913"]),
    ("【美团】验证码852-598，5分钟内有效。", "【美团】验证码•••-•••，5分钟内有效。", ["852", "598"]),
    ("【菜鸟驿站】取件码2-3-1174，请凭码取件。", "【菜鸟驿站】取件码•-•-••••，请凭码取件。", ["2-3", "1174"]),
    (
      "G-482913 is your Google verification code.", "G-•••••• is your Google verification code.",
      ["482913"]
    ),
    ("Your WhatsApp code: 151-337", "Your WhatsApp code: •••-•••", ["151", "337"]),
    ("Telegram code 123 456", "Telegram code ••• •••", ["123", "456"]),
    ("Your login code is A7K9Q2", "Your login code is ••••••", ["A7K9Q2"]),
    ("动态密码 CX3Y58，请勿泄露", "动态密码 ••••••，请勿泄露", ["CX3Y58"]),
    ("【招商银行】校验码 0517，尾号8842的卡", "【招商银行】校验码 ••••，尾号••••的卡", ["0517", "8842"]),
    ("PIN: 7-7-2-1", "PIN: •-•-•-•", ["7-7-2-1"]),
    ("Code 12–34–56 expires soon", "Code ••–••–•• expires soon", ["12–34"]),
    ("回复 TD 退订，客服 10086", "回复 TD 退订，客服 •••••", ["10086"]),
    ("See you at 7, bring the router", "See you at 7, bring the router", []),
    ("好的 👍 5 分钟后到", "好的 👍 5 分钟后到", []),
    ("call 110", "call 110", []),
    ("Use 4G or 5G, not LTE", "Use 4G or 5G, not LTE", []),
    ("Meet at 10:30 in room 12", "Meet at 10:30 in room 12", []),
  ]

  @Test(arguments: table)
  func masksEveryCode(body: String, masked: String, secrets: [String]) {
    let result = CodeDetector.standard.mask(body)
    #expect(result == masked)
    for secret in secrets { #expect(!result.contains(secret), "\(secret) left in \(result)") }
    #expect(Redactor.maskBody(body, preview: 200) == masked)
  }

  @Test func candidatesCarryTheirTextAndValue() {
    let candidates = CodeDetector.standard.candidates(in: "G-482913 或 852-598, A7K9Q2")
    #expect(candidates.map(\.text) == ["G-482913", "852-598", "A7K9Q2"])
    #expect(candidates.map(\.value) == ["G482913", "852598", "A7K9Q2"])
    #expect(candidates.map(\.kind) == [.digits, .digits, .letterDigit])
  }

  @Test func theBundledRulesAreRead() {
    // The fallback has version 0 and no separators: reading the file is what masks 852-598.
    #expect(CodeRules.bundled.version >= 1)
    #expect(CodeRules.bundled.digitGroups.separators.contains { $0.character == "-" })
    #expect(CodeRules.bundled != CodeRules.fallback)
  }

  @Test func rulesAreData() {
    var rules = CodeRules.bundled
    rules.digitGroups.minDigits = 7
    rules.maskCharacter = "*"
    let detector = CodeDetector(rules: rules)
    #expect(detector.mask("code 482913 or 4829137") == "code 482913 or *******")
  }
}
