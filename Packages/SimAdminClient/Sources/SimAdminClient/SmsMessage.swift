import Essentials
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
  /// Whether the device sent invalid UTF-8 in this message's text (body, number or another
  /// field), which was replaced with U+FFFD: set by the client, never part of the device's JSON.
  public var repaired: Bool = false

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
  /// Where the page had entries it skipped as unreadable (not an object: `null`, a number …;
  /// or an object without an id that is an integer in Int64), as positions in the page as the
  /// device sent it (0 is its first entry). The page's length as sent is
  /// `messages.count + unreadable`.
  public var unreadablePositions: [Int] = []

  /// How many entries were skipped as unreadable.
  public var unreadable: Int { unreadablePositions.count }

  enum CodingKeys: String, CodingKey {
    case messages
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let entries =
      (try? c.decodeIfPresent([LenientElement<SmsMessage>].self, forKey: .messages)) ?? nil
    messages = entries?.compactMap(\.value) ?? []
    unreadablePositions = entries?.indices.filter { entries?[$0].value == nil } ?? []
  }

  /// Encodes the messages (the count of unreadable entries is the client's, not the device's).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(messages, forKey: .messages)
  }
}

// MARK: - Reading from a JSONCursor

extension SmsMessage {
  /// Appends the message at the cursor, as ``init(from:)`` reads it, to `list`; nothing where
  /// that throws (not an object, or no readable id). The value is consumed either way.
  /// Returns whether a message was appended.
  @discardableResult
  static func read(from cursor: inout JSONCursor, into list: inout [SmsMessage]) throws -> Bool {
    guard try cursor.peek() == .object else {
      try cursor.skipValue()
      return false
    }
    if try readAsWritten(from: &cursor, into: &list) { return true }
    guard let message = try read(from: &cursor) else { return false }
    list.append(message)
    return true
  }

  /// The message object at the cursor as ``init(from:)`` reads it, or `nil` where that throws
  /// (no readable id). The first of repeated keys wins, as with `JSONDecoder`.
  private static func read(from cursor: inout JSONCursor) throws -> SmsMessage? {
    var seen = Fields()
    var id: Int64?
    var direction: String?
    var phoneNumber: String?
    var content: String?
    var timestamp: String?
    var status: String?
    var pdu: String?
    try cursor.enterObject()
    var first = true
    while let key = try cursor.nextMember(&first) {
      switch Field(key, in: cursor) {
      case .id? where !seen.contains(.id):
        seen.insert(.id)
        id = try cursor.lenientInt()
      case .direction? where !seen.contains(.direction):
        seen.insert(.direction)
        direction = try cursor.lenientOptionalString()
      case .phoneNumber? where !seen.contains(.phoneNumber):
        seen.insert(.phoneNumber)
        phoneNumber = try cursor.lenientOptionalString()
      case .content? where !seen.contains(.content):
        seen.insert(.content)
        content = try cursor.lenientOptionalString()
      case .timestamp? where !seen.contains(.timestamp):
        seen.insert(.timestamp)
        timestamp = try cursor.lenientOptionalString()
      case .status? where !seen.contains(.status):
        seen.insert(.status)
        status = try cursor.lenientOptionalString()
      case .pdu? where !seen.contains(.pdu):
        seen.insert(.pdu)
        pdu = try cursor.lenientOptionalString()
      default:
        try cursor.skipValue()
      }
    }
    guard let id else { return nil }
    return SmsMessage(
      id: id, direction: direction ?? "", phoneNumber: phoneNumber ?? "", content: content ?? "",
      timestamp: timestamp ?? "", status: status ?? "", pdu: pdu)
  }

  /// Appends the message at the cursor when it is laid out exactly as SimAdmin writes it
  /// (serde: these keys in this order, no whitespace), read straight, without matching keys;
  /// `false`, with the cursor back where it was, for any other layout (or an unreadable id).
  private static func readAsWritten(from cursor: inout JSONCursor, into list: inout [SmsMessage])
    throws -> Bool
  {
    let start = cursor.position
    try cursor.enterObject()
    guard cursor.skip(#""id":"#), let id = try cursor.lenientInt(),
      cursor.skip(#","direction":"#)
    else {
      cursor.rewind(to: start)
      return false
    }
    let direction = try cursor.lenientOptionalString()
    guard cursor.skip(#","phone_number":"#) else {
      cursor.rewind(to: start)
      return false
    }
    let phoneNumber = try cursor.lenientOptionalString()
    guard cursor.skip(#","content":"#) else {
      cursor.rewind(to: start)
      return false
    }
    let content = try cursor.lenientOptionalString()
    guard cursor.skip(#","timestamp":"#) else {
      cursor.rewind(to: start)
      return false
    }
    let timestamp = try cursor.lenientOptionalString()
    guard cursor.skip(#","status":"#) else {
      cursor.rewind(to: start)
      return false
    }
    let status = try cursor.lenientOptionalString()
    guard cursor.skip(#","pdu":"#) else {
      cursor.rewind(to: start)
      return false
    }
    let pdu = try cursor.lenientOptionalString()
    guard cursor.leaveObject() else {
      cursor.rewind(to: start)
      return false
    }
    list.append(
      SmsMessage(
        id: id, direction: direction ?? "", phoneNumber: phoneNumber ?? "",
        content: content ?? "", timestamp: timestamp ?? "", status: status ?? "", pdu: pdu))
    return true
  }

  /// The fields met so far in one object.
  private struct Fields: OptionSet {
    let rawValue: UInt8
    static let id = Fields(rawValue: 1 << 0)
    static let direction = Fields(rawValue: 1 << 1)
    static let phoneNumber = Fields(rawValue: 1 << 2)
    static let content = Fields(rawValue: 1 << 3)
    static let timestamp = Fields(rawValue: 1 << 4)
    static let status = Fields(rawValue: 1 << 5)
    static let pdu = Fields(rawValue: 1 << 6)
  }

  /// The field a key names.
  enum Field: CaseIterable {
    case id, direction, phoneNumber, content, timestamp, status, pdu

    /// The key in JSON.
    var name: StaticString {
      switch self {
      case .id: "id"
      case .direction: "direction"
      case .phoneNumber: "phone_number"
      case .content: "content"
      case .timestamp: "timestamp"
      case .status: "status"
      case .pdu: "pdu"
      }
    }

    /// ``name`` as ``JSONCursor/packed(_:)`` packs it, written out so that matching a key is a
    /// switch over constants (a test checks them against `packed(_:)`).
    var packedName: JSONCursor.Packed {
      switch self {
      case .id: JSONCursor.Packed(low: 0x6469, high: 0, length: 2)
      case .direction: JSONCursor.Packed(low: 0x6f69_7463_6572_6964, high: 0x6e, length: 9)
      case .phoneNumber:
        JSONCursor.Packed(low: 0x756e_5f65_6e6f_6870, high: 0x7265_626d, length: 12)
      case .content: JSONCursor.Packed(low: 0x74_6e65_746e_6f63, high: 0, length: 7)
      case .timestamp: JSONCursor.Packed(low: 0x6d61_7473_656d_6974, high: 0x70, length: 9)
      case .status: JSONCursor.Packed(low: 0x7375_7461_7473, high: 0, length: 6)
      case .pdu: JSONCursor.Packed(low: 0x75_6470, high: 0, length: 3)
      }
    }

    init?(_ key: JSONCursor.Key, in cursor: borrowing JSONCursor) {
      guard let packed = key.packed else {
        guard let field = Self.allCases.first(where: { cursor.key(key, is: $0.name) }) else {
          return nil
        }
        self = field
        return
      }
      let field: Field
      switch packed.low {
      case 0x6469: field = .id
      case 0x6f69_7463_6572_6964: field = .direction
      case 0x756e_5f65_6e6f_6870: field = .phoneNumber
      case 0x74_6e65_746e_6f63: field = .content
      case 0x6d61_7473_656d_6974: field = .timestamp
      case 0x7375_7461_7473: field = .status
      case 0x75_6470: field = .pdu
      default: return nil
      }
      guard packed.high == field.packedName.high else { return nil }
      self = field
    }
  }

  init(
    id: Int64, direction: String, phoneNumber: String, content: String, timestamp: String,
    status: String, pdu: String?
  ) {
    self.id = id
    self.direction = direction
    self.phoneNumber = phoneNumber
    self.content = content
    self.timestamp = timestamp
    self.status = status
    self.pdu = pdu
  }
}

extension SmsMessageList: JSONCursorDecodable {
  /// Reads the list at the cursor as ``init(from:)`` does, unreadable entries skipped; a
  /// value that is not an object throws (as `JSONDecoder` would). A missing, null or
  /// non-array `messages` breaks the route's promise: this path steps aside so the checked
  /// path reports it (``SimAdminError/missingField(_:)``).
  static func read(from cursor: inout JSONCursor) throws -> SmsMessageList {
    guard try cursor.peek() == .object else { throw JSONUndecided() }
    var messages: [SmsMessage]?
    var unreadable: [Int] = []
    try cursor.enterObject()
    var first = true
    while let key = try cursor.nextMember(&first) {
      guard messages == nil, cursor.key(key, is: "messages") else {
        try cursor.skipValue()
        continue
      }
      guard try cursor.peek() == .array else { throw JSONUndecided() }
      var list: [SmsMessage] = []
      try cursor.enterArray()
      var firstElement = true
      var position = 0
      while try cursor.nextElement(&firstElement) {
        if try !SmsMessage.read(from: &cursor, into: &list) { unreadable.append(position) }
        position += 1
      }
      messages = list
    }
    guard let messages else { throw JSONUndecided() }
    return SmsMessageList(messages: messages, unreadablePositions: unreadable)
  }

  init(messages: [SmsMessage], unreadablePositions: [Int] = []) {
    self.messages = messages
    self.unreadablePositions = unreadablePositions
  }
}
