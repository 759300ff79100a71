import Foundation

/// `GET /api/airplane-mode`.
public struct AirplaneMode: Codable, Sendable, Hashable {
  /// Airplane mode is on.
  public var enabled: Bool
  /// The modem is powered.
  public var powered: Bool
  /// The modem is online.
  public var online: Bool

  enum CodingKeys: String, CodingKey {
    case enabled, powered, online
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    enabled = c.lenientBool(.enabled)
    powered = c.lenientBool(.powered)
    online = c.lenientBool(.online)
  }
}
