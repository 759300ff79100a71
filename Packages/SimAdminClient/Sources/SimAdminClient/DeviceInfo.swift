import Foundation

/// `GET /api/device`: the modem's identity and power state.
public struct DeviceInfo: Codable, Sendable, Hashable {
  /// The IMEI; `""` when unknown.
  public var imei: String
  /// Modem manufacturer.
  public var manufacturer: String
  /// Modem model.
  public var model: String
  /// Firmware revision, when sent.
  public var revision: String?
  /// Modem state is at least "enabled/registered" (≥ 6).
  public var online: Bool
  /// Modem is powered (state ≥ 3).
  public var powered: Bool

  enum CodingKeys: String, CodingKey, CaseIterable {
    case imei, manufacturer, model, revision, online, powered
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    imei = c.lenientString(.imei)
    manufacturer = c.lenientString(.manufacturer)
    model = c.lenientString(.model)
    revision = c.lenientOptionalString(.revision)
    online = c.lenientBool(.online)
    powered = c.lenientBool(.powered)
  }
}
