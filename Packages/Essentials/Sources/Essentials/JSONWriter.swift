import Foundation

/// The one JSON writer: UTF-8 bytes written directly, exactly as `JSONEncoder` writes the same
/// value in the chosen ``Format``, without building the encoder's tree first. The `--json`
/// output (``Format/output``, `CommandLineKit.JSONOutputWriter`), the stored snapshots and
/// connection logs (``Format/stored``) and the simulated devices' answers (``Format/compact``)
/// all write through it.
///
/// Members are written in the order the caller gives: sorted by their UTF-8 bytes where the
/// encoder's `.sortedKeys` is matched, in document order for a ``JSONValue``. A value the
/// encoder writes differently or refuses (a non-finite double; a date outside the years
/// 1583–9999: the encoder's calendar is Julian before the Gregorian reform of 1582) marks the
/// output ``isUnwritable``; the caller then uses the encoder.
public struct JSONWriter: Sendable {
  /// How the bytes are laid out and which characters are escaped.
  public struct Format: Sendable, Hashable {
    /// Two spaces of indent per level and `"key" : value`, as `.prettyPrinted`; otherwise
    /// compact.
    public var isPretty: Bool
    /// `/` written as `\/`, as the encoder does without `.withoutEscapingSlashes`.
    public var escapesSlashes: Bool
    /// DEL, C1 and the bidi controls escaped too (as `\u` and four lowercase hex digits),
    /// besides C0: text a terminal will show.
    public var escapesAllControls: Bool

    /// A format.
    public init(isPretty: Bool, escapesSlashes: Bool, escapesAllControls: Bool) {
      self.isPretty = isPretty
      self.escapesSlashes = escapesSlashes
      self.escapesAllControls = escapesAllControls
    }

    /// `--json` output: pretty, slashes as they are, every control escaped.
    public static let output = Format(
      isPretty: true, escapesSlashes: false, escapesAllControls: true)
    /// Stored JSON: compact, `/` escaped, C0 controls only; byte for byte `JSONEncoder` with
    /// `.sortedKeys`.
    public static let stored = Format(
      isPretty: false, escapesSlashes: true, escapesAllControls: false)
    /// Compact, slashes as they are, C0 controls only: what SimAdmin's own JSON (serde_json)
    /// looks like.
    public static let compact = Format(
      isPretty: false, escapesSlashes: false, escapesAllControls: false)
  }

  /// The UTF-8 written so far.
  public private(set) var bytes: [UInt8] = []
  /// Whether a value was met that this writer does not write as the encoder would.
  public private(set) var isUnwritable = false
  /// The layout and escaping.
  public let format: Format
  /// The language a message inside the data is written in (as the encoder's `userInfo`).
  public let language: AppLanguage
  private var depth = 0
  private var isFirst = true

  /// An empty writer of `format` (by default `--json` output's).
  public init(
    format: Format = .output, language: AppLanguage = .english, capacity: Int = 4096
  ) {
    self.format = format
    self.language = language
    bytes.reserveCapacity(capacity)
  }

  // MARK: - Containers

  /// An object; `body` writes its members with ``key(_:)`` and a value each.
  public mutating func object(_ body: (inout JSONWriter) -> Void) {
    open(UInt8(ascii: "{"))
    body(&self)
    close(UInt8(ascii: "}"))
  }

  /// An array of `items`, each written by `body`.
  public mutating func array<Items: Sequence>(
    _ items: Items, _ body: (inout JSONWriter, Items.Element) -> Void
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
    if format.isPretty {
      bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
    } else {
      bytes.append(UInt8(ascii: ":"))
    }
  }

  // MARK: - Values

  /// A string, escaped; `verbatimSuffix` (UTF-8 that needs no escaping, which the caller
  /// vouches for) is copied as it is before the closing quote (a simulated device pads a body
  /// with megabytes of one character).
  public mutating func string(_ text: String, verbatimSuffix: ArraySlice<UInt8> = []) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in appendEscaped(utf8) }
    bytes.append(contentsOf: verbatimSuffix)
    bytes.append(UInt8(ascii: "\""))
  }

  /// Bytes that may not be UTF-8 as a string, escaped the same way: invalid sequences pass
  /// through as they are (a device that stored them sends them so); `verbatimSuffix` as in
  /// ``string(_:verbatimSuffix:)``.
  public mutating func string(bytes raw: [UInt8], verbatimSuffix: ArraySlice<UInt8> = []) {
    bytes.append(UInt8(ascii: "\""))
    raw.withUnsafeBufferPointer { appendEscaped($0) }
    bytes.append(contentsOf: verbatimSuffix)
    bytes.append(UInt8(ascii: "\""))
  }

  /// A value already written as JSON text, copied as it is: the caller vouches for it (a
  /// simulated device's deliberately odd id, `1e30` or `"x5"`).
  public mutating func verbatim(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  /// An integer.
  public mutating func int(_ value: Int) {
    if value >= 0 && value < 10 {
      bytes.append(UInt8(ascii: "0") + UInt8(value))
    } else {
      bytes.append(contentsOf: String(value).utf8)
    }
  }

  /// A 64-bit integer.
  public mutating func int(_ value: Int64) {
    bytes.append(contentsOf: String(value).utf8)
  }

  /// `true` or `false`.
  public mutating func bool(_ value: Bool) {
    bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
  }

  /// `null`.
  public mutating func null() {
    bytes.append(contentsOf: "null".utf8)
  }

  /// A double as the encoder writes it: Swift's shortest text without a trailing `.0`.
  public mutating func double(_ value: Double) {
    guard value.isFinite else {
      isUnwritable = true
      null()
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
      null()
      return
    }
    let civil = CivilTime(value, offsetSeconds: 0)
    // Before 1583 the encoder's calendar is Julian (the Gregorian reform of 1582).
    guard (1583...9999).contains(civil.year) else {
      isUnwritable = true
      null()
      return
    }
    let time = civil.secondOfDay
    bytes.append(UInt8(ascii: "\""))
    appendDigits(civil.year, count: 4)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(civil.month, count: 2)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(civil.day, count: 2)
    bytes.append(UInt8(ascii: "T"))
    appendDigits(time / 3600, count: 2)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(time / 60 % 60, count: 2)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(time % 60, count: 2)
    bytes.append(contentsOf: [UInt8(ascii: "Z"), UInt8(ascii: "\"")])
  }

  /// A JSON tree, members in their document order, numbers as their text.
  public mutating func value(_ value: JSONValue) {
    switch value {
    case .null: null()
    case .bool(let flag): bool(flag)
    case .number(let text): bytes.append(contentsOf: text.utf8)
    case .string(let text): string(text)
    case .array(let items): array(items) { json, item in json.value(item) }
    case .object(let fields):
      object { json in
        for field in fields {
          json.key(field.key)
          json.value(field.value)
        }
      }
    }
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

  // MARK: - Layout

  private mutating func open(_ bracket: UInt8) {
    bytes.append(bracket)
    if format.isPretty { bytes.append(0x0A) }
    depth += 1
    isFirst = true
  }

  private mutating func close(_ bracket: UInt8) {
    depth -= 1
    if format.isPretty {
      bytes.append(0x0A)
      indent()
    }
    bytes.append(bracket)
    isFirst = false
  }

  private mutating func elementStart() {
    if isFirst {
      isFirst = false
    } else {
      bytes.append(UInt8(ascii: ","))
      if format.isPretty { bytes.append(0x0A) }
    }
    if format.isPretty { indent() }
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
    let allControls = format.escapesAllControls
    let slashes = format.escapesSlashes
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
      case UInt8(ascii: "/") where slashes: short = byte
      case 0x08: short = UInt8(ascii: "b")
      case 0x0C: short = UInt8(ascii: "f")
      case 0x0A: short = UInt8(ascii: "n")
      case 0x0D: short = UInt8(ascii: "r")
      case 0x09: short = UInt8(ascii: "t")
      case 0..<0x20: escape = UInt32(byte)
      case 0x7F where allControls: escape = UInt32(byte)
      case 0xC2 where allControls && index + 1 < count && utf8[index + 1] < 0xA0:
        length = 2
        escape = UInt32(utf8[index + 1])
      case 0xD8 where allControls && index + 1 < count && utf8[index + 1] == 0x9C:
        length = 2
        escape = 0x061C
      case 0xE2 where allControls && index + 2 < count:
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
