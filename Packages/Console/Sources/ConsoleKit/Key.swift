/// One key press, decoded from the terminal's bytes.
public enum Key: Sendable, Equatable, Hashable {
  case up, down, left, right, pageUp, pageDown, home, end
  case enter, escape, backspace, delete, tab, backTab
  /// A printable character (including CJK typed through an input method).
  case character(Character)
  /// Ctrl plus a letter, e.g. `control("c")`.
  case control(Character)
}

/// Turns raw terminal bytes into keys; keeps an unfinished sequence for the next read.
///
/// Escape sequences (`ESC [ A`) arrive in one read in practice, so a lone ESC at the end of a
/// read is the Escape key.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  /// A decoder with nothing pending.
  public init() {}

  /// Decodes `bytes` (plus anything left from before).
  public mutating func feed(_ bytes: [UInt8]) -> [Key] {
    pending += bytes
    var keys: [Key] = []
    var index = 0
    while index < pending.count {
      let byte = pending[index]
      switch byte {
      case 0x1b:
        guard index + 1 < pending.count else {
          keys.append(.escape)
          index += 1
          continue
        }
        let next = pending[index + 1]
        guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else {
          keys.append(.escape)
          index += 1
          continue
        }
        // CSI / SS3: parameters then one final byte in 0x40...0x7e.
        var end = index + 2
        while end < pending.count, !(0x40...0x7e).contains(pending[end]) { end += 1 }
        guard end < pending.count else {
          pending.removeFirst(index)
          return keys
        }
        let parameters = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
        if let key = Self.escapeKey(final: pending[end], parameters: parameters) {
          keys.append(key)
        }
        index = end + 1
      case 0x0d, 0x0a: keys.append(.enter); index += 1
      case 0x7f, 0x08: keys.append(.backspace); index += 1
      case 0x09: keys.append(.tab); index += 1
      case 0x01...0x1a:
        keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
        index += 1
      case 0x00..<0x20: index += 1
      default:
        let length = Self.utf8Length(byte)
        guard index + length <= pending.count else {
          pending.removeFirst(index)
          return keys
        }
        let text = String(decoding: pending[index..<(index + length)], as: UTF8.self)
        keys += text.map(Key.character)
        index += length
      }
    }
    pending.removeAll()
    return keys
  }

  static func escapeKey(final: UInt8, parameters: String) -> Key? {
    switch (Character(Unicode.Scalar(final)), parameters) {
    case ("A", _): .up
    case ("B", _): .down
    case ("C", _): .right
    case ("D", _): .left
    case ("H", _), ("~", "1"), ("~", "7"): .home
    case ("F", _), ("~", "4"), ("~", "8"): .end
    case ("~", "5"): .pageUp
    case ("~", "6"): .pageDown
    case ("~", "3"): .delete
    case ("Z", _): .backTab
    default: nil
    }
  }

  static func utf8Length(_ lead: UInt8) -> Int {
    switch lead {
    case 0xf0...0xf7: 4
    case 0xe0...0xef: 3
    case 0xc0...0xdf: 2
    default: 1
    }
  }
}
