import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import LocalStore

/// Shared pieces of the `logs` and `data` commands.
enum CommandSupport {
  static func store(_ environment: AppEnvironment) throws -> Store {
    try environment.services.resolve(Store.self)
  }

  /// A path as typed, made absolute against the current directory.
  static func fileURL(_ path: String) -> URL {
    let expanded = (path as NSString).expandingTildeInPath
    return URL(fileURLWithPath: expanded).standardizedFileURL
  }

  // MARK: - Filter options

  static let levelNames = LogLevel.allCases.map(\.rawValue)

  static var filterOptions: [OptionSpec] {
    [
      .option(
        "kind", valueName: "KIND", help: LogCenterStrings.string("option.kind"),
        allowed: LogKind.allCases.map(\.rawValue)),
      .option(
        "level", valueName: "LEVEL", help: LogCenterStrings.string("option.level"),
        allowed: levelNames),
      .option("instance", valueName: "REF", help: LogCenterStrings.string("option.instance"))
        .completing(.instance),
      .option("since", valueName: "TIME", help: LogCenterStrings.string("option.since"))
        .takingTime(),
      .option("until", valueName: "TIME", help: LogCenterStrings.string("option.until"))
        .takingTime(),
      .option("search", valueName: "TEXT", help: LogCenterStrings.string("option.search")),
    ]
  }

  /// The filter the options describe; `--instance` is resolved against the registry (an id
  /// of a deleted instance is still accepted, since its logs stay).
  static func filter(
    _ parsed: ParsedCommand, environment: AppEnvironment, store: Store, limit: Int?
  ) throws -> LogFilter {
    var filter = LogFilter(limit: limit)
    if let kind = parsed.optionalString("kind").flatMap(LogKind.init(rawValue:)) {
      filter.kinds = [kind]
    }
    filter.minimumLevel = parsed.optionalString("level").flatMap(LogLevel.init(rawValue:))
    let now = environment.clock.now()
    for name in ["since", "until"] {
      guard let text = parsed.optionalString(name) else { continue }
      guard let date = LogTime.parse(text, now: now) else {
        throw UsageFailure(LogCenterError.invalidDate(option: "--\(name)", value: text))
      }
      if name == "since" { filter.since = date } else { filter.until = date }
    }
    filter.search = parsed.optionalString("search")
    if let reference = parsed.optionalString("instance") {
      filter.instanceID = try instanceID(reference, store: store)
    }
    return filter
  }

  static func instanceID(_ reference: String, store: Store) throws -> String {
    do {
      return try InstanceRepository(store: store).resolve(reference: reference).id
    } catch RegistryError.notFound {
      let lowered = reference.lowercased()
      let known = try store.database.queryOne(
        """
        SELECT 1 FROM connection_log WHERE instance_id = ?
        UNION SELECT 1 FROM runtime_log WHERE instance_id = ?
        """, [lowered, lowered])
      guard known != nil else { throw RegistryError.notFound(reference: reference) }
      return lowered
    }
  }

  static func kinds(_ parsed: ParsedCommand) -> [LogKind] {
    parsed.optionalString("kind").flatMap(LogKind.init(rawValue:)).map { [$0] }
      ?? LogKind.allCases
  }

  static func byteCount(_ bytes: Int64) -> String {
    if bytes < 1024 { return "\(bytes) B" }
    let kib = Double(bytes) / 1024
    if kib < 1024 { return String(format: "%.1f KiB", kib) }
    return String(format: "%.1f MiB", kib / 1024)
  }
}
