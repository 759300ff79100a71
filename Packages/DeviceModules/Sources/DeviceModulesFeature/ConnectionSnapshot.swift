import SimAdminClient

/// The connection section: reachability, mobile data, roaming and airplane mode.
///
/// `/api/connectivity` decides the section's status; each other part that failed is `nil`
/// and its reason is kept in ``problems``.
public struct ConnectionSnapshot: Sendable, Hashable, Encodable {
  /// IPv4 / IPv6 probes.
  public var connectivity: ConnectivityInfo
  /// Mobile data on or off.
  public var data: DataState?
  /// Roaming permission and state.
  public var roaming: RoamingState?
  /// Airplane mode.
  public var airplaneMode: AirplaneMode?
  /// Why a part is missing, keyed `data`, `roaming`, `airplaneMode`.
  public var problems: [String: SectionStatus]

  /// A snapshot from its parts.
  public init(
    connectivity: ConnectivityInfo, data: DataState?, roaming: RoamingState?,
    airplaneMode: AirplaneMode?, problems: [String: SectionStatus] = [:]
  ) {
    self.connectivity = connectivity
    self.data = data
    self.roaming = roaming
    self.airplaneMode = airplaneMode
    self.problems = problems
  }

  enum CodingKeys: String, CodingKey {
    case connectivity, data, roaming, airplaneMode, problems
  }

  /// Encodes the parts; problems as machine codes.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(connectivity, forKey: .connectivity)
    try container.encodeIfPresent(data, forKey: .data)
    try container.encodeIfPresent(roaming, forKey: .roaming)
    try container.encodeIfPresent(airplaneMode, forKey: .airplaneMode)
    try container.encode(problems.mapValues(\.code), forKey: .problems)
  }
}
