import Foundation
import LocalStore

/// One instance as the workbench, `fleet list` and `fleet show` present it: registry values,
/// the last status and the last known snapshot.
public struct FleetRow: Sendable, Codable, Hashable, Identifiable {
  /// The instance id (the row's stable id).
  public var id: String
  /// The display name.
  public var name: String
  /// The normalized origin.
  public var origin: String
  /// Whether the origin is plain `http`.
  public var isPlainHTTP: Bool
  /// The group's name, if any.
  public var group: String?
  /// Normalized tags.
  public var tags: [String]
  /// The registry revision (pass to `--revision`).
  public var revision: Int
  /// Whether a password is stored.
  public var hasPassword: Bool
  /// The last status (`unknown` when never tested).
  public var status: InstanceStatus
  /// Why it is not online.
  public var reason: StatusReason?
  /// The device's own text or a system detail, shown as is.
  public var detail: String?
  /// When the status was checked.
  public var checkedAt: Date?
  /// The last probe's latency, milliseconds.
  public var latencyMS: Int?
  /// The SimAdmin version last reported.
  public var version: String?
  /// The last known values.
  public var snapshot: DeviceSnapshot?
  /// When ``snapshot`` was fetched.
  public var snapshotFetchedAt: Date?
  /// When the instance was added.
  public var createdAt: Date

  /// A row.
  public init(
    id: String, name: String, origin: String, isPlainHTTP: Bool, group: String? = nil,
    tags: [String] = [], revision: Int = 1, hasPassword: Bool = false,
    status: InstanceStatus = .unknown, reason: StatusReason? = nil, detail: String? = nil,
    checkedAt: Date? = nil, latencyMS: Int? = nil, version: String? = nil,
    snapshot: DeviceSnapshot? = nil, snapshotFetchedAt: Date? = nil, createdAt: Date
  ) {
    self.id = id
    self.name = name
    self.origin = origin
    self.isPlainHTTP = isPlainHTTP
    self.group = group
    self.tags = tags
    self.revision = revision
    self.hasPassword = hasPassword
    self.status = status
    self.reason = reason
    self.detail = detail
    self.checkedAt = checkedAt
    self.latencyMS = latencyMS
    self.version = version
    self.snapshot = snapshot
    self.snapshotFetchedAt = snapshotFetchedAt
    self.createdAt = createdAt
  }

  /// Whether the snapshot is older than the last check (the device was not reachable since):
  /// its values are last known, not live.
  public var isStale: Bool {
    // A pattern, not `!= nil`: that would pick `Equatable`'s `!=` and copy the snapshot.
    guard case .some = snapshot else { return false }
    guard let fetched = snapshotFetchedAt, let checked = checkedAt else { return true }
    return fetched < checked
  }

  /// Whether `query` (case-insensitive) occurs in the name, origin, id or a phone number.
  func matches(search query: String) -> Bool {
    let needle = query.trimmingCharacters(in: .whitespaces).lowercased()
    guard !needle.isEmpty else { return true }
    let haystacks = [name, origin, id] + (snapshot?.phoneNumbers ?? [])
    return haystacks.contains { $0.lowercased().contains(needle) }
  }

  // MARK: - Loading

  /// The rows of `instances`, joined with their status and group.
  /// - Parameter held: snapshots the caller holds with the text it stored for them
  ///   (``DeviceSnapshot/storedText()``, only those that read back as themselves), by instance
  ///   id: a row whose stored text is that text shows the held snapshot instead of decoding
  ///   the text again (a refresh's thousand rows).
  static func load(
    _ instances: [Instance], store: Store,
    held: [String: (text: String, snapshot: DeviceSnapshot)] = [:]
  ) throws -> [FleetRow] {
    let statuses = Dictionary(
      try StatusRepository(store: store).all().map { ($0.instanceID, $0) }
    ) { first, _ in first }
    let groups = Dictionary(
      try InstanceRepository(store: store).listGroups().map { ($0.id, $0.name) }
    ) { first, _ in first }
    let withPasswords = Set((try? store.credentials.instanceIDsWithPasswords()) ?? [])
    return instances.map { instance in
      let record = statuses[instance.id]
      return FleetRow(
        id: instance.id, name: instance.name, origin: instance.origin.string,
        isPlainHTTP: instance.origin.isPlainHTTP, group: instance.groupID.flatMap { groups[$0] },
        tags: instance.tags, revision: instance.revision,
        hasPassword: withPasswords.contains(instance.id),
        status: record.flatMap { InstanceStatus(rawValue: $0.status) } ?? .unknown,
        reason: record?.reason.flatMap(StatusReason.init(rawValue:)), detail: record?.detail,
        checkedAt: record?.checkedAt, latencyMS: record?.latencyMS, version: record?.version,
        snapshot: Self.snapshot(stored: record?.snapshot, held: held[instance.id]),
        snapshotFetchedAt: record?.snapshotFetchedAt, createdAt: instance.createdAt)
    }
  }
}

extension FleetRow {
  /// The snapshot the stored text holds: `held` when that is what was stored, else decoded.
  static func snapshot(
    stored: String?, held: (text: String, snapshot: DeviceSnapshot)?
  ) -> DeviceSnapshot? {
    if let held, let stored, held.text == stored { return held.snapshot }
    return DeviceSnapshot.decode(stored)
  }

  /// The fields of a row in `--json` output, for `msa fleet list --json --fields …`; the
  /// app's tests check them against what a listed row encodes.
  public static let jsonFields = [
    "id", "name", "origin", "isPlainHTTP", "group", "tags", "revision", "hasPassword", "status",
    "reason", "detail", "checkedAt", "latencyMS", "version", "snapshot", "snapshotFetchedAt",
    "createdAt",
  ]
}
