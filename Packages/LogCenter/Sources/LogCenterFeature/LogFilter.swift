import Essentials
import Foundation

/// Which records to list or export; every condition is optional.
public struct LogFilter: Sendable, Equatable {
  /// The logs to read; both when empty.
  public var kinds: Set<LogKind>
  /// Only records at or above this level.
  public var minimumLevel: LogLevel?
  /// Only this instance.
  public var instanceID: String?
  /// At or after this instant.
  public var since: Date?
  /// Before this instant.
  public var until: Date?
  /// Only records whose message, source, instance or metadata contain this text
  /// (case-insensitive).
  public var search: String?
  /// At most this many records (newest first); all when nil.
  public var limit: Int?

  /// A filter.
  public init(
    kinds: Set<LogKind> = [], minimumLevel: LogLevel? = nil, instanceID: String? = nil,
    since: Date? = nil, until: Date? = nil, search: String? = nil, limit: Int? = nil
  ) {
    self.kinds = kinds
    self.minimumLevel = minimumLevel
    self.instanceID = instanceID
    self.since = since
    self.until = until
    self.search = search
    self.limit = limit
  }

  /// The logs this filter reads.
  public var effectiveKinds: [LogKind] {
    LogKind.allCases.filter { kinds.isEmpty || kinds.contains($0) }
  }

  /// Whether `item` passes the level and text conditions (the others are applied in SQL).
  func matches(_ item: LogItem) -> Bool {
    if let minimumLevel, item.level < minimumLevel { return false }
    guard let search = search?.trimmingCharacters(in: .whitespaces), !search.isEmpty else {
      return true
    }
    var haystack = [item.message, item.source, item.instanceName ?? "", item.instanceID ?? ""]
    haystack += item.metadata.flatMap { [$0.key, $0.value] }
    if let probe = item.probe {
      haystack += [probe.result, probe.status, probe.previousStatus ?? "", probe.reason ?? ""]
    }
    return haystack.contains { $0.range(of: search, options: .caseInsensitive) != nil }
  }
}
