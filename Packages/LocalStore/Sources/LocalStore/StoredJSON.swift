import Essentials
import Foundation

/// Stored JSON written directly, byte for byte as `JSONEncoder` with `.sortedKeys` (and
/// `.iso8601` dates) writes it: compact, `/` escaped, C0 controls as `\b \f \n \r \t` or
/// `\u00xx` (lowercase hex), everything else as is. The caller writes members in sorted order;
/// a value the encoder writes otherwise or refuses (a non-finite double; a date outside the
/// years 1583–9999, where the encoder's calendar is Julian before the reform) marks the output
/// ``isUnwritable``, and the caller then uses the encoder (issue 19, case 1).
public struct StoredJSON: Sendable {
  /// The UTF-8 written so far.
  public private(set) var bytes: [UInt8] = []
  /// A value the encoder writes otherwise or refuses was met.
  public private(set) var isUnwritable = false
  private var isFirst = true

  /// An empty writer.
  public init() {
    bytes.reserveCapacity(512)
  }

  /// An object; `body` writes its members (``key(_:)`` and a value, or ``member(_:_:)``) in
  /// sorted order.
  public mutating func object(_ body: (inout StoredJSON) -> Void) {
    bytes.append(UInt8(ascii: "{"))
    isFirst = true
    body(&self)
    bytes.append(UInt8(ascii: "}"))
    isFirst = false
  }

  /// An array of `items`, each written by `body`.
  public mutating func array<Items: Sequence>(
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
  public mutating func object(_ dictionary: [String: String]) {
    let keys = dictionary.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    object { json in
      for key in keys {
        json.key(key)
        json.string(dictionary[key] ?? "")
      }
    }
  }

  /// The next member's key; its value follows.
  public mutating func key(_ name: String) {
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

  /// `name` and `value`, unless `value` is nil.
  public mutating func member(_ name: String, _ value: String?) {
    guard let value else { return }
    key(name)
    string(value)
  }

  /// `name` and `value`, unless `value` is nil.
  public mutating func member(_ name: String, _ value: Bool?) {
    guard let value else { return }
    key(name)
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
  }

  /// `name` and `value`, unless `value` is nil.
  public mutating func member(_ name: String, _ value: Int?) {
    guard let value else { return }
    key(name)
    bytes.append(contentsOf: String(value).utf8)
  }

  /// `name` and `value` (Swift's shortest text without a trailing `.0`, as the encoder writes
  /// a double), unless `value` is nil; a non-finite value marks the output ``isUnwritable``.
  public mutating func member(_ name: String, _ value: Double?) {
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

  /// `name` and `value` as `.iso8601` writes it (`2026-12-02T07:00:00Z`, whole seconds,
  /// rounded down), unless `value` is nil; a date the writer cannot vouch for marks the
  /// output ``isUnwritable``.
  public mutating func member(_ name: String, _ value: Date?) {
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

  /// A string, escaped as the encoder escapes it.
  public mutating func string(_ text: String) {
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
