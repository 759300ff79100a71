import Foundation

/// `GET /api/sms/stats`: counts of stored messages.
public struct SmsStats: Codable, Sendable, Hashable {
  /// All messages.
  public var total: Int64
  /// Incoming with status `received`.
  public var incoming: Int64
  /// Outgoing.
  public var outgoing: Int64
  /// Pushed to notification channels.
  public var pushed: Int64
  /// Push attempted.
  public var pushAttempted: Int64

  enum CodingKeys: String, CodingKey {
    case total, incoming, outgoing, pushed
    case pushAttempted = "push_attempted"
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    total = c.lenientInt(.total) ?? 0
    incoming = c.lenientInt(.incoming) ?? 0
    outgoing = c.lenientInt(.outgoing) ?? 0
    pushed = c.lenientInt(.pushed) ?? 0
    pushAttempted = c.lenientInt(.pushAttempted) ?? 0
  }
}
