import Essentials
import Foundation

/// A `--json` payload that writes itself through ``JSONOutputWriter`` instead of going through
/// `JSONEncoder`: the bytes are exactly those ``JSONOutput`` writes for its `Encodable` form
/// (its tests compare the two), only without building the encoder's tree first.
///
/// Members are written in the order `JSONEncoder`'s `.sortedKeys` gives (by their UTF-8
/// bytes) and an optional member that is `nil` is left out, as synthesized `Encodable` does.
public protocol JSONOutputWritable: Encodable {
  /// Writes the value at the writer's position.
  func write(to json: inout JSONOutputWriter)
}

/// Writes JSON exactly as ``JSONOutput/makeEncoder()`` does (pretty-printed with two spaces,
/// `"key" : value`, slashes not escaped, ISO-8601 dates in whole seconds, a double without a
/// trailing `.0`), with every control in a string escaped as ``JSONOutput`` escapes it: C0 the
/// way the encoder does (`\n`, `\t`, `\u001b` …), DEL, C1 and bidi controls as `\u` and four
/// lowercase hex digits.
///
/// A value the encoder writes differently or refuses (a non-finite double, a date outside the
/// years 1–9999) marks the output ``isUnwritable``; ``JSONOutput`` then uses the encoder.
public struct JSONOutputWriter: Sendable {
  /// The UTF-8 written so far.
  public private(set) var bytes: [UInt8] = []
  /// Whether a value was met that this writer does not write as the encoder would.
  public private(set) var isUnwritable = false
  /// The language a message inside the data is written in (as the encoder's `userInfo`).
  public let language: AppLanguage
  private var depth = 0
  private var isFirst = true

  /// An empty writer.
  public init(language: AppLanguage = .english) {
    self.language = language
    bytes.reserveCapacity(4096)
  }

  // MARK: - Containers

  /// An object; `body` writes its members with ``key(_:)`` and a value each, in sorted order.
  public mutating func object(_ body: (inout JSONOutputWriter) -> Void) {
    open(UInt8(ascii: "{"))
    body(&self)
    close(UInt8(ascii: "}"))
  }

  /// An array of `items`, each written by `body`.
  public mutating func array<Items: Sequence>(
    _ items: Items, _ body: (inout JSONOutputWriter, Items.Element) -> Void
  ) {
    open(UInt8(ascii: "["))
    for item in items {
      elementStart()
      body(&self, item)
    }
    close(UInt8(ascii: "]"))
  }

  /// An array of strings.
  public mutating func array(_ strings: [String]) {
    array(strings) { json, text in json.string(text) }
  }

  /// An object of string values, its keys sorted by their UTF-8 bytes as the encoder sorts them.
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
    elementStart()
    string(name)
    bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
  }

  // MARK: - Values

  /// A string, escaped.
  public mutating func string(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in appendEscaped(utf8) }
    bytes.append(UInt8(ascii: "\""))
  }

  /// An integer.
  public mutating func int(_ value: Int) {
    if value >= 0 && value < 10 {
      bytes.append(UInt8(ascii: "0") + UInt8(value))
    } else {
      bytes.append(contentsOf: String(value).utf8)
    }
  }

  /// `true` or `false`.
  public mutating func bool(_ value: Bool) {
    bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
  }

  /// A double as the encoder writes it: Swift's shortest text without a trailing `.0`.
  public mutating func double(_ value: Double) {
    guard value.isFinite else {
      isUnwritable = true
      bytes.append(contentsOf: "null".utf8)
      return
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    bytes.append(contentsOf: text.utf8)
  }

  /// A date as `.iso8601` writes it: `2026-12-02T07:00:00Z`, whole seconds (rounded down).
  public mutating func date(_ value: Date) {
    let seconds = value.timeIntervalSince1970.rounded(.down)
    guard seconds.isFinite, abs(seconds) < 1e12 else {
      isUnwritable = true
      bytes.append(contentsOf: "null".utf8)
      return
    }
    let civil = CivilTime(value, offsetSeconds: 0)
    let (year, month, day, daySeconds) = (civil.year, civil.month, civil.day, civil.secondOfDay)
    guard (1...9999).contains(year) else {
      isUnwritable = true
      bytes.append(contentsOf: "null".utf8)
      return
    }
    bytes.append(UInt8(ascii: "\""))
    appendDigits(year, count: 4)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(month, count: 2)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(day, count: 2)
    bytes.append(UInt8(ascii: "T"))
    appendDigits(daySeconds / 3600, count: 2)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(daySeconds / 60 % 60, count: 2)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(daySeconds % 60, count: 2)
    bytes.append(contentsOf: [UInt8(ascii: "Z"), UInt8(ascii: "\"")])
  }

  /// A value that writes itself.
  public mutating func value(_ value: some JSONOutputWritable) {
    value.write(to: &self)
  }

  // MARK: - Members that are left out when nil

  /// `key` and `value`, unless `value` is nil.
  public mutating func member(_ name: String, _ value: String?) {
    guard let value else { return }
    key(name)
    string(value)
  }

  /// `key` and `value`, unless `value` is nil.
  public mutating func member(_ name: String, _ value: Int?) {
    guard let value else { return }
    key(name)
    int(value)
  }

  /// `key` and `value`, unless `value` is nil.
  public mutating func member(_ name: String, _ value: Bool?) {
    guard let value else { return }
    key(name)
    bool(value)
  }

  /// `key` and `value`, unless `value` is nil.
  public mutating func member(_ name: String, _ value: Double?) {
    guard let value else { return }
    key(name)
    double(value)
  }

  /// `key` and `value`, unless `value` is nil.
  public mutating func member(_ name: String, _ value: Date?) {
    guard let value else { return }
    key(name)
    date(value)
  }

  /// `key` and `value`, unless `value` is nil.
  public mutating func member(_ name: String, _ value: (some JSONOutputWritable)?) {
    guard let value else { return }
    key(name)
    value.write(to: &self)
  }

  // MARK: - Layout

  private mutating func open(_ bracket: UInt8) {
    bytes.append(bracket)
    bytes.append(0x0A)
    depth += 1
    isFirst = true
  }

  private mutating func close(_ bracket: UInt8) {
    bytes.append(0x0A)
    depth -= 1
    indent()
    bytes.append(bracket)
    isFirst = false
  }

  private mutating func elementStart() {
    if isFirst {
      isFirst = false
    } else {
      bytes.append(contentsOf: [UInt8(ascii: ","), 0x0A])
    }
    indent()
  }

  private mutating func indent() {
    for _ in 0..<depth { bytes.append(contentsOf: [0x20, 0x20]) }
  }

  private mutating func appendDigits(_ value: Int, count: Int) {
    var divisor = 1
    for _ in 1..<count { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }

  // MARK: - Escaping

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    var start = 0
    var index = 0
    let count = utf8.count
    while index < count {
      let byte = utf8[index]
      var length = 1
      var escape: UInt32?
      var short: UInt8?
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = byte
      case 0x08: short = UInt8(ascii: "b")
      case 0x0C: short = UInt8(ascii: "f")
      case 0x0A: short = UInt8(ascii: "n")
      case 0x0D: short = UInt8(ascii: "r")
      case 0x09: short = UInt8(ascii: "t")
      case 0..<0x20, 0x7F: escape = UInt32(byte)
      case 0xC2 where index + 1 < count && utf8[index + 1] < 0xA0:
        length = 2
        escape = UInt32(utf8[index + 1])
      case 0xD8 where index + 1 < count && utf8[index + 1] == 0x9C:
        length = 2
        escape = 0x061C
      case 0xE2 where index + 2 < count:
        let value =
          (UInt32(byte & 0x0F) << 12) | (UInt32(utf8[index + 1] & 0x3F) << 6)
          | UInt32(utf8[index + 2] & 0x3F)
        if let scalar = Unicode.Scalar(value), UntrustedText.isControl(scalar) {
          length = 3
          escape = value
        }
      default: break
      }
      if short == nil && escape == nil {
        index += 1
        continue
      }
      if index > start {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
      }
      if let short {
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(short)
      } else if let escape {
        bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) {
          bytes.append(Self.hexDigits[Int((escape >> UInt32(shift)) & 0xF)])
        }
      }
      index += length
      start = index
    }
    if count > start {
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<count]))
    }
  }
}
