import Foundation

/// `POST /api/sms/send`: the ModemManager object of the sent message.
public struct SendResult: Codable, Sendable, Hashable {
  /// e.g. `/org/freedesktop/ModemManager1/SMS/12`.
  public var path: String

  enum CodingKeys: String, CodingKey {
    case path
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    path = c.lenientString(.path)
  }
}
