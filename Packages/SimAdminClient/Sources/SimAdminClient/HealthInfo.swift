import Foundation

/// `GET /api/health`, which SimAdmin sends without the envelope.
public struct HealthInfo: Codable, Sendable, Hashable {
  /// `ok` when the service runs.
  public var status: String
  /// The device's message, e.g. `Service is running`.
  public var message: String
  /// e.g. `linux-modem`.
  public var platform: String
  /// The SimAdmin version, e.g. `1.1.10`.
  public var version: String

  enum CodingKeys: String, CodingKey, CaseIterable {
    case status, message, platform, version
  }

  /// Decodes tolerantly (missing or null fields become `""`).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    status = c.lenientString(.status)
    message = c.lenientString(.message)
    platform = c.lenientString(.platform)
    version = c.lenientString(.version)
  }
}
