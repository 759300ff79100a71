import Essentials
import Foundation
import Testing

@testable import SimAdminClient

/// The strict JSON reader: every value, every escape, every way input can be malformed.
@Suite("JSON reader")
struct JSONReaderTests {
  func read(_ text: String, _ reader: JSONReader = JSONReader()) throws -> JSONValue {
    try reader.read(Data(text.utf8))
  }

  func read(bytes: [UInt8], _ reader: JSONReader = JSONReader()) throws -> JSONValue {
    try reader.read(Data(bytes))
  }

  /// The reason `text` is refused for, or `nil` when it is accepted.
  func refusal(_ text: String, _ reader: JSONReader = JSONReader()) -> JSONReaderError.Reason? {
    refusal(bytes: Array(text.utf8), reader)
  }

  func refusal(bytes: [UInt8], _ reader: JSONReader = JSONReader()) -> JSONReaderError.Reason? {
    do {
      _ = try reader.read(Data(bytes))
      return nil
    } catch {
      return error.reason
    }
  }

  // MARK: - Values

  @Test("scalars, containers and whitespace")
  func values() throws {
    #expect(try read("null") == .null)
    #expect(try read(" true ") == .bool(true))
    #expect(try read("\t\r\nfalse\n") == .bool(false))
    #expect(try read("-12.5e+3") == .number("-12.5e+3"))
    #expect(try read(#""a""#) == .string("a"))
    #expect(try read("[]") == .array([]))
    #expect(try read("{}") == .object([]))
    #expect(try read("[ 1 , [ ] , { } , \"x\" , null ]").elements?.count == 5)
    let object = try read(#"{ "b" : 1 , "a" : [true, {"c": null}] }"#)
    #expect(object.members?.map(\.key) == ["b", "a"])
    #expect(object["a"]?.elements?[1]["c"] == .null)
    #expect(object["missing"] == nil)
    #expect(object["b"]?.int64Value == 1)
    #expect(JSONValue.string("x")["b"] == nil)
  }

  @Test("an object keeps repeated keys in order; lookup takes the first, as JSONDecoder does")
  func repeatedKeys() throws {
    let object = try read(#"{"k":1,"k":2,"other":3,"k":4}"#)
    #expect(object.members?.map(\.key) == ["k", "k", "other", "k"])
    #expect(object["k"] == .number("1"))
  }

  @Test("accessors answer only for their own kind")
  func accessors() throws {
    let value = try read(#"["s", 2, true, null, [], {}]"#)
    let items = try #require(value.elements)
    #expect(items[0].stringValue == "s" && items[1].stringValue == nil)
    #expect(items[1].int64Value == 2 && items[0].int64Value == nil)
    #expect(items[1].doubleValue == 2 && items[2].doubleValue == nil)
    #expect(items[2].boolValue == true && items[3].boolValue == nil)
    #expect(items[3].isNull && !items[2].isNull)
    #expect(items[4].elements == [] && items[4].members == nil)
    #expect(items[5].members == [] && items[5].elements == nil)
  }

  // MARK: - Strings

  @Test("every escape")
  func escapes() throws {
    #expect(try read(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
    #expect(try read(#""\u0041\u00e9\u4E2D\u0000""#) == .string("A\u{E9}\u{4E2D}\u{0}"))
    #expect(try read(#""x\u0000y""#).stringValue?.unicodeScalars.map(\.value) == [0x78, 0, 0x79])
    #expect(try read(#""\ud83d\ude00 \uD83D\uDE00""#) == .string("😀 😀"))
    #expect(try read(#""\uDBFF\uDFFF""#) == .string("\u{10FFFF}"))
    #expect(try read(#""\uFFFF\uFEFF\u2028""#) == .string("\u{FFFF}\u{FEFF}\u{2028}"))
    #expect(try read(#""a\"b""#) == .string("a\"b"))
    #expect(try read(#""\\""#) == .string("\\"))
  }

  @Test("a lone surrogate escape becomes U+FFFD, or is refused when asked")
  func loneSurrogates() throws {
    #expect(try read(#""\ud800""#) == .string("\u{FFFD}"))
    #expect(try read(#""\udc00x""#) == .string("\u{FFFD}x"))
    #expect(try read(#""\ud800\u0041""#) == .string("\u{FFFD}A"))
    #expect(try read(#""\ude00\ud83d""#) == .string("\u{FFFD}\u{FFFD}"))
    #expect(try read(#""\ud800\ud83d\ude00""#) == .string("\u{FFFD}😀"))
    #expect(try read(#""\ud800\n""#) == .string("\u{FFFD}\n"))
    let strict = JSONReader(loneSurrogates: .reject)
    #expect(refusal(#""\ud800""#, strict) == .loneSurrogate)
    #expect(refusal(#""ok \udfff""#, strict) == .loneSurrogate)
    #expect(refusal(#"{"k\ud800":1}"#, strict) == .loneSurrogate)
    #expect(try read(#""\ud83d\ude00""#, strict) == .string("😀"))
  }

  @Test("raw UTF-8 passes through; short and long, plain and escaped")
  func utf8() throws {
    let samples = ["中文短信", "验证码：482913", "emoji 😀👍🏽 and é", String(repeating: "长", count: 300)]
    for sample in samples {
      #expect(try read("\"\(sample)\"") == .string(sample))
      #expect(try read("\"\(sample)\\n\(sample)\"") == .string(sample + "\n" + sample))
      #expect(try read("{\"\(sample)\":1}").members?.first?.key == sample)
    }
    #expect(try read("\"\u{7F}\"") == .string("\u{7F}"))
  }

  @Test(
    "invalid UTF-8 is refused wherever it is",
    arguments: [
      [0xFF], [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
      [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
      [0xE4, 0xB8], [0xF0, 0x9F, 0x98], [0xE4, 0x41, 0x41], [0xC3],
    ] as [[UInt8]])
  func invalidUTF8(_ bad: [UInt8]) {
    let quote = UInt8(ascii: "\"")
    let long = Array(String(repeating: "x", count: 20).utf8)
    let places: [[UInt8]] = [
      [quote] + bad + [quote],
      [quote] + long + bad + long + [quote],
      [quote] + Array("中".utf8) + bad + [quote],
      [quote] + Array("a\\n".utf8) + bad + [quote],
      Array(#"{""#.utf8) + bad + Array(#"":1}"#.utf8),
      Array(#"[1,""#.utf8) + bad + Array("\", 2]".utf8),
    ]
    for bytes in places {
      #expect(refusal(bytes: bytes) == .invalidUTF8, "\(bytes)")
    }
  }

  @Test("raw control characters in strings are refused; escaped ones are fine")
  func controlCharacters() throws {
    for byte in UInt8(0)..<0x20 {
      #expect(refusal(bytes: [0x22, byte, 0x22]) == .controlCharacter)
      #expect(
        refusal(bytes: Array(#""a long run of text "#.utf8) + [byte, 0x22]) == .controlCharacter)
      let escaped = String(format: "\"\\u%04x\"", Int(byte))
      #expect(try read(escaped) == .string(String(UnicodeScalar(byte))))
    }
  }

  @Test(
    "bad escapes are refused",
    arguments: [#""\x""#, #""\u12""#, #""\u12G4""#, #""\U0041""#, #""\'""#, #""\""#, #""\u"#])
  func badEscapes(_ text: String) {
    #expect(refusal(text) != nil)
  }

  // MARK: - Numbers

  @Test(
    "numbers follow the JSON grammar",
    arguments: [
      "0", "-0", "7", "-7", "10", "0.5", "-0.5", "1e5", "1E5", "1e+5", "1e-5", "1.5e10",
      "-9223372036854775808", "123456789012345678901234567890", "0e0", "0.0",
    ])
  func validNumbers(_ text: String) throws {
    #expect(try read(text) == .number(text))
    #expect(try read("[\(text)]") == .array([.number(text)]))
  }

  @Test(
    "malformed numbers are refused",
    arguments: [
      "01", "-01", "00", "-", "+1", ".5", "1.", "1.e5", "1e", "1e+", "1E-", "--1", "0x10",
      "1_000", "Infinity", "NaN", "-Infinity", "1.5.5", "[01]", "[1.]", "{\"a\":-}",
    ])
  func invalidNumbers(_ text: String) {
    #expect(refusal(text) != nil)
  }

  @Test("Int64 and Double readings follow JSONDecoder")
  func numberReadings() throws {
    #expect(JSONValue.number("42").int64Value == 42)
    #expect(JSONValue.number("-0").int64Value == 0)
    #expect(JSONValue.number("1.0").int64Value == 1)
    #expect(JSONValue.number("1e3").int64Value == 1000)
    #expect(JSONValue.number("1.5").int64Value == nil)
    #expect(JSONValue.number("9223372036854775807").int64Value == .max)
    #expect(JSONValue.number("-9223372036854775808").int64Value == .min)
    #expect(JSONValue.number("9223372036854775808").int64Value == nil)
    #expect(JSONValue.number("1e400").int64Value == nil)
    #expect(JSONValue.number("1.5").doubleValue == 1.5)
    #expect(JSONValue.number("1e400").doubleValue == nil)
    #expect(JSONValue.number("-1e400").doubleValue == nil)
    #expect(JSONValue.number("1e-400").doubleValue == nil)
    #expect(JSONValue.number("0e-400").doubleValue == 0)
    #expect(JSONValue.number("5e-324").doubleValue == .leastNonzeroMagnitude)
    #expect(JSONValue.string("5").int64Value == nil)
    for (text, expected) in [("2", 2), ("34.0", 34), ("1.5e1", 15)] as [(String, Int64)] {
      let decoded = try JSONDecoder().decode([Int64].self, from: Data("[\(text)]".utf8))
      #expect(decoded == [expected])
      #expect(JSONValue.number(text).int64Value == expected)
    }
  }

  // MARK: - Malformed documents

  @Test(
    "malformed documents are refused, never crash",
    arguments: [
      "", " ", "\n\t", "nul", "tru", "falsey", "[", "]", "{", "}", "[1,]", "[,1]", "[1 2]",
      "{\"a\":1,}", "{,}", "{\"a\" 1}", "{\"a\":}", "{a:1}", "{'a':1}", "{\"a\":1 \"b\":2}",
      "[1]]", "{} {}", "1 2", "\"abc", "\"abc\\", "[\"a\",", "{\"a\"", "{\"a\":",
      "\u{FEFF}{}", "{}\u{0}", "[1]\u{0B}", "\u{0C}[]", "[1]x", "//", "/* */ 1", "[\"a\"]]",
    ])
  func malformed(_ text: String) {
    #expect(refusal(text) != nil, "\(text.debugDescription)")
  }

  @Test("every proper prefix of a document is refused")
  func truncations() {
    let text =
      #"{"status":"ok","message":"成功","data":{"messages":[{"id":12,"content":"a\"b\u00e9😀","pdu":null,"x":[1.5e3,true,false,{}]}]}}"#
    let bytes = Array(text.utf8)
    #expect(refusal(bytes: bytes) == nil)
    for length in 0..<bytes.count {
      #expect(refusal(bytes: Array(bytes[..<length])) != nil, "prefix \(length)")
    }
  }

  @Test("nesting is limited: 64 levels read, 65 refused, a million refused without a crash")
  func depth() throws {
    func nested(_ depth: Int, open: String = "[", close: String = "]") -> String {
      String(repeating: open, count: depth) + String(repeating: close, count: depth)
    }
    #expect(refusal(nested(64)) == nil)
    #expect(refusal(nested(65)) == .tooDeep)
    #expect(refusal(nested(1_000_000)) == .tooDeep)
    #expect(refusal(String(repeating: "[", count: 1_000_000)) == .tooDeep)
    let objects = String(repeating: #"{"a":"#, count: 64) + "1" + String(repeating: "}", count: 64)
    #expect(refusal(objects) == nil)
    let deeper = String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65)
    #expect(refusal(deeper) == .tooDeep)
    #expect(refusal(nested(3), JSONReader(maxDepth: 2)) == .tooDeep)
    #expect(refusal("[]", JSONReader(maxDepth: 0)) == .tooDeep)
    #expect(refusal("1", JSONReader(maxDepth: -5)) == nil)
    #expect(JSONReader(maxDepth: 1_000_000).maxDepth == JSONReader.depthLimit)
    #expect(refusal(nested(512), JSONReader(maxDepth: 1_000_000)) == nil)
    #expect(refusal(nested(513), JSONReader(maxDepth: 1_000_000)) == .tooDeep)
  }

  @Test("errors name a reason and the byte offset")
  func errorOffsets() {
    do {
      _ = try JSONReader().read(Data(#"{"a":[1,2,}"#.utf8))
      Issue.record("accepted")
    } catch {
      #expect(error == JSONReaderError(reason: .unexpectedByte, offset: 10))
      #expect(error.description == "unexpected byte at byte 10")
    }
    #expect(refusal("[1] x") == .trailingData)
    #expect(refusal("[1") == .unexpectedEnd)
    #expect(refusal(#"["\q"]"#) == .invalidEscape)
    #expect(refusal("[01]") == .invalidNumber)
  }

  // MARK: - Against JSONSerialization

  @Test("random documents read the same as JSONSerialization reads them")
  func randomDocuments() throws {
    var random = SeededRandom(seed: 0x5EED_0001)
    for _ in 0..<200 {
      let object = RandomJSON.value(&random, depth: 0)
      let data = try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])
      let value = try JSONReader().read(data)
      let expected = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      #expect(RandomJSON.matches(value, expected), "\(String(decoding: data, as: UTF8.self))")
    }
  }
}

/// Random JSON-serialisable values and a structural comparison with a `JSONValue`.
enum RandomJSON {
  static func value(_ random: inout SeededRandom, depth: Int) -> Any {
    switch random.int(depth > 4 ? 5 : 8) {
    case 0: return NSNull()
    case 1: return random.int(2) == 0
    case 2: return random.int64()
    case 3: return Double(random.int64() % 1_000_000) / 1000
    case 4: return text(&random, maxLength: 40)
    case 5: return text(&random, maxLength: 8)
    case 6: return (0..<random.int(5)).map { _ in value(&random, depth: depth + 1) }
    default:
      var object: [String: Any] = [:]
      for _ in 0..<random.int(5) {
        object[text(&random, maxLength: 10)] = value(&random, depth: depth + 1)
      }
      return object
    }
  }

  /// Random text without U+FEFF, which JSONSerialization on Linux drops from strings.
  static func text(_ random: inout SeededRandom, maxLength: Int) -> String {
    String(random.text(maxLength: maxLength).unicodeScalars.filter { $0 != "\u{FEFF}" })
  }

  static func matches(_ value: JSONValue, _ expected: Any) -> Bool {
    switch value {
    case .null: return expected is NSNull
    case .string(let text):
      return (expected as? String).map { Array($0.utf8) == Array(text.utf8) } ?? false
    case .bool(let flag):
      guard let number = expected as? NSNumber else { return false }
      return number.boolValue == flag
    case .number:
      guard let number = expected as? NSNumber, let double = value.doubleValue else { return false }
      return number.doubleValue == double
    case .array(let items):
      guard let array = expected as? [Any], array.count == items.count else { return false }
      return zip(items, array).allSatisfy { matches($0, $1) }
    case .object(let members):
      guard let dictionary = expected as? [String: Any], dictionary.count == members.count
      else { return false }
      return members.allSatisfy { member in
        dictionary[member.key].map { matches(member.value, $0) } ?? false
      }
    }
  }
}

/// A small seeded generator (SplitMix64) so random tests repeat exactly.
struct SeededRandom {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  mutating func int(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  mutating func int64() -> Int64 { Int64(bitPattern: next()) >> Int64(int(60)) }

  mutating func chance(_ percent: Int) -> Bool { int(100) < percent }

  mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

  /// Text drawn from ASCII, JSON's special characters, controls, CJK, emoji and odd scalars.
  mutating func text(maxLength: Int) -> String {
    var scalars = String.UnicodeScalarView()
    for _ in 0..<int(maxLength + 1) {
      let value: UInt32
      switch int(10) {
      case 0, 1, 2: value = UInt32(0x20 + int(0x5F))
      case 3: value = pick([0x22, 0x5C, 0x2F, 0x7F])
      case 4: value = UInt32(int(0x20))
      case 5, 6: value = UInt32(0x4E00 + int(0x5000))
      case 7: value = UInt32(0x1F300 + int(0x300))
      case 8: value = pick([0xE9, 0x301, 0xFFFD, 0xFEFF, 0xFFFF, 0x2028, 0x10FFFF, 0xA0, 0x3000])
      default: value = UInt32(0x30 + int(10))
      }
      if let scalar = UnicodeScalar(value) { scalars.append(scalar) }
    }
    return String(scalars)
  }
}
