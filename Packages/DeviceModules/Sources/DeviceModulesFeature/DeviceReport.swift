import Foundation

/// The instance a report is about.
public struct DeviceTarget: Sendable, Hashable, Encodable {
  /// The instance id.
  public var id: String
  /// Its name.
  public var name: String
  /// Its origin, `http(s)://host[:port]`.
  public var origin: String

  /// A target.
  public init(id: String, name: String, origin: String) {
    self.id = id
    self.name = name
    self.origin = origin
  }
}

/// Some or all sections of one device: the state of every route and the `--json` payload.
public struct DeviceReport: Sendable, Hashable, Encodable {
  /// The instance.
  public var instance: DeviceTarget
  /// The sections fetched, in ``DeviceSection`` order.
  public var sections: [SectionState]

  /// A report.
  public init(instance: DeviceTarget, sections: [SectionState]) {
    self.instance = instance
    self.sections = sections
  }

  /// The state of `section`, if it was fetched.
  public func state(_ section: DeviceSection) -> SectionState? {
    sections.first { $0.section == section }
  }

  /// Whether any section could not be fetched.
  public var hasFailures: Bool {
    sections.contains { $0.status.isFailure }
  }
}
