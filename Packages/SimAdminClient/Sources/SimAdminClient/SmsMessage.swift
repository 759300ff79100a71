import Foundation

/// One SMS as SimAdmin stores it.
public struct SmsMessage: Codable, Sendable, Hashable, Identifiable {
  /// The device's row id (restarts from 1 when the device's database is reset).
  public var id: Int64
  /// `incoming` or `outgoing`.
  public var direction: String
  /// The peer's number exactly as the device has it (`+86…`, short code, sender name…).
  public var phoneNumber: String
  /// The body; never logged in full.
  public var content: String
  /// The device's text `YYYY-MM-DD HH:MM:SS`, Beijing time (UTC+8) without offset.
  public var timestamp: String
  /// `received`, `sent`, `pending` or `failed`.
  public var status: String
  /// `mmfp:<md5>` dedup marker for incoming messages, `nil` for outgoing.
  public var pdu: String?

  enum CodingKeys: String, CodingKey {
    case id, direction, content, timestamp, status, pdu
    case phoneNumber = "phone_number"
  }

  /// Decodes tolerantly; the id is required.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    guard let id = c.lenientInt(.id) else {
      throw DecodingError.keyNotFound(
        CodingKeys.id, .init(codingPath: c.codingPath, debugDescription: "SMS without id"))
    }
    self.id = id
    direction = c.lenientString(.direction)
    phoneNumber = c.lenientString(.phoneNumber)
    content = c.lenientString(.content)
    timestamp = c.lenientString(.timestamp)
    status = c.lenientString(.status)
    pdu = c.lenientOptionalString(.pdu)
  }

  /// The true instant of ``timestamp`` (read as UTC+8), or `nil` when it is not parseable.
  public var date: Date? { BeijingTime.date(from: timestamp) }

  /// Whether the device received it.
  public var isIncoming: Bool { direction == SmsDirection.incoming.rawValue }
}

/// The `data` of `/api/sms/list` and `/api/sms/conversation`: messages, newest first.
public struct SmsMessageList: Codable, Sendable, Hashable {
  /// The page of messages; unreadable entries are skipped.
  public var messages: [SmsMessage]

  enum CodingKeys: String, CodingKey {
    case messages
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    messages = c.lenientArray(.messages)
  }
}
