import Foundation

/// A payload that reads itself straight from a ``JSONCursor``, with exactly the result its
/// `Decodable` conformance gives for the same JSON but without `JSONDecoder` (an order of
/// magnitude faster for long SMS lists).
protocol JSONCursorDecodable: Decodable, Sendable {
  /// Reads the value at the cursor. Throws where the `Decodable` conformance would, or where a
  /// value is one only `JSONDecoder`'s own rules settle; callers then use `JSONDecoder`.
  static func read(from cursor: inout JSONCursor) throws -> Self
}

extension JSONCursorDecodable {
  /// ``Envelope/init(reading:)`` for this payload type, type-erased for callers that hold the
  /// type as `any JSONCursorDecodable.Type`.
  static func envelope(reading body: Data) -> Any? {
    Envelope<Self>(reading: body)
  }

  /// The whole of `body` read as this payload (an answer sent without the envelope, as
  /// `/api/health`), exactly as `JSONDecoder().decode(Self.self, from: body)` gives it; `nil`
  /// when this fast path cannot vouch for the answer (as ``Envelope/init(reading:)``).
  static func bare(reading body: Data) -> Any? {
    body.withUnsafeBytes { bytes -> Self? in
      guard var cursor = JSONCursor(bytes, maxDepth: 64, rejectsLoneSurrogates: true) else {
        return nil
      }
      guard let value = try? read(from: &cursor), (try? cursor.finish()) != nil else {
        return nil
      }
      return value
    }
  }
}

extension Envelope where Payload: JSONCursorDecodable {
  /// Reads `body` with ``JSONCursor``, giving exactly what
  /// `JSONDecoder().decode(Envelope<Payload>.self, from: body)` gives.
  ///
  /// `nil` when this fast path cannot vouch for the answer: the body is not strict JSON (or
  /// has a lone surrogate escape), it is not an envelope the `Decodable` conformance accepts,
  /// or it holds a value only `JSONDecoder` settles. Decode with `JSONDecoder` then; its
  /// result or error stands.
  init?(reading body: Data) {
    let envelope = body.withUnsafeBytes { bytes in try? Self.read(bytes) }
    guard let envelope else { return nil }
    self = envelope
  }

  private init(status: String, message: String, data: Payload?) {
    self.status = status
    self.message = message
    self.data = data
  }

  /// The envelope in `bytes`; the first of repeated keys wins, as with `JSONDecoder`.
  private static func read(_ bytes: UnsafeRawBufferPointer) throws -> Envelope {
    guard var cursor = JSONCursor(bytes, maxDepth: 64, rejectsLoneSurrogates: true),
      try cursor.peek() == .object
    else { throw JSONUndecided() }
    var status: String?
    var message: String??
    var data: Payload??
    try cursor.enterObject()
    var first = true
    while let key = try cursor.nextMember(&first) {
      if status == nil, cursor.key(key, is: "status") {
        guard try cursor.peek() == .string else { throw JSONUndecided() }
        status = try cursor.readString()
      } else if message == nil, cursor.key(key, is: "message") {
        message = .some(try cursor.lenientOptionalString())
      } else if data == nil, cursor.key(key, is: "data") {
        if try cursor.peek() == .null {
          try cursor.readNull()
          data = .some(nil)
        } else {
          data = .some(try Payload.read(from: &cursor))
        }
      } else {
        try cursor.skipValue()
      }
    }
    try cursor.finish()
    guard let status else { throw JSONUndecided() }
    return Envelope(status: status, message: (message ?? nil) ?? "", data: data ?? nil)
  }
}
