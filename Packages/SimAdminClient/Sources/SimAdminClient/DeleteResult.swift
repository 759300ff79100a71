import Foundation

/// The answer of every SMS deletion: how many rows went.
public struct DeleteResult: Codable, Sendable, Hashable {
  /// Messages deleted.
  public var deleted: Int64

  enum CodingKeys: String, CodingKey {
    case deleted
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    deleted = c.lenientInt(.deleted) ?? 0
  }
}
