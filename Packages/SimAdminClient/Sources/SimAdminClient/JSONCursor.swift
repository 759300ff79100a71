import Foundation

/// The engine under ``JSONReader`` and the SMS fast path: walks UTF-8 JSON one value at a time
/// and checks every byte it passes against RFC 8259 (grammar, UTF-8, escapes), with a depth
/// limit so hostile nesting cannot exhaust the stack.
///
/// Callers pull: ``peek()`` the kind of the next value, then read it (``readString()``,
/// ``readNumber()``, ``readBool()``, ``readNull()``), step through it (``enterObject()`` and
/// ``nextMember(_:)``, ``enterArray()`` and ``nextElement(_:)``) or ``skipValue()`` it, which
/// still checks it. Keys come back as byte ranges, so matching one costs no `String`.
///
/// It points into the caller's buffer: use it only inside `withUnsafeBytes`.
struct JSONCursor {
  /// What the next value is.
  enum Kind: Equatable {
    case object, array, string, number, bool, null
  }

  /// An object key: a range of the input when it has no escapes, else the decoded text.
  struct Key {
    var start: Int
    var length: Int
    var decoded: String?
    /// A plain ASCII key under 16 bytes, packed as ``JSONCursor/packed(_:)`` packs names.
    var packed: Packed?
  }

  /// Up to 15 ASCII bytes, eight to a word (little-endian), with the length in the top byte
  /// of `high`: two equal values hold the same text.
  struct Packed: Equatable {
    var low: UInt64
    var high: UInt64

    init(low: UInt64, high: UInt64, length: Int) {
      self.low = low
      self.high = high | UInt64(length) << 56
    }
  }

  /// `name` (ASCII, under 16 bytes) packed to compare with ``Key/packed``.
  static func packed(_ name: StaticString) -> Packed {
    var low: UInt64 = 0
    var high: UInt64 = 0
    let text = name.utf8Start
    for offset in 0..<name.utf8CodeUnitCount {
      let byte = UInt64(text[offset])
      if offset < 8 {
        low |= byte << UInt64(8 * offset)
      } else {
        high |= byte << UInt64(8 * (offset - 8))
      }
    }
    return Packed(low: low, high: high, length: name.utf8CodeUnitCount)
  }

  let bytes: UnsafePointer<UInt8>
  let count: Int
  let maxDepth: Int
  let rejectsLoneSurrogates: Bool
  private(set) var index = 0
  private var depth = 0
  /// Unescaped bytes of the string being read, reused from string to string.
  private var scratch: [UInt8] = []
  /// Strings of up to 15 ASCII bytes already made from this input, in a direct-mapped table
  /// (see ``shortString(start:length:_:)``); empty until first used.
  private var shortStrings: [ShortString] = []

  private struct ShortString {
    var packed: Packed
    var text: String
  }

  /// A cursor at the start of `buffer`; `nil` when it is empty.
  init?(_ buffer: UnsafeRawBufferPointer, maxDepth: Int, rejectsLoneSurrogates: Bool) {
    guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
    self.bytes = base.assumingMemoryBound(to: UInt8.self)
    self.count = buffer.count
    self.maxDepth = maxDepth
    self.rejectsLoneSurrogates = rejectsLoneSurrogates
  }

  func failure(_ reason: JSONReaderError.Reason) -> JSONReaderError {
    JSONReaderError(reason: reason, offset: index)
  }

  // MARK: - Values

  /// The kind of the next value (whitespace before it is skipped).
  mutating func peek() throws(JSONReaderError) -> Kind {
    skipWhitespace()
    guard index < count else { throw failure(.unexpectedEnd) }
    switch bytes[index] {
    case Byte.quote: return .string
    case Byte.openBrace: return .object
    case Byte.openBracket: return .array
    case Byte.minus, Byte.zero...Byte.nine: return .number
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
    case UInt8(ascii: "n"): return .null
    default: throw failure(.unexpectedByte)
    }
  }

  /// Whether a string starts right here (no whitespace before it): the common case, checked
  /// before ``peek()``.
  var startsString: Bool { index < count && bytes[index] == Byte.quote }

  /// Checks that only whitespace follows the top-level value.
  mutating func finish() throws(JSONReaderError) {
    skipWhitespace()
    guard index == count else { throw failure(.trailingData) }
  }

  /// Reads `true` or `false` (after ``peek()`` said `.bool`).
  mutating func readBool() throws(JSONReaderError) -> Bool {
    if bytes[index] == UInt8(ascii: "t") {
      try literal("true")
      return true
    }
    try literal("false")
    return false
  }

  /// Reads `null` (after ``peek()`` said `.null`).
  mutating func readNull() throws(JSONReaderError) {
    try literal("null")
  }

  /// Steps over the next value, checking it as closely as reading it would.
  mutating func skipValue() throws(JSONReaderError) {
    switch try peek() {
    case .string: _ = try string(materialize: false)
    case .number: _ = try numberEnd()
    case .bool: _ = try readBool()
    case .null: try readNull()
    case .object:
      try enterObject()
      var first = true
      while try nextMember(&first) != nil { try skipValue() }
    case .array:
      try enterArray()
      var first = true
      while try nextElement(&first) { try skipValue() }
    }
  }

  private mutating func literal(_ word: StaticString) throws(JSONReaderError) {
    let text = word.utf8Start
    for offset in 0..<word.utf8CodeUnitCount {
      guard index < count else { throw failure(.unexpectedEnd) }
      guard bytes[index] == text[offset] else { throw failure(.unexpectedByte) }
      index += 1
    }
  }

  @inline(__always)
  private mutating func skipWhitespace() {
    while index < count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  // MARK: - Containers

  /// Where the cursor is, to come back to with ``rewind(to:)``.
  struct Position {
    fileprivate var index: Int
    fileprivate var depth: Int
  }

  /// Where the cursor is.
  var position: Position { Position(index: index, depth: depth) }

  /// Goes back to `position` (taken from this cursor).
  mutating func rewind(to position: Position) {
    index = position.index
    depth = position.depth
  }

  /// Steps over `literal` when the input continues with exactly it.
  @inline(__always)
  mutating func skip(_ literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard count - index >= length else { return false }
    let text = UnsafeRawPointer(literal.utf8Start)
    let here = UnsafeRawPointer(bytes + index)
    if length >= 8 {
      // Eight bytes at a time; the last eight (overlapping the ones before) end it.
      var offset = 0
      while length - offset > 8 {
        guard
          here.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            == text.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        else { return false }
        offset &+= 8
      }
      guard
        here.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
          == text.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
      else { return false }
    } else {
      for offset in 0..<length
      where here.load(fromByteOffset: offset, as: UInt8.self)
        != text.load(fromByteOffset: offset, as: UInt8.self)
      {
        return false
      }
    }
    index &+= length
    return true
  }

  /// Steps out of the object being read when a closing brace comes next (no whitespace).
  mutating func leaveObject() -> Bool {
    guard index < count, bytes[index] == Byte.closeBrace else { return false }
    _ = leave()
    return true
  }

  /// Steps into the object at the cursor (after ``peek()`` said `.object`).
  mutating func enterObject() throws(JSONReaderError) {
    depth += 1
    guard depth <= maxDepth else { throw failure(.tooDeep) }
    index += 1
  }

  /// The next member's key, leaving the cursor on its value, which the caller must read or
  /// skip; `nil` after the closing brace. `first` starts `true` for each object.
  mutating func nextMember(_ first: inout Bool) throws(JSONReaderError) -> Key? {
    skipWhitespace()
    guard index < count else { throw failure(.unexpectedEnd) }
    if first {
      first = false
      if bytes[index] == Byte.closeBrace { return leave() }
    } else {
      switch bytes[index] {
      case Byte.closeBrace: return leave()
      case Byte.comma:
        index += 1
        skipWhitespace()
        guard index < count else { throw failure(.unexpectedEnd) }
      default: throw failure(.unexpectedByte)
      }
    }
    guard bytes[index] == Byte.quote else { throw failure(.unexpectedByte) }
    let start = index + 1
    let key: Key
    if let short = shortPlain(at: start) {
      index = start + short.length + 1
      key = Key(start: start, length: short.length, decoded: nil, packed: short.packed)
    } else {
      let decoded = try string(materialize: false, keepingEscaped: true)
      let length = index - 1 - start
      let packed = decoded == nil && length < 16 ? pack(start: start, length: length) : nil
      key = Key(start: start, length: length, decoded: decoded, packed: packed)
    }
    skipWhitespace()
    guard index < count else { throw failure(.unexpectedEnd) }
    guard bytes[index] == Byte.colon else { throw failure(.unexpectedByte) }
    index += 1
    return key
  }

  /// Steps into the array at the cursor (after ``peek()`` said `.array`).
  mutating func enterArray() throws(JSONReaderError) {
    depth += 1
    guard depth <= maxDepth else { throw failure(.tooDeep) }
    index += 1
  }

  /// Whether another element follows (the cursor is then on it, and the caller must read or
  /// skip it); `false` after the closing bracket. `first` starts `true` for each array.
  mutating func nextElement(_ first: inout Bool) throws(JSONReaderError) -> Bool {
    skipWhitespace()
    guard index < count else { throw failure(.unexpectedEnd) }
    if first {
      first = false
      if bytes[index] == Byte.closeBracket { return leave() != nil }
      return true
    }
    switch bytes[index] {
    case Byte.closeBracket: return leave() != nil
    case Byte.comma:
      index += 1
      return true
    default: throw failure(.unexpectedByte)
    }
  }

  /// Steps over a closing brace or bracket; always `nil`.
  private mutating func leave() -> Key? {
    index += 1
    depth -= 1
    return nil
  }

  /// Whether `key` is exactly `name`.
  @inline(__always)
  func key(_ key: Key, is name: StaticString) -> Bool {
    let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    if let decoded = key.decoded { return decoded.utf8.elementsEqual(expected) }
    guard key.length == expected.count else { return false }
    // Keys are short: a plain loop beats a call to memcmp.
    for offset in 0..<key.length where bytes[key.start &+ offset] != expected[offset] {
      return false
    }
    return true
  }

  /// `key` as a string.
  mutating func keyString(_ key: Key) -> String {
    if let decoded = key.decoded { return decoded }
    if let packed = key.packed { return shortString(start: key.start, length: key.length, packed) }
    return String(
      decoding: UnsafeBufferPointer(start: bytes + key.start, count: key.length), as: UTF8.self)
  }

  /// The `length` (below 16) bytes at `start` packed, or `nil` when one is not ASCII.
  private func pack(start: Int, length: Int) -> Packed? {
    var low: UInt64 = 0
    var high: UInt64 = 0
    for offset in 0..<length {
      let byte = bytes[start + offset]
      guard byte < 0x80 else { return nil }
      if offset < 8 {
        low |= UInt64(byte) << UInt64(8 * offset)
      } else {
        high |= UInt64(byte) << UInt64(8 * (offset - 8))
      }
    }
    return Packed(low: low, high: high, length: length)
  }

  /// The ASCII string of `length` (below 16) bytes at `start`, packed as `packed`, reused when
  /// the same bytes were made into a string before: SMS lists repeat their keys, directions,
  /// statuses and phone numbers, and finding a string is far cheaper than making one.
  private mutating func shortString(start: Int, length: Int, _ packed: Packed) -> String {
    if shortStrings.isEmpty {
      shortStrings = Array(
        repeating: ShortString(packed: Packed(low: 0, high: 0, length: 0xFF), text: ""), count: 64)
    }
    let slot = Int(truncatingIfNeeded: ((packed.low ^ packed.high) &* 0x9E37_79B9_7F4A_7C15) >> 58)
    if shortStrings[slot].packed == packed { return shortStrings[slot].text }
    let text = String(
      decoding: UnsafeBufferPointer(start: bytes + start, count: length), as: UTF8.self)
    shortStrings[slot] = ShortString(packed: packed, text: text)
    return text
  }

  /// The string whose text starts at `start` (after its opening quote) when it is at most 15
  /// plain ASCII bytes (no escape, no control byte) and sixteen bytes can be loaded there: its
  /// length and its bytes, eight to a word. `nil` sends the string down the general path.
  @inline(__always)
  private func shortPlain(at start: Int) -> (length: Int, packed: Packed)? {
    var plainPrefix = 0
    return shortPlain(at: start, plainPrefix: &plainPrefix)
  }

  /// ``shortPlain(at:)``, also setting `plainPrefix` to 16 when the string is longer and its
  /// first sixteen bytes are plain ASCII (so a scan may resume after them).
  @inline(__always)
  private func shortPlain(at start: Int, plainPrefix: inout Int) -> (length: Int, packed: Packed)? {
    guard count - start >= 16 else { return nil }
    let raw = UnsafeRawPointer(bytes + start)
    let low = raw.loadUnaligned(as: UInt64.self)
    // Quotes, backslashes, control bytes and non-ASCII; the first one flagged is exact.
    let stopsLow = Self.stops(low) | low & Self.highs
    if stopsLow != 0 {
      let length = stopsLow.trailingZeroBitCount >> 3
      guard bytes[start + length] == Byte.quote else { return nil }
      let masked = length == 0 ? 0 : low & ~0 >> UInt64(64 - 8 * length)
      return (length, Packed(low: masked, high: 0, length: length))
    }
    let high = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    let stopsHigh = Self.stops(high) | high & Self.highs
    guard stopsHigh != 0 else {
      plainPrefix = 16
      return nil
    }
    let length = 8 + stopsHigh.trailingZeroBitCount >> 3
    guard bytes[start + length] == Byte.quote else { return nil }
    let masked = length == 8 ? 0 : high & ~0 >> UInt64(128 - 8 * length)
    return (length, Packed(low: low, high: masked, length: length))
  }

  // MARK: - Numbers

  /// Reads a number's text (after ``peek()`` said `.number`).
  mutating func readNumber() throws(JSONReaderError) -> String {
    let start = index
    let end = try numberEnd()
    return String(
      decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
  }

  /// A number read (after ``peek()`` said `.number`) as its `Int64` when it is an integer
  /// literal that fits, else as its text.
  enum Number {
    case integer(Int64)
    case text(String)
  }

  /// Reads an integer literal that fits an `Int64` and starts right here (an SMS id) in one
  /// pass; `nil`, with the cursor unmoved, for anything else (which the caller reads the
  /// general way).
  @inline(__always)
  mutating func readPlainInteger() -> Int64? {
    var next = index
    let negative = next < count && bytes[next] == Byte.minus
    if negative { next &+= 1 }
    guard next < count, isDigit(bytes[next]) else { return nil }
    // Accumulated negatively so that Int64.min fits.
    var value: Int64 = 0
    let first = next
    while next < count, isDigit(bytes[next]) {
      let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = shifted.subtractingReportingOverflow(Int64(bytes[next] &- Byte.zero))
      guard !overflow1 && !overflow2 else { return nil }
      value = sum
      next &+= 1
    }
    // A leading zero before more digits is malformed; a fraction or exponent is not plain.
    if bytes[first] == Byte.zero && next - first > 1 { return nil }
    if next < count, bytes[next] == Byte.dot || bytes[next] | 0x20 == UInt8(ascii: "e") {
      return nil
    }
    if !negative {
      guard value != .min else { return nil }
      value = -value
    }
    index = next
    return value
  }

  /// Reads a number, sparing the text when it is a plain integer (an SMS id).
  mutating func readNumberValue() throws(JSONReaderError) -> Number {
    let start = index
    let end = try numberEnd()
    let literal = UnsafeBufferPointer(start: bytes + start, count: end - start)
    if let value = JSONNumberText.integerLiteral(literal) { return .integer(value) }
    return .text(String(decoding: literal, as: UTF8.self))
  }

  /// Steps over `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; returns where it ends.
  private mutating func numberEnd() throws(JSONReaderError) -> Int {
    if bytes[index] == Byte.minus { index += 1 }
    guard index < count else { throw failure(.unexpectedEnd) }
    if bytes[index] == Byte.zero {
      index += 1
      if index < count, isDigit(bytes[index]) { throw failure(.invalidNumber) }
    } else {
      try digits()
    }
    if index < count, bytes[index] == Byte.dot {
      index += 1
      try digits()
    }
    if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < count, bytes[index] == Byte.plus || bytes[index] == Byte.minus { index += 1 }
      try digits()
    }
    return index
  }

  @inline(__always)
  private func isDigit(_ byte: UInt8) -> Bool { byte &- Byte.zero < 10 }

  /// One or more digits.
  private mutating func digits() throws(JSONReaderError) {
    guard index < count else { throw failure(.unexpectedEnd) }
    guard isDigit(bytes[index]) else { throw failure(.invalidNumber) }
    index += 1
    while index < count, isDigit(bytes[index]) { index += 1 }
  }

  // MARK: - Strings

  /// Reads a string (after ``peek()`` said `.string`).
  mutating func readString() throws(JSONReaderError) -> String {
    try string(materialize: true) ?? ""
  }

  /// Steps over the string at the cursor, checking it; returns its text when `materialize`,
  /// or (with `keepingEscaped`) when it had escapes. Inlined, so that each caller gets the
  /// code for its own flags.
  @inline(__always)
  private mutating func string(materialize: Bool, keepingEscaped: Bool = false)
    throws(JSONReaderError) -> String?
  {
    index += 1
    let start = index
    var plainPrefix = 0
    if let short = shortPlain(at: start, plainPrefix: &plainPrefix) {
      index = start + short.length + 1
      guard materialize else { return nil }
      return shortString(start: start, length: short.length, short.packed)
    }
    index = start + plainPrefix
    let seen = skipPlainBytes()
    guard index < count else { throw failure(.unexpectedEnd) }
    switch bytes[index] {
    case Byte.quote:
      let utf8 = UnsafeBufferPointer(start: bytes + start, count: index - start)
      var text: String?
      // ASCII needs no UTF-8 check.
      if seen & Self.highs == 0 {
        if materialize {
          text =
            utf8.count < 16
            ? keyString(
              Key(
                start: start, length: utf8.count, decoded: nil,
                packed: pack(start: start, length: utf8.count)))
            : String(decoding: utf8, as: UTF8.self)
        }
      } else if materialize {
        text = try makeString(utf8)
      } else {
        try validateUTF8(utf8)
      }
      index += 1
      return text
    case Byte.backslash:
      return try escapedString(from: start, materialize: materialize || keepingEscaped)
    default:
      throw failure(.controlCharacter)
    }
  }

  /// Advances `index` to the next quote, backslash or control byte (or the end of the input),
  /// eight bytes at a time; returns the bytes passed OR-ed together, whose high bits tell
  /// whether any was non-ASCII.
  @inline(__always)
  private mutating func skipPlainBytes() -> UInt64 {
    var seen: UInt64 = 0
    while count - index >= 8 {
      let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
      let stops = Self.stops(word)
      if stops != 0 {
        let plain = stops.trailingZeroBitCount >> 3
        if plain > 0 { seen |= word & (~0 >> UInt64(64 - 8 * plain)) }
        index += plain
        return seen
      }
      seen |= word
      index += 8
    }
    while index < count {
      let byte = bytes[index]
      if byte == Byte.quote || byte == Byte.backslash || byte < 0x20 { return seen }
      seen |= UInt64(byte)
      index += 1
    }
    return seen
  }

  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// The high bit of each byte that is `"`, `\` or below 0x20 (exact up to the first such
  /// byte; bytes after it may be flagged too). Bytes above 0x7F pass: a string's UTF-8 is
  /// checked as a whole.
  @inline(__always)
  private static func stops(_ word: UInt64) -> UInt64 {
    let quotes = word ^ (ones &* UInt64(Byte.quote))
    let slashes = word ^ (ones &* UInt64(Byte.backslash))
    let zeroQuote = (quotes &- ones) & ~quotes
    let zeroSlash = (slashes &- ones) & ~slashes
    let control = (word &- (ones &* 0x20)) & ~word
    return (zeroQuote | zeroSlash | control) & highs
  }

  /// A string from `utf8`, which must be valid UTF-8 (the offset named on failure is the
  /// string's closing quote).
  ///
  /// `String(decoding:as:)` repairs invalid UTF-8 by putting U+FFFD in place of the bad
  /// bytes, which can never give back the same bytes, so an unchanged result proves the input
  /// valid (at the cost of one `memcmp` next to the standard library's own fast validation).
  private func makeString(_ utf8: UnsafeBufferPointer<UInt8>) throws(JSONReaderError) -> String {
    guard let input = utf8.baseAddress, !utf8.isEmpty else { return "" }
    let text = String(decoding: utf8, as: UTF8.self)
    let unchanged =
      text.utf8.count == utf8.count
      && text.utf8.withContiguousStorageIfAvailable { output in
        output.baseAddress.map { memcmp($0, input, utf8.count) == 0 } ?? false
      } == true
    guard unchanged else { throw failure(.invalidUTF8) }
    return text
  }

  /// Checks that `utf8` is well-formed UTF-8 (Unicode Table 3-7) without making a string.
  private func validateUTF8(_ utf8: UnsafeBufferPointer<UInt8>) throws(JSONReaderError) {
    var offset = 0
    while offset < utf8.count {
      let lead = utf8[offset]
      if lead < 0x80 {
        offset += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: throw failure(.invalidUTF8)
      }
      guard utf8.count - offset >= length else { throw failure(.invalidUTF8) }
      let second = utf8[offset + 1]
      guard second >= low && second <= high else { throw failure(.invalidUTF8) }
      for next in 2..<max(2, length) where utf8[offset + next] & 0xC0 != 0x80 {
        throw failure(.invalidUTF8)
      }
      offset += length
    }
  }

  /// The rest of a string that has escapes (`index` is on the first backslash), decoded into
  /// ``scratch`` and checked; its text when `materialize`.
  private mutating func escapedString(from start: Int, materialize: Bool)
    throws(JSONReaderError) -> String?
  {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: index - start))
    while true {
      guard index < count else { throw failure(.unexpectedEnd) }
      switch bytes[index] {
      case Byte.quote:
        let text = try scratch.withUnsafeBufferPointer {
          (utf8) throws(JSONReaderError) -> String? in
          if materialize { return try makeString(utf8) }
          try validateUTF8(utf8)
          return nil
        }
        index += 1
        return text
      case Byte.backslash:
        try escape()
      default:
        throw failure(.controlCharacter)
      }
      let run = index
      _ = skipPlainBytes()
      scratch.append(contentsOf: UnsafeBufferPointer(start: bytes + run, count: index - run))
    }
  }

  /// The escape at `index` (a backslash), appended to ``scratch``.
  private mutating func escape() throws(JSONReaderError) {
    index += 1
    guard index < count else { throw failure(.unexpectedEnd) }
    let letter = bytes[index]
    index += 1
    switch letter {
    case Byte.quote, Byte.backslash, UInt8(ascii: "/"): scratch.append(letter)
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "u"): try unicodeEscape()
    default:
      index -= 1
      throw failure(.invalidEscape)
    }
  }

  /// `XXXX` after `\u` (and a low surrogate's `\uXXXX` after a high one), as UTF-8.
  private mutating func unicodeEscape() throws(JSONReaderError) {
    let unit = try hexQuad()
    switch unit {
    case 0xD800...0xDBFF:
      if count - index >= 6, bytes[index] == Byte.backslash, bytes[index + 1] == UInt8(ascii: "u") {
        let afterHigh = index
        index += 2
        let low = try hexQuad()
        if (0xDC00...0xDFFF).contains(low) {
          appendScalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
          return
        }
        index = afterHigh
      }
      try loneSurrogate()
    case 0xDC00...0xDFFF:
      try loneSurrogate()
    default:
      appendScalar(unit)
    }
  }

  /// A surrogate escape without its other half (just read): U+FFFD, or refused.
  private mutating func loneSurrogate() throws(JSONReaderError) {
    if rejectsLoneSurrogates {
      index -= 6
      throw failure(.loneSurrogate)
    }
    appendScalar(0xFFFD)
  }

  /// Four hex digits.
  private mutating func hexQuad() throws(JSONReaderError) -> UInt32 {
    guard count - index >= 4 else {
      index = count
      throw failure(.unexpectedEnd)
    }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case Byte.zero...Byte.nine: digit = byte - Byte.zero
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure(.invalidEscape)
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  /// Appends `scalar` (never a surrogate) as UTF-8.
  private mutating func appendScalar(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      scratch.append(UInt8(scalar))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | scalar >> 6))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | scalar >> 12))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | scalar >> 18))
      scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    }
  }
}

/// Bytes the JSON grammar names.
private enum Byte {
  static let quote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")
  static let comma = UInt8(ascii: ",")
  static let colon = UInt8(ascii: ":")
  static let openBrace = UInt8(ascii: "{")
  static let closeBrace = UInt8(ascii: "}")
  static let openBracket = UInt8(ascii: "[")
  static let closeBracket = UInt8(ascii: "]")
  static let minus = UInt8(ascii: "-")
  static let plus = UInt8(ascii: "+")
  static let dot = UInt8(ascii: ".")
  static let zero = UInt8(ascii: "0")
  static let nine = UInt8(ascii: "9")
}
