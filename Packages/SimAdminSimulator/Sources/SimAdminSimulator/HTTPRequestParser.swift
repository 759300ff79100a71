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
    case request(RecordedRequest, consumed: Int, keepAlive: Bool)
    /// The bytes cannot be a request: answer `status` and close.
    case invalid(status: Int, message: String)
  }

  static func parse(_ input: [UInt8]) -> Outcome {
    guard let headEnd = find([13, 10, 13, 10], in: input, from: 0) else {
      return input.count > maxHeadBytes
        ? .invalid(status: 400, message: "Request head too large") : .incomplete
    }
    guard let head = String(bytes: input[0..<headEnd], encoding: .utf8) else {
      return .invalid(status: 400, message: "Invalid request head")
    }
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
    guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
      return .invalid(status: 400, message: "Invalid request line")
    }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else {
        return .invalid(status: 400, message: "Invalid header line")
      }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if let existing = headers[name] {
        headers[name] = name == "cookie" ? existing + "; " + value : existing + ", " + value
      } else {
        headers[name] = value
      }
    }
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
    let version = requestLine[2]
    let connection = headers["connection"]?.lowercased() ?? ""
    let keepAlive =
      version == "HTTP/1.0" ? connection.contains("keep-alive") : !connection.contains("close")
    let request = RecordedRequest(
      method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
      body: Data(body))
    return .request(request, consumed: consumed, keepAlive: keepAlive)
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
