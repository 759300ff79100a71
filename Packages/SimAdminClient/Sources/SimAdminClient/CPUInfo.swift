import Foundation

/// `GET /api/stats/cpu`: the processor, from `/proc/cpuinfo`.
public struct CPUInfo: Codable, Sendable, Hashable {
  /// Number of cores; `nil` when missing or not an integer.
  public var coreCount: Int64?
  /// One entry per core.
  public var cores: [Core]
  /// `Hardware` line.
  public var hardware: String
  /// `Serial` line.
  public var serial: String
  /// Model name.
  public var modelName: String

  enum CodingKeys: String, CodingKey {
    case cores, hardware, serial
    case coreCount = "core_count"
    case modelName = "model_name"
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    coreCount = c.lenientInt(.coreCount)
    cores = c.lenientArray(.cores)
    hardware = c.lenientString(.hardware)
    serial = c.lenientString(.serial)
    modelName = c.lenientString(.modelName)
  }

  /// One core.
  public struct Core: Codable, Sendable, Hashable {
    /// Processor index (text).
    public var processor: String
    /// BogoMIPS, when given.
    public var bogomips: Double?
    /// CPU feature flags.
    public var features: [String]
    /// Implementer code.
    public var implementer: String
    /// Architecture.
    public var architecture: String
    /// Variant.
    public var variant: String
    /// Part number.
    public var part: String
    /// Revision.
    public var revision: String

    enum CodingKeys: String, CodingKey {
      case processor, bogomips, features, implementer, architecture, variant, part, revision
    }

    /// Decodes tolerantly.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      processor = c.lenientString(.processor)
      bogomips = c.lenientDouble(.bogomips)
      features = c.lenientArray(.features)
      implementer = c.lenientString(.implementer)
      architecture = c.lenientString(.architecture)
      variant = c.lenientString(.variant)
      part = c.lenientString(.part)
      revision = c.lenientString(.revision)
    }
  }
}
