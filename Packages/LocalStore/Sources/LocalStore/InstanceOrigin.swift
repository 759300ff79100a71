import Essentials
import Foundation

/// Where an instance's SimAdmin listens: scheme, host and port only, normalized.
///
/// `http`/`https` only; the host is lower-cased; default ports are dropped, so
/// `HTTP://Router.LAN:80/` and `http://router.lan` are the same origin. Paths (other than a
/// single trailing `/`), queries, fragments, user-info and spaces are refused with an
/// ``OriginError`` that says how to fix the address. IPv6 literals are written `[::1]`.
public struct InstanceOrigin: Sendable, Hashable, Codable, CustomStringConvertible {
  /// `http` or `https`.
  public let scheme: String
  /// The lower-cased host, without brackets for IPv6.
  public let host: String
  /// The port, `nil` when it is the scheme's default.
  public let port: Int?
  /// The normalized text, e.g. `http://192.168.1.1:3000`.
  public let string: String
  /// The origin as a URL (no path).
  public let url: URL

  /// Parses and normalizes `text` (surrounding whitespace is ignored).
  public init(parsing text: String) throws(OriginError) {
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
    } else {
      let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count <= 2 else { throw .invalidHost(String(authority)) }
      host = parts[0].lowercased()
      if parts.count == 2 { portText = parts[1] }
      guard !host.isEmpty else { throw .missingHost }
      guard
        host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }),
        !host.hasPrefix("."), !host.hasPrefix("-"), !host.contains("..")
      else { throw .invalidHost(host) }
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
    guard let url = URL(string: normalized) else { throw .invalidHost(host) }
    self.scheme = scheme
    self.host = host
    self.port = port
    self.string = normalized
    self.url = url
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
    }
  }
}
