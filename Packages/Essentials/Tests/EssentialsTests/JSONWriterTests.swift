import Foundation
import Testing

@testable import Essentials

/// The one JSON writer in its compact formats, against `JSONEncoder` (the output format has
/// its own tests in CommandLineKit, through `JSONOutput`).
@Suite struct JSONWriterTests {
  static let strings: [String] = [
    "", "plain", "quote \" backslash \\ slash /", "line\nfeed\r\ntab\t",
    "\u{0}\u{1}\u{8}\u{B}\u{C}\u{1B}[31m\u{1F}", "del \u{7F} c1 \u{85} bidi \u{202E}x",
    "中文 😀 e\u{301}",
  ]

  func encoded(_ value: [String: String], slashes: Bool) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = slashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(value))
  }

  @Test("stored: byte for byte JSONEncoder with sorted keys", arguments: strings)
  func stored(text: String) throws {
    var json = JSONWriter(format: .stored)
    json.object(["text": text, "a/b": text])
    #expect(json.bytes == (try encoded(["text": text, "a/b": text], slashes: true)))
  }

  @Test("compact: the same with slashes as they are", arguments: strings)
  func compact(text: String) throws {
    var json = JSONWriter(format: .compact)
    json.object(["text": text, "a/b": text])
    #expect(json.bytes == (try encoded(["text": text, "a/b": text], slashes: false)))
  }

  @Test("a JSON tree keeps its members' order and its numbers' text")
  func tree() {
    var json = JSONWriter(format: .compact)
    json.value(
      .fields([
        ("z", .number("1.50")), ("a", .array([.null, .bool(false), .string("x")])),
        ("m", .object([])),
      ]))
    #expect(
      String(decoding: json.bytes, as: UTF8.self) == #"{"z":1.50,"a":[null,false,"x"],"m":{}}"#)
  }

  @Test("bytes that are not UTF-8 pass through a string; quotes and controls are escaped")
  func rawBytes() {
    var json = JSONWriter(format: .compact)
    json.string(bytes: [0x61, 0xFF, 0x22, 0x0A, 0xC3])
    #expect(json.bytes == [0x22, 0x61, 0xFF, 0x5C, 0x22, 0x5C, 0x6E, 0xC3, 0x22])
  }
}
