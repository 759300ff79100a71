import Foundation

/// `GET /api/network`: registration and signal.
public struct NetworkInfo: Codable, Sendable, Hashable {
  /// Operator name.
  public var operatorName: String
  /// `idle`, `registered`, `searching`, `denied`, `roaming`, `attached` or `unknown`.
  public var registrationStatus: String
  /// e.g. `5G/4G`.
  public var technologyPreference: String
  /// Signal quality in percent (0–100); `nil` when missing or not an integer (a `1e308`
  /// reads as unknown, not as 0%).
  public var signalStrength: Int64?
  /// Mobile country code, when sent.
  public var mcc: String?
  /// Mobile network code, when sent.
  public var mnc: String?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case mcc, mnc
    case operatorName = "operator_name"
    case registrationStatus = "registration_status"
    case technologyPreference = "technology_preference"
    case signalStrength = "signal_strength"
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    operatorName = c.lenientString(.operatorName)
    registrationStatus = c.lenientString(.registrationStatus, "unknown")
    technologyPreference = c.lenientString(.technologyPreference)
    signalStrength = c.lenientInt(.signalStrength)
    mcc = c.lenientOptionalString(.mcc)
    mnc = c.lenientOptionalString(.mnc)
  }

  /// Whether the modem is registered (home or roaming).
  public var isRegistered: Bool {
    ["registered", "roaming", "attached"].contains(registrationStatus.lowercased())
  }
}
