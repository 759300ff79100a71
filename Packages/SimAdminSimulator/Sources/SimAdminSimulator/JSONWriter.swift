import Essentials

/// Appends Essentials' ``JSONValue`` as JSON text to a byte buffer, written by hand for speed;
/// objects keep their members' order (SimAdmin's field order).
struct JSONWriter {
  var bytes: [UInt8] = []

  init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

  mutating func write(_ value: JSONValue) {
    switch value {
    case .null: append("null")
    case .bool(let flag): append(flag ? "true" : "false")
    case .number(let text): append(text)
    case .string(let text): writeString(text)
    case .array(let items):
      bytes.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        write(item)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let fields):
      bytes.append(UInt8(ascii: "{"))
      for (index, field) in fields.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        writeString(field.key)
        bytes.append(UInt8(ascii: ":"))
        write(field.value)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  /// Writes a quoted, escaped string; non-ASCII UTF-8 passes through unchanged.
  mutating func writeString(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    let hex = Array("0123456789abcdef".utf8)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
      case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
      case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
      case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
      case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
      case 0..<0x20:
        bytes.append(contentsOf: Array("\\u00".utf8))
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0x0F)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Writes bytes as a quoted string, escaping only `"`, `\` and control bytes: invalid UTF-8
  /// passes through as it is.
  mutating func writeStringBytes(_ raw: [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    for byte in raw {
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(byte)
      } else if byte < 0x20 {
        bytes.append(contentsOf: Array(String(format: "\\u%04x", Int(byte)).utf8))
      } else {
        bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Writes one SMS row in SimAdmin's field order.
  mutating func writeMessage(_ message: SimulatedSMS) {
    writeMessage(message, idText: String(message.id))
  }

  /// Writes one SMS row in SimAdmin's field order with `idText` as the id's JSON (no `id`
  /// member at all when nil: how a broken device lists a row no client can read), and
  /// `contentSuffix` (UTF-8 that needs no escaping) after the body's text.
  mutating func writeMessage(
    _ message: SimulatedSMS, idText: String?, contentSuffix: ArraySlice<UInt8> = []
  ) {
    if let idText {
      append("{\"id\":")
      append(idText)
      append(",")
    } else {
      append("{")
    }
    append("\"direction\":")
    writeString(message.direction)
    append(",\"phone_number\":")
    writeString(message.phoneNumber)
    append(",\"content\":")
    if let raw = message.contentBytes {
      writeStringBytes(raw)
    } else {
      writeString(message.content)
    }
    if !contentSuffix.isEmpty {
      // Inside the closing quote.
      bytes.removeLast()
      bytes.append(contentsOf: contentSuffix)
      bytes.append(UInt8(ascii: "\""))
    }
    append(",\"timestamp\":")
    writeString(message.timestamp)
    append(",\"status\":")
    writeString(message.status)
    append(",\"pdu\":")
    if let pdu = message.pdu { writeString(pdu) } else { append("null") }
    bytes.append(UInt8(ascii: "}"))
  }
}
