/// RFC 3986 percent-encoding that leaves only the unreserved set (`A–Z a–z 0–9 - . _ ~`)
/// as is, so `+` becomes `%2B` in a query and `/` becomes `%2F` in a path segment.
enum PercentEncoding {
  private static let hexDigits = Array("0123456789ABCDEF".utf8)

  /// `value` with every byte outside the unreserved set percent-encoded (UTF-8).
  static func encode(_ value: String) -> String {
    let utf8 = value.utf8
    guard !utf8.allSatisfy(isUnreserved) else { return value }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count * 3)
    for byte in utf8 {
      if isUnreserved(byte) {
        bytes.append(byte)
      } else {
        bytes += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether `byte` is in the unreserved set.
  static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      true
    default:
      false
    }
  }
}
