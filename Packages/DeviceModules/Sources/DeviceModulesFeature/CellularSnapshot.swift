import SimAdminClient

/// The cellular section: `/api/network`, plus `/api/cells` when it could be read.
public struct CellularSnapshot: Sendable, Hashable, Encodable {
  /// Registration, technology and signal.
  public var network: NetworkInfo
  /// Serving and neighbour cells; `nil` when `/api/cells` failed.
  public var cells: CellsInfo?
  /// Why `cells` is missing, if it is.
  public var cellsStatus: SectionStatus

  /// A snapshot from its parts.
  public init(network: NetworkInfo, cells: CellsInfo?, cellsStatus: SectionStatus = .loaded) {
    self.network = network
    self.cells = cells
    self.cellsStatus = cells == nil && cellsStatus == .loaded ? .empty : cellsStatus
  }

  /// The serving cell's RSRP in dBm, when the cell list has one.
  public var servingRSRP: Double? {
    cells?.cells.first(where: \.isServing)?.rsrp
  }

  enum CodingKeys: String, CodingKey {
    case network, cells, cellsStatus
  }

  /// Encodes the parts; `cellsStatus` as its machine code.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(network, forKey: .network)
    try container.encodeIfPresent(cells, forKey: .cells)
    try container.encode(cellsStatus.code, forKey: .cellsStatus)
  }
}
