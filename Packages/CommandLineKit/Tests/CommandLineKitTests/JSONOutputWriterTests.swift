import CommandLineKit
import Essentials
import Foundation
import Testing

/// ``JSONOutputWriter`` writes what `JSONOutput`'s encoder writes, byte for byte.
@Suite struct JSONOutputWriterTests {
  /// Text a device, a file or a user could put in a name, hostile included.
  static let hostileStrings: [String] = [
    "", "plain", "quote \" and backslash \\ and slash /", "line\nfeed\r\ncrlf\ttab",
    "\u{0}\u{1}\u{7}\u{8}\u{B}\u{C}\u{1B}[31mred\u{1B}[0m\u{1F}",
    "del \u{7F} c1 \u{80}\u{85}\u{9F}",
    "nbsp\u{A0}after", "bidi \u{202E}evil\u{202C} \u{2066}iso\u{2069} \u{200E}\u{200F} \u{061C}",
    "not controls \u{2028}\u{2029}\u{2030}\u{20AC}\u{2000}\u{200B}", "中文 验证码 123456 快递",
    "non-BMP 😀🇨🇳 𝄞 \u{10FFFF}", "e\u{301} combining", "\u{FEFF}bom", "ends with \\",
    "ا\u{061B}\u{061C}\u{061D}", "\u{7FF}\u{800}\u{FFFD}",
  ]

  struct Sample: Encodable, JSONOutputWritable {
    var text: String
    var number: Int
    var flag: Bool
    var optional: String?
    var double: Double?
    var date: Date?
    var list: [String]
    var map: [String: String]
    var nested: [Sample]

    func write(to json: inout JSONOutputWriter) {
      json.object { json in
        json.member("date", date)
        json.member("double", double)
        json.member("flag", flag)
        json.key("list")
        json.array(list)
        json.key("map")
        json.object(map)
        json.key("nested")
        json.array(nested) { json, sample in sample.write(to: &json) }
        json.member("number", number)
        json.member("optional", optional)
        json.member("text", text)
      }
    }
  }

  /// The value through the encoder (a wrapper that is not ``JSONOutputWritable``).
  struct ThroughEncoder<Value: Encodable>: Encodable {
    var value: Value
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }

  func expectSame(
    _ value: some JSONOutputWritable & Encodable, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var writer = JSONOutputWriter()
    value.write(to: &writer)
    #expect(!writer.isUnwritable, sourceLocation: sourceLocation)
    let direct = try JSONOutput.render(command: "test \u{202E}", data: value)
    let encoded = try JSONOutput.render(
      command: "test \u{202E}", data: ThroughEncoder(value: value))
    #expect(direct == encoded, sourceLocation: sourceLocation)
    #expect(direct.hasSuffix("}\n"))
  }

  @Test(arguments: hostileStrings)
  func stringsAreEscapedAsTheEncoderAndItsControlPassEscapeThem(text: String) throws {
    try expectSame(
      Sample(
        text: text, number: -12, flag: true, optional: text, double: nil, date: nil, list: [text],
        map: [text: text], nested: []))
  }

  @Test func everyControlScalarAndItsNeighboursMatch() throws {
    var scalars: [Unicode.Scalar] = (0...0x2FF).compactMap(Unicode.Scalar.init)
    scalars += (0x600...0x620).compactMap(Unicode.Scalar.init)
    scalars += (0x2000...0x2080).compactMap(Unicode.Scalar.init)
    let text = String(String.UnicodeScalarView(scalars))
    try expectSame(
      Sample(
        text: text, number: 0, flag: false, optional: nil, double: nil, date: nil, list: [],
        map: [:], nested: []))
  }

  @Test func numbersDatesEmptyContainersAndSortedMapKeysMatch() throws {
    let doubles: [Double] = [
      0, -0.0, 1, -1, 36.6, 42.0, 0.1 + 0.2, 1e-7, 1e21, 123_456_789.125, 1e16, -2.5e-300, .pi,
    ]
    let dates: [Date] = [
      Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_764_658_800.999),
      Date(timeIntervalSince1970: -1.5), Date(timeIntervalSince1970: -86_400 * 365 * 300),
      Date(timeIntervalSince1970: 951_782_400), Date(timeIntervalSince1970: 4_107_542_399),
      Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: 253_402_300_799),
    ]
    var nested: [Sample] = []
    for (index, double) in doubles.enumerated() {
      nested.append(
        Sample(
          text: "\(index)", number: index * 1000 - 5, flag: index % 2 == 0, optional: nil,
          double: double, date: dates[index % dates.count], list: [], map: [:], nested: []))
    }
    for date in dates {
      nested.append(
        Sample(
          text: "d", number: Int.max, flag: true, optional: "", double: nil, date: date,
          list: ["a", ""], map: [:], nested: []))
    }
    let map = [
      "b": "1", "a": "2", "B": "3", "aa": "4", "a1": "5", "a10": "6", "a2": "7", "é": "8",
      "z": "9", "中": "10", "_": "11", "": "12",
    ]
    try expectSame(
      Sample(
        text: "top", number: Int.min, flag: true, optional: nil, double: 0.5, date: nil,
        list: [], map: map, nested: nested))
  }

  @Test("a date before the Gregorian reform is the encoder's to write (its calendar is Julian)")
  func datesBeforeTheReformFallBackToTheEncoder() throws {
    // 1000-06-15 01:00 UTC in the proleptic Gregorian calendar; the encoder writes 1000-06-09.
    let early = Date(timeIntervalSince1970: -30_595_964_400)
    var writer = JSONOutputWriter()
    writer.date(early)
    #expect(writer.isUnwritable)
    let sample = Sample(
      text: "t", number: 1, flag: true, optional: nil, double: nil, date: early, list: [],
      map: [:], nested: [])
    #expect(
      try JSONOutput.render(command: "c", data: sample)
        == JSONOutput.render(command: "c", data: ThroughEncoder(value: sample)))
  }

  @Test func whatOnlyTheEncoderWritesFallsBackToIt() throws {
    var writer = JSONOutputWriter()
    writer.double(.infinity)
    #expect(writer.isUnwritable)
    var late = JSONOutputWriter()
    late.date(Date(timeIntervalSince1970: 253_402_300_800))  // year 10000
    #expect(late.isUnwritable)
    let sample = Sample(
      text: "t", number: 1, flag: true, optional: nil, double: nil,
      date: Date(timeIntervalSince1970: 300_000_000_000), list: [], map: [:], nested: [])
    #expect(
      try JSONOutput.render(command: "c", data: sample)
        == JSONOutput.render(command: "c", data: ThroughEncoder(value: sample)))
  }
}
