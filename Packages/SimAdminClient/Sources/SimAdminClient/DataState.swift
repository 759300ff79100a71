import Foundation

/// `GET /api/data`: whether mobile data is on.
public struct DataState: Codable, Sendable, Hashable {
  /// Mobile data is connected.
  public var active: Bool

  enum CodingKeys: String, CodingKey, CaseIterable {
    case active
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    active = c.lenientBool(.active)
  }
}
