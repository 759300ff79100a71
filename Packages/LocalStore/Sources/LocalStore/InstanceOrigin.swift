import Essentials
import Foundation

/// Where an instance's SimAdmin listens: scheme, host and port only, normalized.
///
/// `http`/`https` only; the host is lower-cased; default ports are dropped, so
/// `HTTP://Router.LAN:80/` and `http://router.lan` are the same origin. Paths (other than a
/// single trailing `/`), queries, fragments, user-info and spaces are refused with an
/// ``OriginError`` that says how to fix the address. IPv6 literals are written `[::1]`.
///
/// An address has one written form (issue 36): the numeric IPv4 forms a resolver accepts
/// (`0x7f000001`, `2130706433`, `127.1`, `0177.0.0.1`) become `127.0.0.1`, an IPv4-mapped
/// IPv6 address (`[::ffff:127.0.0.1]`) its IPv4 address, any other IPv6 address RFC 5952's
/// form (``HostAddress``), so one device cannot be registered under several names. A host
/// name longer than 253 characters, or with a label longer than 63, is refused, as is a host
/// that ends in a number without being an IPv4 address (`999.1.1.1`).
public struct InstanceOrigin: Sendable, Hashable, Codable, CustomStringConvertible {
  /// `http` or `https`.
  public let scheme: String
  /// The lower-cased host, without brackets for IPv6.
  public let host: String
  /// The port, `nil` when it is the scheme's default.
  public let port: Int?
  /// The normalized text, e.g. `http://192.168.1.1:3000`.
  public let string: String

  /// The origin as a URL (no path). Made when asked (a request's client asks once), not for
  /// every origin read from the database; every origin ``init(parsing:)`` or ``init(stored:)``
  /// accepts is one `URL(string:)` reads (the parser checks it; the stored form's host is
  /// `[a-z0-9.-]` only, which `URL` always reads).
  public var url: URL { URL(string: string) ?? URL(fileURLWithPath: "/") }

  /// The longest host name: 253 characters (RFC 1035's 255 octets on the wire).
  public static let maximumHostLength = 253
  /// The longest label of a host name: 63 characters.
  public static let maximumLabelLength = 63

  /// Parses and normalizes `text` (surrounding whitespace is ignored).
  public init(parsing text: String) throws(OriginError) {
    try self.init(parsing: text, strict: true)
  }

  /// Parses and normalizes `text`; `strict` false is for what an older version stored: a
  /// host it accepted and this one refuses (too long, a number that is no address, an IPv6
  /// text that does not parse) is kept as it is, so the registry still loads; a numeric or
  /// mapped address is still written in its one form.
  init(parsing text: String, strict: Bool) throws(OriginError) {
    let input = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !input.isEmpty else { throw .empty }
    guard !input.contains(where: { $0.isWhitespace }) else { throw .containsSpaces }
    guard let separator = input.range(of: "://") else { throw .missingScheme(input) }
    let scheme = input[..<separator.lowerBound].lowercased()
    guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(scheme) }

    let rest = input[separator.upperBound...]
    let authorityEnd =
      rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    var tail = rest[authorityEnd...]
    guard !authority.contains("@") else { throw .hasUserInfo }
    if let hash = tail.firstIndex(of: "#") {
      let fragment = String(tail[tail.index(after: hash)...])
      if let question = tail.firstIndex(of: "?"), question < hash {
        throw .hasQuery(String(tail[tail.index(after: question)..<hash]))
      }
      if tail[..<hash].count > 1 || (tail[..<hash].count == 1 && tail.first != "/") {
        throw .hasPath(String(tail[..<hash]))
      }
      throw .hasFragment(fragment)
    }
    if let question = tail.firstIndex(of: "?") {
      let path = tail[..<question]
      if !(path.isEmpty || path == "/") { throw .hasPath(String(path)) }
      throw .hasQuery(String(tail[tail.index(after: question)...]))
    }
    if tail == "/" { tail = "" }
    guard tail.isEmpty else { throw .hasPath(String(tail)) }

    var host: String
    var portText: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { throw .invalidHost(String(authority)) }
      host = String(authority[authority.index(after: authority.startIndex)..<close]).lowercased()
      let afterHost = authority[authority.index(after: close)...]
      if !afterHost.isEmpty {
        guard afterHost.hasPrefix(":") else { throw .invalidHost(String(authority)) }
        portText = afterHost.dropFirst()
      }
      let allowed = Set("0123456789abcdef:.")
      guard host.contains(":"), host.allSatisfy({ allowed.contains($0) }) else {
        throw .invalidHost(host)
      }
      if let address = HostAddress.ipv6(host) {
        host = address.text
      } else if strict {
        throw .invalidHost(host)
      }
    } else {
      let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count <= 2 else { throw .invalidHost(String(authority)) }
      host = parts[0].lowercased()
      if parts.count == 2 { portText = parts[1] }
      guard !host.isEmpty else { throw .missingHost }
      if strict {
        let name = host.hasSuffix(".") ? host.dropLast() : Substring(host)
        guard name.utf8.count <= Self.maximumHostLength else {
          throw .hostTooLong(length: name.count)
        }
        if let label = name.split(separator: ".").first(where: {
          $0.utf8.count > Self.maximumLabelLength
        }) {
          throw .labelTooLong(label: String(label))
        }
      }
      guard
        host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }),
        !host.hasPrefix("."), !host.hasPrefix("-"), !host.contains("..")
      else { throw .invalidHost(host) }
      switch HostAddress.ipv4(host) {
      case .name: break
      case .address(let address): host = address
      case .invalid: if strict { throw .notAnAddress(host) }
      }
    }
    guard !host.isEmpty else { throw .missingHost }

    var port: Int?
    if let portText {
      guard !portText.isEmpty, portText.count <= 5,
        portText.allSatisfy({ $0.isASCII && $0.isNumber }),
        let number = Int(portText), (1...65535).contains(number)
      else { throw .invalidPort(String(portText)) }
      port = number
    }
    if (scheme == "http" && port == 80) || (scheme == "https" && port == 443) { port = nil }

    let hostText = host.contains(":") ? "[\(host)]" : host
    let normalized = "\(scheme)://\(hostText)" + (port.map { ":\($0)" } ?? "")
    guard URL(string: normalized) != nil else { throw .invalidHost(host) }
    self.scheme = scheme
    self.host = host
    self.port = port
    self.string = normalized
  }

  /// An origin read back from the database, which is still an untrusted file: text already in
  /// the normalized form ``init(parsing:)`` writes (`http://host` or `https://host:port`, a
  /// lower-case name or IPv4 host, a port without leading zeros that is not the scheme's
  /// default) is checked byte by byte and taken as is; anything else, IPv6 included, goes
  /// through ``init(parsing:)``. Either way the result (or the error) is the parser's.
  public init(stored text: String) throws(OriginError) {
    if let origin = Self.canonical(text) {
      self = origin
    } else {
      try self.init(parsing: text, strict: false)
    }
  }

  private init(scheme: String, host: String, port: Int?, string: String) {
    self.scheme = scheme
    self.host = host
    self.port = port
    self.string = string
  }

  /// `text` as an origin when it is exactly the parser's normalized form of a host name or
  /// IPv4 address; `nil` for anything else (not necessarily invalid). A host whose last
  /// label begins with a digit is taken only when it is dotted decimal already.
  static func canonical(_ text: String) -> InstanceOrigin? {
    let bytes = text.utf8
    let http = bytes.starts(with: "http://".utf8)
    guard http || bytes.starts(with: "https://".utf8) else { return nil }
    let schemeLength = http ? 4 : 5
    var hostStart = bytes.index(bytes.startIndex, offsetBy: schemeLength + 3)
    let hostBegin = hostStart
    var previous: UInt8 = UInt8(ascii: "/")
    var port: Int?
    var lastLabelStartsWithDigit = false
    while hostStart != bytes.endIndex {
      let byte = bytes[hostStart]
      if previous == UInt8(ascii: "/") || previous == UInt8(ascii: ".") {
        lastLabelStartsWithDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
      }
      if byte == UInt8(ascii: ":") {
        port = portNumber(bytes[bytes.index(after: hostStart)...])
        guard port != nil else { return nil }
        break
      }
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
      case UInt8(ascii: "."), UInt8(ascii: "-"):
        // Not first, and no `..` (the parser's rules; `.-`, `-.` and a last `.` or `-` pass).
        guard previous != UInt8(ascii: "/"), !(byte == UInt8(ascii: ".") && previous == byte)
        else { return nil }
      default: return nil
      }
      previous = byte
      hostStart = bytes.index(after: hostStart)
    }
    guard hostStart != hostBegin else { return nil }
    if let port, port == (http ? 80 : 443) { return nil }
    let host = String(text[hostBegin..<hostStart])
    if lastLabelStartsWithDigit || previous == UInt8(ascii: "."),
      HostAddress.ipv4(host) != .name && HostAddress.ipv4(host) != .address(host)
    {
      return nil
    }
    return InstanceOrigin(
      scheme: http ? "http" : "https", host: host, port: port, string: text)
  }

  /// The digits of a normalized port (1–65535, no leading zero), or `nil`.
  private static func portNumber(_ digits: Substring.UTF8View) -> Int? {
    guard let first = digits.first, first != UInt8(ascii: "0"), digits.count <= 5 else {
      return nil
    }
    var value = 0
    for digit in digits {
      guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(digit - UInt8(ascii: "0"))
    }
    return value <= 65535 ? value : nil
  }

  /// Whether traffic to it is unencrypted (`http`).
  public var isPlainHTTP: Bool { scheme == "http" }

  /// The port actually used, default ports included.
  public var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }

  /// The normalized text.
  public var description: String { string }

  /// Equal when the normalized texts are equal.
  public static func == (lhs: InstanceOrigin, rhs: InstanceOrigin) -> Bool {
    lhs.string == rhs.string
  }

  /// Hashes the normalized text.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(string)
  }

  /// Decodes from its string form (validated again).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      try self.init(parsing: text)
    } catch {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: error.localizedMessage(.english))
    }
  }

  /// Encodes as its string form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(string)
  }
}

/// Why a text is not a usable instance address; each message says how to fix it.
public enum OriginError: LocalizedStoreError, Equatable {
  /// Nothing was given.
  case empty
  /// Whitespace inside the address.
  case containsSpaces
  /// No `scheme://`.
  case missingScheme(String)
  /// A scheme other than http or https.
  case unsupportedScheme(String)
  /// `http://` with nothing after it, or only a port.
  case missingHost
  /// A host with characters a host name or IP cannot have.
  case invalidHost(String)
  /// A port that is empty, not a number, or outside 1–65535.
  case invalidPort(String)
  /// A path other than `/`.
  case hasPath(String)
  /// A `?query`.
  case hasQuery(String)
  /// A `#fragment`.
  case hasFragment(String)
  /// `user:password@` before the host (not echoed: it may be a password).
  case hasUserInfo
  /// A host name longer than 253 characters (not echoed: it may be anything, of any size).
  case hostTooLong(length: Int)
  /// A label (the part between dots) longer than 63 characters.
  case labelTooLong(label: String)
  /// A host that ends in a number but is no IPv4 address (`999.1.1.1`, `1.2.3.4.5`).
  case notAnAddress(String)

  /// The case name: `empty`, `missingScheme` …
  public var failureCode: String {
    switch self {
    case .empty: "empty"
    case .containsSpaces: "containsSpaces"
    case .missingHost: "missingHost"
    case .hasUserInfo: "hasUserInfo"
    default: FailureCode.caseName(of: self) ?? "invalidOrigin"
    }
  }

  /// The message in `language`.
  public func localizedMessage(_ language: AppLanguage) -> String {
    switch self {
    case .empty: LocalStoreStrings.text("origin.error.empty", language)
    case .containsSpaces: LocalStoreStrings.text("origin.error.spaces", language)
    case .missingScheme(let input):
      LocalStoreStrings.text("origin.error.missingScheme", language, ["input": input])
    case .unsupportedScheme(let scheme):
      LocalStoreStrings.text("origin.error.unsupportedScheme", language, ["scheme": scheme])
    case .missingHost: LocalStoreStrings.text("origin.error.missingHost", language)
    case .invalidHost(let host):
      LocalStoreStrings.text("origin.error.invalidHost", language, ["host": host])
    case .invalidPort(let port):
      LocalStoreStrings.text("origin.error.invalidPort", language, ["port": port])
    case .hasPath(let path):
      LocalStoreStrings.text("origin.error.hasPath", language, ["path": path])
    case .hasQuery(let query):
      LocalStoreStrings.text("origin.error.hasQuery", language, ["query": query])
    case .hasFragment(let fragment):
      LocalStoreStrings.text("origin.error.hasFragment", language, ["fragment": fragment])
    case .hasUserInfo: LocalStoreStrings.text("origin.error.hasUserInfo", language)
    case .hostTooLong(let length):
      LocalStoreStrings.text(
        "origin.error.hostTooLong", language,
        ["length": String(length), "maximum": String(InstanceOrigin.maximumHostLength)])
    case .labelTooLong(let label):
      LocalStoreStrings.text(
        "origin.error.labelTooLong", language,
        [
          "label": label.count > 20 ? label.prefix(20) + "…" : label,
          "length": String(label.count), "maximum": String(InstanceOrigin.maximumLabelLength),
        ])
    case .notAnAddress(let host):
      LocalStoreStrings.text("origin.error.notAnAddress", language, ["host": host])
    }
  }
}
