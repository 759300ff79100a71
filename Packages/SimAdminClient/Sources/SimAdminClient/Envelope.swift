import Foundation

/// SimAdmin's response wrapper: `{"status":"ok"|"error","message":…,"data":…}`.
public struct Envelope<Payload: Decodable & Sendable>: Decodable, Sendable {
  /// `ok` or `error`.
  public var status: String
  /// The device's message (often Chinese); never translated.
  public var message: String
  /// The payload; absent on errors and on calls that return none.
  public var data: Payload?

  enum CodingKeys: String, CodingKey {
    case status, message, data
  }

  /// Decodes tolerantly: a missing message is `""`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    status = try container.decode(String.self, forKey: .status)
    message = container.lenientString(.message)
    data = try container.decodeIfPresent(Payload.self, forKey: .data)
  }

  /// Whether `status` is `ok`.
  public var isOK: Bool { status.lowercased() == "ok" }
}

/// The payload of calls whose `data` is `null`, `{}` or anything the client ignores.
public struct EmptyPayload: Codable, Sendable, Hashable {
  /// The only value.
  public init() {}

  /// Accepts any JSON value.
  public init(from decoder: any Decoder) throws {}

  /// Encodes as `{}`.
  public func encode(to encoder: any Encoder) throws {
    _ = encoder.container(keyedBy: EmptyKey.self)
  }

  private struct EmptyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
