/// The one written form of a host that is an address (issue 36 point 10).
///
/// A resolver reads `0x7f000001`, `2130706433`, `127.1`, `0177.0.0.1` and
/// `[::ffff:127.0.0.1]` as `127.0.0.1`, so one device could be registered under several
/// names and its messages archived twice. ``InstanceOrigin`` writes every such host in one
/// form: the numeric IPv4 forms (WHATWG URL's IPv4 parser: one to four parts, each decimal,
/// `0x` hexadecimal or `0`-led octal, the last filling the remaining bytes) as dotted decimal;
/// an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) as its IPv4 address; any other IPv6
/// address in RFC 5952's form (lower case, no leading zeros, the first longest run of two or
/// more zero groups as `::`).
enum HostAddress {
  /// What a host that is not in brackets is.
  enum IPv4Reading: Equatable {
    /// Its last label is not a number: a host name.
    case name
    /// A numeric IPv4 form, written as dotted decimal.
    case address(String)
    /// It ends in a number but is no IPv4 address (`999.1.1.1`, `1.2.3.4.5`, `1.0x`).
    case invalid
  }

  /// Reads `host` (lower case, `[a-z0-9.-]`) the way a URL parser decides whether it is an
  /// IPv4 address: when its last label is a number (decimal digits, or `0x` and hex digits).
  static func ipv4(_ host: String) -> IPv4Reading {
    var parts = host.split(separator: ".", omittingEmptySubsequences: false)
    if parts.last?.isEmpty == true, parts.count > 1 { parts.removeLast() }
    guard let last = parts.last, endsInANumber(last) else { return .name }
    guard parts.count <= 4 else { return .invalid }
    var numbers: [UInt64] = []
    for part in parts {
      guard let number = number(part) else { return .invalid }
      numbers.append(number)
    }
    guard numbers.dropLast().allSatisfy({ $0 <= 255 }) else { return .invalid }
    let lastLimit = UInt64(1) << (8 * UInt64(5 - numbers.count))
    guard let final = numbers.last, final < lastLimit else { return .invalid }
    var value = final
    for (index, number) in numbers.dropLast().enumerated() {
      value += number << (8 * UInt64(3 - index))
    }
    return .address(dotted(UInt32(truncatingIfNeeded: value)))
  }

  /// The IPv6 address `text` (no brackets, no zone) in its one written form, or the IPv4
  /// address it maps (`::ffff:127.0.0.1` → `127.0.0.1`, `mapped` true); `nil` when `text` is
  /// not an IPv6 address.
  static func ipv6(_ text: String) -> (text: String, mapped: Bool)? {
    guard let groups = ipv6Groups(text) else { return nil }
    if groups[0..<5].allSatisfy({ $0 == 0 }), groups[5] == 0xFFFF {
      return (dotted(UInt32(groups[6]) << 16 | UInt32(groups[7])), true)
    }
    return (rfc5952(groups), false)
  }

  // MARK: - IPv4

  private static func endsInANumber(_ label: Substring) -> Bool {
    if !label.isEmpty, label.allSatisfy({ $0 >= "0" && $0 <= "9" }) { return true }
    let lower = label.lowercased()
    return lower.hasPrefix("0x") && lower.dropFirst(2).allSatisfy(\.isHexDigit)
  }

  /// One part: `0x…` hexadecimal (empty is 0), `0…` octal, otherwise decimal; `nil` when a
  /// digit does not belong or the value passes 2^32.
  private static func number(_ part: Substring) -> UInt64? {
    guard !part.isEmpty else { return nil }
    var digits = part
    var radix: UInt64 = 10
    if part.count >= 2, part.lowercased().hasPrefix("0x") {
      digits = part.dropFirst(2)
      radix = 16
    } else if part.count >= 2, part.hasPrefix("0") {
      digits = part.dropFirst()
      radix = 8
    }
    var value: UInt64 = 0
    for character in digits {
      guard let digit = character.hexDigitValue, UInt64(digit) < radix else { return nil }
      value = value * radix + UInt64(digit)
      guard value <= UInt64(UInt32.max) else { return nil }
    }
    return value
  }

  private static func dotted(_ value: UInt32) -> String {
    [value >> 24, value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF].map { String($0) }
      .joined(separator: ".")
  }

  // MARK: - IPv6

  /// The eight groups of an IPv6 address: hex groups of one to four digits separated by
  /// `:`, at most one `::` standing for one or more zero groups, and optionally a dotted
  /// IPv4 address (four decimal parts, no leading zeros) in place of the last two groups.
  static func ipv6Groups(_ text: String) -> [UInt16]? {
    let halves = text.components(separatedBy: "::")
    guard halves.count <= 2 else { return nil }
    func groups(_ half: String, allowsIPv4: Bool) -> [UInt16]? {
      guard !half.isEmpty else { return [] }
      let pieces = half.split(separator: ":", omittingEmptySubsequences: false)
      var result: [UInt16] = []
      for (index, piece) in pieces.enumerated() {
        if allowsIPv4, index == pieces.count - 1, piece.contains(".") {
          guard let value = dottedDecimal(piece) else { return nil }
          result += [UInt16(value >> 16), UInt16(value & 0xFFFF)]
        } else {
          guard (1...4).contains(piece.count), piece.allSatisfy(\.isHexDigit),
            let value = UInt16(piece, radix: 16)
          else { return nil }
          result.append(value)
        }
      }
      return result
    }
    if halves.count == 1 {
      guard let all = groups(halves[0], allowsIPv4: true), all.count == 8 else { return nil }
      return all
    }
    guard let head = groups(halves[0], allowsIPv4: false),
      let tail = groups(halves[1], allowsIPv4: true), head.count + tail.count <= 7
    else { return nil }
    return head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
  }

  private static func dottedDecimal(_ text: Substring) -> UInt32? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var value: UInt32 = 0
    for part in parts {
      guard (1...3).contains(part.count), part.allSatisfy({ $0 >= "0" && $0 <= "9" }),
        part == "0" || !part.hasPrefix("0"), let byte = UInt32(part), byte <= 255
      else { return nil }
      value = value << 8 | byte
    }
    return value
  }

  /// RFC 5952: lower-case hex without leading zeros; the first longest run of two or more
  /// zero groups written `::`.
  private static func rfc5952(_ groups: [UInt16]) -> String {
    var best: (start: Int, length: Int) = (-1, 0)
    var index = 0
    while index < groups.count {
      guard groups[index] == 0 else {
        index += 1
        continue
      }
      var end = index
      while end < groups.count, groups[end] == 0 { end += 1 }
      if end - index > best.length { best = (index, end - index) }
      index = end
    }
    let hex = groups.map { String($0, radix: 16) }
    guard best.length >= 2 else { return hex.joined(separator: ":") }
    let head = hex[..<best.start].joined(separator: ":")
    let tail = hex[(best.start + best.length)...].joined(separator: ":")
    return head + "::" + tail
  }
}
