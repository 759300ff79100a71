import Essentials
import Foundation
import SimAdminClient

/// The SMS section: the device's newest messages, straight from `/api/sms/list`.
public struct SmsSnapshot: Sendable, Hashable, Encodable {
  /// Newest first.
  public var messages: [SmsMessage]
  /// Whether bodies are shown (and encoded) in full; otherwise ``Redactor/maskBody(_:preview:)``.
  public var showBodies: Bool

  /// A snapshot of `messages`.
  public init(messages: [SmsMessage], showBodies: Bool = false) {
    self.messages = messages
    self.showBodies = showBodies
  }

  /// The body as lists show it: in full only when asked.
  public func body(of message: SmsMessage) -> String {
    showBodies ? message.content : Redactor.maskBody(message.content)
  }

  enum CodingKeys: String, CodingKey {
    case messages, bodiesMasked
  }

  struct EncodedMessage: Encodable {
    var id: Int64
    var direction: String
    var phoneNumber: String
    var content: String
    var timestamp: String
    var date: Date?
    var status: String
  }

  /// `{messages: [{id, direction, phoneNumber, content, timestamp, date, status}], bodiesMasked}`;
  /// `timestamp` is the device's Beijing-time text, `date` the true instant.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(
      messages.map {
        EncodedMessage(
          id: $0.id, direction: $0.direction, phoneNumber: $0.phoneNumber, content: body(of: $0),
          timestamp: $0.timestamp, date: $0.date, status: $0.status)
      }, forKey: .messages)
    try container.encode(!showBodies, forKey: .bodiesMasked)
  }
}
