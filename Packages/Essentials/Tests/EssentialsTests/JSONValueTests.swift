import Foundation
import Testing

@testable import Essentials

@Suite("JSONValue")
struct JSONValueTests {
  @Test("made values keep their members' order and say what JSON can")
  func making() {
    let value = JSONValue.fields([
      ("b", .int(Int64(-12))), ("a", .double(3.5)), ("n", .double(.infinity)),
      ("s", .optional(nil)), ("t", .optional("x")),
    ])
    #expect(value.members?.map(\.key) == ["b", "a", "n", "s", "t"])
    #expect(value["b"] == .number("-12"))
    #expect(value["a"] == .number("3.5"))
    #expect(value["n"]?.isNull == true)
    #expect(value["s"]?.isNull == true)
    #expect(value["t"]?.stringValue == "x")
    #expect(value["missing"] == nil)
    #expect(JSONValue.string("x")["b"] == nil)
  }

  @Test("the first of duplicate members wins, as with JSONDecoder")
  func duplicates() {
    let value = JSONValue.fields([("k", .bool(true)), ("k", .bool(false))])
    #expect(value["k"]?.boolValue == true)
  }

  @Test("decodes and encodes through Codable: integers stay integers, objects sorted by key")
  func codable() throws {
    let text = #"{"z":[1,2.5,true,null,"é"],"a":{"n":-7,"big":9007199254740993}}"#
    let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    #expect(value.members?.map(\.key) == ["a", "z"])
    #expect(value["a"]?["n"] == .number("-7"))
    #expect(value["a"]?["big"] == .number("9007199254740993"))
    #expect(
      value["z"]?.elements == [.number("1"), .number("2.5"), .bool(true), .null, .string("é")])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let written = String(decoding: try encoder.encode(value), as: UTF8.self)
    #expect(written == #"{"a":{"big":9007199254740993,"n":-7},"z":[1,2.5,true,null,"é"]}"#)
  }

  @Test("a number that is not a number cannot be encoded")
  func badNumber() {
    #expect(throws: EncodingError.self) {
      _ = try JSONEncoder().encode(JSONValue.number("one"))
    }
  }
}
