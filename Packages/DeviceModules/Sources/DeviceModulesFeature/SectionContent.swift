import SimAdminClient

/// What a fetched section holds.
public enum SectionContent: Sendable, Hashable, Encodable {
  /// The device section.
  case device(DeviceInfo)
  /// The SIM section.
  case sim(SimInfo)
  /// The cellular section.
  case cellular(CellularSnapshot)
  /// The system resources section.
  case resources(SystemStats)
  /// The CPU section.
  case cpu(CPUInfo)
  /// The connection section.
  case connection(ConnectionSnapshot)
  /// The SMS section.
  case sms(SmsSnapshot)

  /// Encodes the held value itself (no tag: the section is named beside it).
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .device(let value): try value.encode(to: encoder)
    case .sim(let value): try value.encode(to: encoder)
    case .cellular(let value): try value.encode(to: encoder)
    case .resources(let value): try value.encode(to: encoder)
    case .cpu(let value): try value.encode(to: encoder)
    case .connection(let value): try value.encode(to: encoder)
    case .sms(let value): try value.encode(to: encoder)
    }
  }
}
