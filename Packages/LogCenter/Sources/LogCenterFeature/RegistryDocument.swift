import Foundation

/// The instance registry as one JSON file, written by `msa data export-registry` and read by
/// `msa data import-registry`.
///
/// ```json
/// {
///   "schemaVersion": 1,
///   "exportedAt": "2026-01-01T00:00:00Z",
///   "groups": [{"name": "Shenzhen"}],
///   "instances": [
///     {"name": "Router A", "origin": "http://192.168.1.1:3000", "group": "Shenzhen",
///      "tags": ["office"], "password": "only with --include-passwords"}
///   ]
/// }
/// ```
///
/// `groups` is the `instance-groups.json` shape and `instances` the `instances.json` shape,
/// kept in one file so they cannot drift apart. Instances name their group by name; `id` is
/// informative only (import assigns new ids). `password` appears only in exports made with
/// `--include-passwords`, and such files are created with mode 0600.
public struct RegistryDocument: Sendable, Equatable, Codable {
  /// The format version this code writes and reads.
  public static let currentVersion = 1

  /// One group.
  public struct Group: Sendable, Equatable, Codable {
    /// The group's name, unique case-insensitively.
    public var name: String
    /// A group.
    public init(name: String) { self.name = name }
  }

  /// One instance.
  public struct Entry: Sendable, Equatable, Codable {
    /// The id it had where it was exported; ignored on import.
    public var id: String?
    /// The display name.
    public var name: String
    /// The origin, e.g. `http://192.168.1.1:3000`.
    public var origin: String
    /// The group's name.
    public var group: String?
    /// Tags.
    public var tags: [String]?
    /// The password, only in exports made with `--include-passwords`.
    public var password: String?

    /// An entry.
    public init(
      id: String? = nil, name: String, origin: String, group: String? = nil,
      tags: [String]? = nil, password: String? = nil
    ) {
      self.id = id
      self.name = name
      self.origin = origin
      self.group = group
      self.tags = tags
      self.password = password
    }
  }

  /// The format version.
  public var schemaVersion: Int
  /// When it was written.
  public var exportedAt: Date?
  /// The groups.
  public var groups: [Group]
  /// The instances.
  public var instances: [Entry]

  /// A document.
  public init(
    schemaVersion: Int = RegistryDocument.currentVersion, exportedAt: Date?, groups: [Group],
    instances: [Entry]
  ) {
    self.schemaVersion = schemaVersion
    self.exportedAt = exportedAt
    self.groups = groups
    self.instances = instances
  }

  enum CodingKeys: String, CodingKey {
    case schemaVersion, exportedAt, groups, instances
  }

  /// Decodes; `groups` may be missing.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    exportedAt = try container.decodeIfPresent(Date.self, forKey: .exportedAt)
    groups = try container.decodeIfPresent([Group].self, forKey: .groups) ?? []
    instances = try container.decode([Entry].self, forKey: .instances)
  }
}
