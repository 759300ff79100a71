import Foundation

/// Reads one HTTP/1.x response from bytes as they arrive: the status line, the headers, then
/// a body framed by `Content-Length`, by `Transfer-Encoding: chunked`, or by the end of the
/// connection. No I/O: the connection feeds it whatever it reads.
///
/// The size cap is enforced while bytes arrive: an announced length (or chunk) that does not
/// fit fails at once, and no body byte past the cap is ever kept.
struct ResponseParser {
  /// Why a response cannot be read.
  enum Failure: Error, Equatable {
    /// Not HTTP/1.x as the RFC has it; the detail names what was wrong.
    case malformed(String)
    /// The body is larger than the cap.
    case tooLarge
  }

  private enum Phase: Equatable {
    case statusLine
    case headers
    case fixed(remaining: Int)
    case chunkSize
    case chunkData(remaining: Int)
    case chunkEnd
    case trailers
    case untilClose
    case done
  }

  /// The largest head (status line plus headers, or one chunk line) accepted.
  static let maxHeadBytes = 64 * 1024

  /// The largest body accepted, bytes.
  let limit: Int
  /// The status code, once the status line is read.
  private(set) var status = 0
  /// Header values by lower-cased name; repeated fields are joined with `, `.
  private(set) var headers: [String: String] = [:]
  /// The body so far (de-chunked).
  private(set) var body = Data()
  /// Whether the connection may carry another request after this response.
  private(set) var keepAlive = true
  /// Whether any byte of the response has arrived.
  private(set) var hasStarted = false
  /// Whether bytes arrived after the end of the response (the connection is then unusable).
  private(set) var hasExcess = false

  private var phase = Phase.statusLine
  private var isHTTP10 = false
  private var line: [UInt8] = []
  private var headBytes = 0
  private var lastHeaderName: String?

  /// A parser for one response whose body may hold at most `limit` bytes.
  init(limit: Int) {
    self.limit = limit
  }

  /// Whether the whole response has been read.
  var isComplete: Bool { phase == .done }

  /// Takes the next bytes; returns whether the response is now complete.
  mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> Bool {
    if !bytes.isEmpty { hasStarted = true }
    var rest = bytes[...]
    while true {
      switch phase {
      case .done:
        if !rest.isEmpty { hasExcess = true }
        return true
      case .untilClose:
        try appendBody(rest)
        return false
      case .fixed(let remaining):
        let count = min(remaining, rest.count)
        try appendBody(rest.prefix(count))
        rest = rest.dropFirst(count)
        phase = remaining == count ? .done : .fixed(remaining: remaining - count)
        if phase != .done { return false }
      case .chunkData(let remaining):
        let count = min(remaining, rest.count)
        try appendBody(rest.prefix(count))
        rest = rest.dropFirst(count)
        phase = remaining == count ? .chunkEnd : .chunkData(remaining: remaining - count)
        if rest.isEmpty { return false }
      case .statusLine, .headers, .chunkSize, .chunkEnd, .trailers:
        guard let text = try takeLine(from: &rest) else { return false }
        try handleLine(text)
      }
    }
  }

  /// The connection ended; returns whether that completes the response (a body read until
  /// the end of the connection). `false` means the response was cut short.
  mutating func finishAtEndOfStream() -> Bool {
    if phase == .untilClose { phase = .done }
    keepAlive = false
    return phase == .done
  }

  // MARK: - Lines

  /// The next line (without its CR LF), or `nil` when it has not fully arrived.
  private mutating func takeLine(from rest: inout Slice<UnsafeRawBufferPointer>) throws(Failure)
    -> [UInt8]?
  {
    guard let newline = rest.firstIndex(of: 10) else {
      line.append(contentsOf: rest)
      rest = rest[rest.endIndex...]
      if line.count > Self.maxHeadBytes { throw .malformed("header line too long") }
      return nil
    }
    line.append(contentsOf: rest[rest.startIndex..<newline])
    rest = rest[(newline + 1)...]
    headBytes += line.count + 1
    if headBytes > Self.maxHeadBytes { throw .malformed("response head too long") }
    var text = line
    line.removeAll(keepingCapacity: true)
    if text.last == 13 { text.removeLast() }
    return text
  }

  private mutating func handleLine(_ text: [UInt8]) throws(Failure) {
    switch phase {
    case .statusLine: try readStatusLine(text)
    case .headers:
      if text.isEmpty {
        try endOfHead()
      } else {
        try readHeader(text)
      }
    case .chunkSize: try readChunkSize(text)
    case .chunkEnd:
      guard text.isEmpty else { throw .malformed("chunk not followed by CRLF") }
      phase = .chunkSize
    case .trailers:
      if text.isEmpty { phase = .done }
    default: break
    }
  }

  // MARK: - Head

  private mutating func readStatusLine(_ text: [UInt8]) throws(Failure) {
    let parts = text.split(separator: 32, maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count >= 2, parts[0].starts(with: Array("HTTP/1.".utf8)), parts[0].count == 8,
      parts[1].count == 3, parts[1].allSatisfy({ (48...57).contains($0) }),
      let code = Int(String(decoding: parts[1], as: UTF8.self))
    else {
      throw .malformed("not an HTTP/1.x status line")
    }
    isHTTP10 = parts[0].last == UInt8(ascii: "0")
    status = code
    phase = .headers
  }

  private mutating func readHeader(_ text: [UInt8]) throws(Failure) {
    if text.first == 32 || text.first == 9, let name = lastHeaderName {
      // Obsolete line folding: the value continues.
      headers[name, default: ""] += " " + Self.trimmed(text[...])
      return
    }
    guard let colon = text.firstIndex(of: UInt8(ascii: ":")), colon > 0 else {
      throw .malformed("header line without a name")
    }
    guard !text[..<colon].contains(where: { $0 == 32 || $0 == 9 }) else {
      throw .malformed("space in a header name")
    }
    let name = String(decoding: text[..<colon], as: UTF8.self).lowercased()
    let value = Self.trimmed(text[(colon + 1)...])
    if let existing = headers[name] {
      headers[name] = existing + ", " + value
    } else {
      headers[name] = value
    }
    lastHeaderName = name
  }

  private mutating func endOfHead() throws(Failure) {
    if (100..<200).contains(status) {
      guard status != 101 else { throw .malformed("unexpected protocol switch") }
      // An interim answer (100 Continue, 103 Early Hints): the real one follows.
      headers = [:]
      lastHeaderName = nil
      phase = .statusLine
      return
    }
    let connection = headers["connection"] ?? ""
    keepAlive =
      isHTTP10 ? ASCII.contains(connection, "keep-alive") : !ASCII.contains(connection, "close")
    if status == 204 || status == 304 {
      phase = .done
    } else if let coding = headers["transfer-encoding"] {
      let last = coding.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        .last.map { ASCII.trimmed($0) }
      if let last, ASCII.equals(last, "chunked") {
        phase = .chunkSize
      } else {
        keepAlive = false
        phase = .untilClose
      }
    } else if let lengthText = headers["content-length"] {
      // Repeated fields arrive joined with ", "; they must all say the same.
      let values = lengthText.utf8.split(
        separator: UInt8(ascii: ","), omittingEmptySubsequences: false
      ).map { ASCII.decimal(ASCII.trimmed($0)) }
      guard let first = values.first, let length = first, values.allSatisfy({ $0 == length })
      else {
        throw .malformed("invalid Content-Length")
      }
      guard length <= limit else { throw .tooLarge }
      body.reserveCapacity(length)
      phase = length == 0 ? .done : .fixed(remaining: length)
    } else {
      keepAlive = false
      phase = .untilClose
    }
  }

  // MARK: - Body

  private mutating func readChunkSize(_ text: [UInt8]) throws(Failure) {
    let digits = text.prefix { $0 != UInt8(ascii: ";") && $0 != 32 && $0 != 9 }
    guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(Self.isHexDigit),
      let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
    else {
      throw .malformed("invalid chunk size")
    }
    if size == 0 {
      phase = .trailers
      return
    }
    guard size <= limit - body.count else { throw .tooLarge }
    phase = .chunkData(remaining: size)
  }

  private mutating func appendBody(_ bytes: Slice<UnsafeRawBufferPointer>) throws(Failure) {
    guard !bytes.isEmpty else { return }
    guard bytes.count <= limit - body.count else { throw .tooLarge }
    body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes))
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
  }

  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
    let start = bytes.firstIndex { $0 != 32 && $0 != 9 } ?? bytes.endIndex
    let end = bytes.lastIndex { $0 != 32 && $0 != 9 }.map { $0 + 1 } ?? start
    return start < end ? String(decoding: bytes[start..<end], as: UTF8.self) : ""
  }
}
