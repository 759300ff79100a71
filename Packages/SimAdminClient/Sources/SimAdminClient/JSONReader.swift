import Essentials
import Foundation

/// A small, strict JSON parser (RFC 8259) that reads UTF-8 bytes into a ``JSONValue``.
///
/// It accepts exactly the JSON grammar: no trailing commas, no leading zeros, no raw control
/// characters or invalid UTF-8 in strings, only space, tab, CR and LF as whitespace, nothing
/// after the value. Every escape is resolved, `\uXXXX` surrogate pairs included. Nesting deeper
/// than ``maxDepth`` is refused, so hostile input cannot exhaust the stack. Anything else
/// throws a ``JSONReaderError`` that names the byte offset.
///
/// The SMS lists skip the tree: they are read straight off the same engine (`JSONCursor`),
/// which is what makes them an order of magnitude faster than `JSONDecoder`.
public struct JSONReader: Sendable {
  /// What a `\uXXXX` escape that is half of a surrogate pair with no other half becomes.
  public enum LoneSurrogates: Sendable, Hashable {
    /// U+FFFD REPLACEMENT CHARACTER.
    case replace
    /// The document is refused (``JSONReaderError/Reason/loneSurrogate``).
    case reject
  }

  /// The most nesting honoured: each level costs a stack frame.
  public static let depthLimit = 512

  /// The deepest nesting of arrays and objects accepted (the top-level container is depth 1),
  /// at most ``depthLimit``.
  public let maxDepth: Int
  /// What a lone surrogate escape becomes.
  public let loneSurrogates: LoneSurrogates

  /// A reader; `maxDepth` is kept between 0 (scalars only) and ``depthLimit``.
  public init(maxDepth: Int = 64, loneSurrogates: LoneSurrogates = .replace) {
    self.maxDepth = min(max(maxDepth, 0), Self.depthLimit)
    self.loneSurrogates = loneSurrogates
  }

  /// Parses `data`, which must hold one JSON value (whitespace around it allowed).
  public func read(_ data: Data) throws(JSONReaderError) -> JSONValue {
    let result = data.withUnsafeBytes { bytes in
      Result { () throws(JSONReaderError) -> JSONValue in try read(bytes) }
    }
    return try result.get()
  }

  /// Parses `bytes`, which must hold one JSON value (whitespace around it allowed).
  public func read(_ bytes: UnsafeRawBufferPointer) throws(JSONReaderError) -> JSONValue {
    guard
      var cursor = JSONCursor(
        bytes, maxDepth: maxDepth, rejectsLoneSurrogates: loneSurrogates == .reject)
    else { throw JSONReaderError(reason: .unexpectedEnd, offset: 0) }
    let value = try cursor.readValue()
    try cursor.finish()
    return value
  }
}

/// Why ``JSONReader`` refused its input, and where.
public struct JSONReaderError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was wrong.
  public enum Reason: String, Sendable, Hashable {
    /// The input ended inside a value (or held none).
    case unexpectedEnd = "unexpected end of input"
    /// A byte that cannot start or continue the value here.
    case unexpectedByte = "unexpected byte"
    /// A number that breaks the JSON number grammar.
    case invalidNumber = "invalid number"
    /// A backslash escape JSON does not have, or a bad `\u` hex digit.
    case invalidEscape = "invalid escape"
    /// Half of a surrogate pair alone (with ``JSONReader/LoneSurrogates/reject``).
    case loneSurrogate = "lone surrogate escape"
    /// A raw byte below 0x20 inside a string.
    case controlCharacter = "raw control character in a string"
    /// Bytes inside a string that are not UTF-8.
    case invalidUTF8 = "invalid UTF-8"
    /// Arrays and objects nested deeper than ``JSONReader/maxDepth``.
    case tooDeep = "nested too deeply"
    /// Something other than whitespace after the value.
    case trailingData = "data after the JSON value"
  }

  /// What was wrong.
  public var reason: Reason
  /// The offset of the offending byte.
  public var offset: Int

  /// An error.
  public init(reason: Reason, offset: Int) {
    self.reason = reason
    self.offset = offset
  }

  /// `"<reason> at byte <offset>"`.
  public var description: String { "\(reason.rawValue) at byte \(offset)" }
}

extension JSONCursor {
  /// Reads the next value whole.
  mutating func readValue() throws(JSONReaderError) -> JSONValue {
    switch try peek() {
    case .string:
      return .string(try readString())
    case .number:
      return .number(try readNumber())
    case .bool:
      return .bool(try readBool())
    case .null:
      try readNull()
      return .null
    case .array:
      try enterArray()
      var elements: [JSONValue] = []
      var first = true
      while try nextElement(&first) { elements.append(try readValue()) }
      return .array(elements)
    case .object:
      try enterObject()
      var members: [JSONValue.Member] = []
      var first = true
      while let key = try nextMember(&first) {
        let name = keyString(key)
        members.append(JSONValue.Member(key: name, value: try readValue()))
      }
      return .object(members)
    }
  }
}
