import Foundation

/// Incremental HTTP/1.1 request parsing over a connection's input bytes.
enum HTTPRequestParser {
  /// Largest accepted head (request line + headers).
  static let maxHeadBytes = 64 * 1024
  /// Axum's default body limit.
  static let maxBodyBytes = 2 * 1024 * 1024

  enum Outcome {
    /// More bytes are needed.
    case incomplete
    /// A whole request, the number of input bytes it used, and whether to keep the connection.
    case request(ServerRequest, consumed: Int, keepAlive: Bool)
    /// The bytes cannot be a request: answer `status` and close.
    case invalid(status: Int, message: String)
  }

  static func parse(_ input: [UInt8]) -> Outcome {
    guard let headEnd = find([13, 10, 13, 10], in: input, from: 0) else {
      return input.count > maxHeadBytes
        ? .invalid(status: 400, message: "Request head too large") : .incomplete
    }
    let head: Head
    switch input[0..<headEnd].allSatisfy({ $0 < 0x80 })
      ? asciiHead(input[0..<headEnd])
      : textHead(input[0..<headEnd])
    {
    case .success(let read): head = read
    case .failure(let invalid): return .invalid(status: 400, message: invalid.message)
    }
    let headers = head.headers
    let bodyStart = headEnd + 4
    let body: [UInt8]
    let consumed: Int
    if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
      switch dechunk(input, from: bodyStart) {
      case .incomplete: return .incomplete
      case .invalid(let status, let message): return .invalid(status: status, message: message)
      case .done(let decoded, let end):
        body = decoded
        consumed = end
      }
    } else if let lengthText = headers["content-length"] {
      guard let length = Int(lengthText), length >= 0 else {
        return .invalid(status: 400, message: "Invalid content-length")
      }
      guard length <= maxBodyBytes else {
        return .invalid(
          status: 413, message: "Failed to buffer the request body: length limit exceeded")
      }
      guard input.count - bodyStart >= length else { return .incomplete }
      body = Array(input[bodyStart..<(bodyStart + length)])
      consumed = bodyStart + length
    } else {
      body = []
      consumed = bodyStart
    }
    let version = head.version
    let connection = headers["connection"]?.lowercased() ?? ""
    let keepAlive =
      version == "HTTP/1.0" ? connection.contains("keep-alive") : !connection.contains("close")
    let request = ServerRequest(
      method: head.method, target: head.target, headers: headers,
      body: Data(body))
    return .request(request, consumed: consumed, keepAlive: keepAlive)
  }

  /// A request's head: its request line and its header fields (lower-cased names, repeated
  /// fields joined).
  struct Head: Equatable {
    var method: String
    var target: String
    var version: String
    var headers: [String: String]
  }

  /// Why a head is not a request's (answered 400).
  struct InvalidHead: Error, Equatable {
    var message: String
  }

  /// Reads a head of text: any UTF-8 (a head that is not UTF-8 is invalid).
  static func textHead(_ bytes: ArraySlice<UInt8>) -> Result<Head, InvalidHead> {
    guard let head = String(bytes: bytes, encoding: .utf8) else {
      return .failure(InvalidHead(message: "Invalid request head"))
    }
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
    guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
      return .failure(InvalidHead(message: "Invalid request line"))
    }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else {
        return .failure(InvalidHead(message: "Invalid header line"))
      }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      add(name, value, to: &headers)
    }
    return .success(
      Head(
        method: String(requestLine[0]), target: String(requestLine[1]),
        version: String(requestLine[2]), headers: headers))
  }

  /// Reads an all-ASCII head byte by byte, with exactly ``textHead(_:)``'s result for it
  /// (lines end at CR LF, the request line splits at spaces, names and values are trimmed of
  /// spaces and tabs) without Foundation's string searching and trimming: every request of a
  /// simulated fleet comes through here (a third of the simulator's time in a fleet refresh
  /// went to the text path).
  static func asciiHead(_ bytes: ArraySlice<UInt8>) -> Result<Head, InvalidHead> {
    var lines: [ArraySlice<UInt8>] = []
    var start = bytes.startIndex
    var index = start
    while index < bytes.endIndex {
      if bytes[index] == 13, index + 1 < bytes.endIndex, bytes[index + 1] == 10 {
        lines.append(bytes[start..<index])
        index += 2
        start = index
      } else {
        index += 1
      }
    }
    lines.append(bytes[start..<bytes.endIndex])
    let requestLine = lines[0].split(separator: 32, omittingEmptySubsequences: true)
    guard requestLine.count == 3, requestLine[2].starts(with: "HTTP/1.".utf8) else {
      return .failure(InvalidHead(message: "Invalid request line"))
    }
    func text(_ part: ArraySlice<UInt8>) -> String { String(decoding: part, as: UTF8.self) }
    func trimmed(_ part: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
      let blank: (UInt8) -> Bool = { $0 == 32 || $0 == 9 }
      guard let first = part.firstIndex(where: { !blank($0) }),
        let last = part.lastIndex(where: { !blank($0) })
      else { return part[part.startIndex..<part.startIndex] }
      return part[first...last]
    }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: 58) else {
        return .failure(InvalidHead(message: "Invalid header line"))
      }
      let name = trimmed(line[..<colon]).map { (65...90).contains($0) ? $0 + 32 : $0 }
      add(
        String(decoding: name, as: UTF8.self), text(trimmed(line[(colon + 1)...])),
        to: &headers)
    }
    return .success(
      Head(
        method: text(requestLine[0]), target: text(requestLine[1]), version: text(requestLine[2]),
        headers: headers))
  }

  /// Adds a header field; a repeated one joins the earlier value (cookies with `; `).
  static func add(_ name: String, _ value: String, to headers: inout [String: String]) {
    if let existing = headers[name] {
      headers[name] = name == "cookie" ? existing + "; " + value : existing + ", " + value
    } else {
      headers[name] = value
    }
  }

  enum ChunkOutcome {
    case incomplete
    case invalid(status: Int, message: String)
    case done([UInt8], end: Int)
  }

  static func dechunk(_ input: [UInt8], from start: Int) -> ChunkOutcome {
    var body: [UInt8] = []
    var position = start
    while true {
      guard let lineEnd = find([13, 10], in: input, from: position) else { return .incomplete }
      let sizeLine = String(decoding: input[position..<lineEnd], as: UTF8.self)
      let sizeText = sizeLine.split(separator: ";").first.map(String.init) ?? ""
      guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0
      else {
        return .invalid(status: 400, message: "Invalid chunk size")
      }
      position = lineEnd + 2
      if size == 0 {
        // Trailers end with an empty line.
        while true {
          guard let end = find([13, 10], in: input, from: position) else { return .incomplete }
          let empty = end == position
          position = end + 2
          if empty { return .done(body, end: position) }
        }
      }
      guard body.count + size <= maxBodyBytes else {
        return .invalid(
          status: 413, message: "Failed to buffer the request body: length limit exceeded")
      }
      guard input.count >= position + size + 2 else { return .incomplete }
      body.append(contentsOf: input[position..<(position + size)])
      position += size + 2
    }
  }

  static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
    var index = start
    let last = haystack.count - needle.count
    while index <= last {
      if haystack[index] == needle[0] {
        var matched = true
        for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
          matched = false
          break
        }
        if matched { return index }
      }
      index += 1
    }
    return nil
  }
}
