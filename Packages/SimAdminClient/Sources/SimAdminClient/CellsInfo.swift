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

  /// One cell. Identifiers are text; radio metrics are dB (dBm for RSRP), converted from
  /// SimAdmin's centi-dB text (`"-8930"` → −89.3) and `nil` when unknown (`""`).
  public struct Cell: Codable, Sendable, Hashable {
    /// Whether this is the serving cell.
    public var isServing: Bool
    /// Radio technology.
    public var tech: String
    /// Cell identity (text).
    public var cellID: String
    /// Band as sent (`B3`, `LTE B3`, `NR n78` or `""`); ``bandInfo`` reads both forms.
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
    /// Received signal strength indicator, dBm (SimAdmin v1.1.10 does not send it).
    public var rssi: Double?

    enum CodingKeys: String, CodingKey {
      case tech, band, arfcn, pci, rsrp, rsrq, sinr, rssi
      case isServing = "is_serving"
      case cellID = "cell_id"
    }

    /// Decodes tolerantly. Metrics are centi-dB on every path (`"-8930"` and `-8930` give
    /// −89.3); a text with a unit (`"-95 dBm"`) is already dB; `""` is unknown, and so is an
    /// RSRP of `"0"` (SimAdmin's value for a present but unparsable reading).
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      isServing = c.lenientBool(.isServing)
      tech = c.lenientString(.tech)
      cellID = c.lenientString(.cellID)
      band = c.lenientString(.band)
      arfcn = c.lenientString(.arfcn)
      pci = c.lenientString(.pci)
      rsrp = Self.decibels(c, .rsrp).flatMap { $0 == 0 ? nil : $0 }
      rsrq = Self.decibels(c, .rsrq)
      sinr = Self.decibels(c, .sinr)
      rssi = Self.decibels(c, .rssi).flatMap { $0 == 0 ? nil : $0 }
    }

    /// The band read in either form.
    public var bandInfo: CellBand { CellBand(band) }

    /// A metric in dB from SimAdmin's centi-dB (text or number), or from text with a unit.
    static func decibels(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> Double? {
      if let text = try? c.decodeIfPresent(String.self, forKey: key) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let value = KeyedDecodingContainer<CodingKeys>.leadingNumber(in: trimmed) else {
          return nil
        }
        let hasUnit = trimmed.lowercased().hasSuffix("db") || trimmed.lowercased().hasSuffix("dbm")
        return hasUnit ? value : value / 100
      }
      return c.lenientDouble(key).map { $0 / 100 }
    }
  }
}
