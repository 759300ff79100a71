import Foundation

/// Finds where a JSON text first goes wrong, as 1-based line and column, so an import error
/// can point at it (Foundation's messages differ between platforms and may omit it).
enum JSONPosition {
  /// The line and column of the first syntax error, or nils when the scanner finds none.
  static func locate(_ data: Data) -> (line: Int?, column: Int?) {
    var scanner = Scanner(bytes: [UInt8](data))
    if scanner.document() { return (nil, nil) }
    return scanner.position()
  }

  /// A one-line, secret-free summary of Foundation's message.
  static func summary(_ detail: String) -> String {
    let line = detail.split(whereSeparator: \.isNewline).first.map(String.init) ?? detail
    return String(line.prefix(160))
  }

  struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) {
      self.bytes = bytes
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    func position() -> (line: Int?, column: Int?) {
      var line = 1
      var column = 1
      for byte in bytes[..<min(index, bytes.count)] {
        if byte == 0x0A {
          line += 1
          column = 1
        } else if byte & 0xC0 != 0x80 {
          column += 1
        }
      }
      return (line, column)
    }

    mutating func document() -> Bool {
      skipSpace()
      guard value() else { return false }
      skipSpace()
      return index == bytes.count
    }

    mutating func skipSpace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value() -> Bool {
      guard index < bytes.count else { return false }
      switch bytes[index] {
      case UInt8(ascii: "{"): return container(close: UInt8(ascii: "}"), keyed: true)
      case UInt8(ascii: "["): return container(close: UInt8(ascii: "]"), keyed: false)
      case UInt8(ascii: "\""): return string()
      case UInt8(ascii: "t"): return literal("true")
      case UInt8(ascii: "f"): return literal("false")
      case UInt8(ascii: "n"): return literal("null")
      default: return number()
      }
    }

    mutating func container(close: UInt8, keyed: Bool) -> Bool {
      index += 1
      skipSpace()
      if index < bytes.count, bytes[index] == close {
        index += 1
        return true
      }
      while true {
        skipSpace()
        if keyed {
          guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), string() else {
            return false
          }
          skipSpace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
          index += 1
          skipSpace()
        }
        guard value() else { return false }
        skipSpace()
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == close else { return false }
        index += 1
        return true
      }
    }

    mutating func string() -> Bool {
      index += 1
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          index += 1
          return true
        }
        if byte < 0x20 { return false }
        index += byte == UInt8(ascii: "\\") ? 2 : 1
      }
      return false
    }

    mutating func literal(_ word: String) -> Bool {
      for byte in word.utf8 {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
      }
      return true
    }

    mutating func number() -> Bool {
      let start = index
      while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
      return index > start
    }
  }
}
