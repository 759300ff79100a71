import Foundation

/// `GET /api/roaming`: roaming permission and state.
public struct RoamingState: Codable, Sendable, Hashable {
  /// Roaming is allowed.
  public var roamingAllowed: Bool
  /// The device is roaming now.
  public var isRoaming: Bool

  enum CodingKeys: String, CodingKey {
    case roamingAllowed = "roaming_allowed"
    case isRoaming = "is_roaming"
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    roamingAllowed = c.lenientBool(.roamingAllowed)
    isRoaming = c.lenientBool(.isRoaming)
  }
}
