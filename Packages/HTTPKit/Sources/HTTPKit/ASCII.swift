/// Byte-level text checks for protocol text (header values, URLs), which is ASCII: a plain
/// loop beats Foundation's `range(of:)` and the generic `firstRange(of:)` many times over on
/// the hot path of every response.
enum ASCII {
  /// `byte` lower-cased if it is an ASCII capital letter.
  static func lowercased(_ byte: UInt8) -> UInt8 {
    (65...90).contains(byte) ? byte | 0x20 : byte
  }

  /// Where `needle` (lower-case ASCII) first starts in `text`, ignoring ASCII case.
  static func firstIndex<Text: Collection<UInt8>>(of needle: StaticString, in text: Text)
    -> Text.Index?
  {
    let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
    guard !pattern.isEmpty else { return text.startIndex }
    var start = text.startIndex
    while start != text.endIndex {
      var cursor = start
      var matched = 0
      while matched < pattern.count, cursor != text.endIndex,
        lowercased(text[cursor]) == pattern[matched]
      {
        matched += 1
        cursor = text.index(after: cursor)
      }
      if matched == pattern.count { return start }
      if cursor == text.endIndex, matched > 0 { return nil }
      start = text.index(after: start)
    }
    return nil
  }

  /// Whether `text` contains `needle` (lower-case ASCII), ignoring ASCII case.
  static func contains(_ text: String, _ needle: StaticString) -> Bool {
    firstIndex(of: needle, in: text.utf8) != nil
  }

  /// `bytes` without leading and trailing spaces and tabs.
  static func trimmed<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bytes.SubSequence {
    var slice = bytes[...]
    while let first = slice.first, first == 32 || first == 9 { slice = slice.dropFirst() }
    while let last = slice.last, last == 32 || last == 9 { slice = slice.dropLast() }
    return slice
  }

  /// Whether `bytes` equals `word` (lower-case ASCII), ignoring ASCII case.
  static func equals<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ word: StaticString) -> Bool {
    bytes.count == word.utf8CodeUnitCount && firstIndex(of: word, in: bytes) != nil
  }

  /// The non-negative decimal number `bytes` spells, or `nil`.
  static func decimal<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
    guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
    var value = 0
    for byte in bytes {
      guard (48...57).contains(byte) else { return nil }
      value = value * 10 + Int(byte - 48)
    }
    return value
  }
}
