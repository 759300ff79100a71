import Foundation

/// `GET /api/cells`: the serving cell and its neighbours.
public struct CellsInfo: Codable, Sendable, Hashable {
  /// The serving cell, when known.
  public var servingCell: ServingCell?
  /// Every cell seen, serving one included.
  public var cells: [Cell]

  enum CodingKeys: String, CodingKey {
    case cells
    case servingCell = "serving_cell"
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    servingCell = c.lenientNested(.servingCell)
    cells = c.lenientArray(.cells)
  }

  /// The serving cell's identity.
  public struct ServingCell: Codable, Sendable, Hashable {
    /// Radio technology, e.g. `LTE` or `NR`.
    public var tech: String
    /// Cell identity (text; may be hex).
    public var cellID: String
    /// Tracking area code (text).
    public var tac: String

    enum CodingKeys: String, CodingKey {
      case tech, tac
      case cellID = "cell_id"
    }

    /// Decodes tolerantly; numbers become text.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      tech = c.lenientString(.tech)
      cellID = c.lenientString(.cellID)
      tac = c.lenientString(.tac)
    }
  }

  /// One cell. Identifiers are text; radio metrics (sent as strings or numbers) are numbers.
  public struct Cell: Codable, Sendable, Hashable {
    /// Whether this is the serving cell.
    public var isServing: Bool
    /// Radio technology.
    public var tech: String
    /// Cell identity (text).
    public var cellID: String
    /// Band (text, e.g. `B3` or `78`).
    public var band: String
    /// Channel number (text).
    public var arfcn: String
    /// Physical cell id (text).
    public var pci: String
    /// Reference signal received power, dBm.
    public var rsrp: Double?
    /// Reference signal received quality, dB.
    public var rsrq: Double?
    /// Signal to interference plus noise ratio, dB.
    public var sinr: Double?
    /// Received signal strength indicator, dBm.
    public var rssi: Double?

    enum CodingKeys: String, CodingKey {
      case tech, band, arfcn, pci, rsrp, rsrq, sinr, rssi
      case isServing = "is_serving"
      case cellID = "cell_id"
    }

    /// Decodes tolerantly: `"-95"`, `"-95 dBm"` and `-95` all give −95.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      isServing = c.lenientBool(.isServing)
      tech = c.lenientString(.tech)
      cellID = c.lenientString(.cellID)
      band = c.lenientString(.band)
      arfcn = c.lenientString(.arfcn)
      pci = c.lenientString(.pci)
      rsrp = c.lenientDouble(.rsrp)
      rsrq = c.lenientDouble(.rsrq)
      sinr = c.lenientDouble(.sinr)
      rssi = c.lenientDouble(.rssi)
    }
  }
}
