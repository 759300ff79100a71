import Essentials
import Foundation

// The stored text of a snapshot (`instance_status.snapshot`) written directly (issue 19, case
// 1): the same bytes as `JSONEncoder` with `.sortedKeys` and `.iso8601` dates gives for its
// synthesized `Encodable` (compact, slashes escaped as `\/`, `nil` left out), without building
// the encoder's tree for each of a refresh's thousand devices. `SnapshotTextTests` compares
// the two for every field and odd values. A value the encoder writes otherwise or refuses (a
// non-finite double, a date outside the years 1583–9999, where the encoder's calendar is
// Julian before the reform) makes the writer step aside.

extension DeviceSnapshot {
  /// The stored JSON text, written directly; `nil` when the writer steps aside.
  func writtenJSONText() -> String? {
    var json = StoredJSON()
    json.object { json in
      json.member("dataActive", dataActive)
      json.member("iccid", iccid)
      json.member("imei", imei)
      if let latestSMS {
        json.key("latestSMS")
        json.object { json in
          json.member("date", latestSMS.date)
          json.member("direction", latestSMS.direction)
          json.member("maskedBody", latestSMS.maskedBody)
          json.member("peer", latestSMS.peer)
        }
      }
      json.member("memoryPercent", memoryPercent)
      json.member("model", model)
      if let notes {
        json.key("notes")
        json.array(notes) { json, note in
          json.object { json in
            json.key("arguments")
            json.object(note.arguments)
            json.member("part", note.part.rawValue)
            json.member("reasonKey", note.reasonKey)
          }
        }
      }
      json.member("operatorName", operatorName)
      json.key("phoneNumbers")
      json.array(phoneNumbers) { json, number in json.string(number) }
      json.member("registration", registration)
      json.member("signalPercent", signalPercent)
      json.member("temperatureCelsius", temperatureCelsius)
      json.member("uptime", uptime)
    }
    guard !json.isUnwritable else { return nil }
    return String(decoding: json.bytes, as: UTF8.self)
  }
}

/// Compact JSON as `JSONEncoder` writes it with default formatting: no spaces, `/` escaped,
/// C0 controls as `\b \f \n \r \t` or `\u00xx` (lowercase hex), everything else as is.
struct StoredJSON {
  private(set) var bytes: [UInt8] = []
  /// A value the encoder writes otherwise or refuses was met.
  private(set) var isUnwritable = false
  private var isFirst = true

  init() {
    bytes.reserveCapacity(512)
  }

  mutating func object(_ body: (inout StoredJSON) -> Void) {
    bytes.append(UInt8(ascii: "{"))
    isFirst = true
    body(&self)
    bytes.append(UInt8(ascii: "}"))
    isFirst = false
  }

  mutating func array<Items: Sequence>(
    _ items: Items, _ body: (inout StoredJSON, Items.Element) -> Void
  ) {
    bytes.append(UInt8(ascii: "["))
    isFirst = true
    for item in items {
      separate()
      body(&self, item)
    }
    bytes.append(UInt8(ascii: "]"))
    isFirst = false
  }

  /// String values, keys sorted by their UTF-8 bytes as `.sortedKeys` sorts them.
  mutating func object(_ dictionary: [String: String]) {
    let keys = dictionary.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    object { json in
      for key in keys {
        json.key(key)
        json.string(dictionary[key] ?? "")
      }
    }
  }

  mutating func key(_ name: String) {
    separate()
    string(name)
    bytes.append(UInt8(ascii: ":"))
  }

  private mutating func separate() {
    if isFirst {
      isFirst = false
    } else {
      bytes.append(UInt8(ascii: ","))
    }
  }

  mutating func member(_ name: String, _ value: String?) {
    guard let value else { return }
    key(name)
    string(value)
  }

  mutating func member(_ name: String, _ value: Bool?) {
    guard let value else { return }
    key(name)
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
  }

  mutating func member(_ name: String, _ value: Int?) {
    guard let value else { return }
    key(name)
    bytes.append(contentsOf: String(value).utf8)
  }

  /// Swift's shortest text without a trailing `.0`, as the encoder writes a double.
  mutating func member(_ name: String, _ value: Double?) {
    guard let value else { return }
    key(name)
    guard value.isFinite else {
      isUnwritable = true
      return
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    bytes.append(contentsOf: text.utf8)
  }

  /// `.iso8601`: `2026-12-02T07:00:00Z`, whole seconds (rounded down).
  mutating func member(_ name: String, _ value: Date?) {
    guard let value else { return }
    key(name)
    let seconds = value.timeIntervalSince1970.rounded(.down)
    guard seconds.isFinite, abs(seconds) < 1e12 else {
      isUnwritable = true
      return
    }
    let civil = CivilTime(value, offsetSeconds: 0)
    // Before 1583 the encoder's calendar is Julian (the Gregorian reform of 1582).
    guard (1583...9999).contains(civil.year) else {
      isUnwritable = true
      return
    }
    let time = civil.secondOfDay
    bytes.append(UInt8(ascii: "\""))
    digits(civil.year, 4)
    bytes.append(UInt8(ascii: "-"))
    digits(civil.month, 2)
    bytes.append(UInt8(ascii: "-"))
    digits(civil.day, 2)
    bytes.append(UInt8(ascii: "T"))
    digits(time / 3600, 2)
    bytes.append(UInt8(ascii: ":"))
    digits(time / 60 % 60, 2)
    bytes.append(UInt8(ascii: ":"))
    digits(time % 60, 2)
    bytes.append(contentsOf: [UInt8(ascii: "Z"), UInt8(ascii: "\"")])
  }

  private mutating func digits(_ value: Int, _ count: Int) {
    var divisor = 1
    for _ in 1..<count { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }

  private static let hex = Array("0123456789abcdef".utf8)

  mutating func string(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(byte)
      case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0..<0x20:
        bytes.append(contentsOf: [
          UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
          Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0x0F)],
        ])
      default:
        bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
