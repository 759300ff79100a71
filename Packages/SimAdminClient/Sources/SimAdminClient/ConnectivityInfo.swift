import Foundation

/// `GET /api/connectivity`: whether the device reaches the internet over IPv4 and IPv6.
public struct ConnectivityInfo: Codable, Sendable, Hashable {
  /// The IPv4 probe (target `223.5.5.5`).
  public var ipv4: Probe?
  /// The IPv6 probe (target `2400:3200::1`).
  public var ipv6: Probe?

  enum CodingKeys: String, CodingKey {
    case ipv4, ipv6
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    ipv4 = c.lenientNested(.ipv4)
    ipv6 = c.lenientNested(.ipv6)
  }

  /// One probe's result.
  public struct Probe: Codable, Sendable, Hashable {
    /// Whether the target answered.
    public var success: Bool
    /// Round trip, milliseconds, when it answered.
    public var latencyMs: Double?
    /// The address probed.
    public var target: String
    /// The device's error text, when it failed.
    public var error: String?

    enum CodingKeys: String, CodingKey {
      case success, target, error
      case latencyMs = "latency_ms"
    }

    /// Decodes tolerantly.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      success = c.lenientBool(.success)
      latencyMs = c.lenientDouble(.latencyMs)
      target = c.lenientString(.target)
      error = c.lenientOptionalString(.error)
    }
  }
}
