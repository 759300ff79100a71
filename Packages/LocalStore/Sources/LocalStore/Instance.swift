import Foundation

/// One registered device's SimAdmin.
public struct Instance: Sendable, Hashable, Codable, Identifiable {
  /// 12 lowercase hex characters, random.
  public var id: String
  /// The display name, 1–200 characters, trimmed.
  public var name: String
  /// Where it listens.
  public var origin: InstanceOrigin
  /// Its group's id, or `nil` when ungrouped.
  public var groupID: String?
  /// Normalized, sorted tags (see ``InstanceTags``).
  public var tags: [String]
  /// Bumped by every write; edits naming an older revision are refused.
  public var revision: Int
  /// When it was added.
  public var createdAt: Date
  /// When it was last written.
  public var updatedAt: Date

  /// An instance value (repositories create them; tests and fixtures may too).
  public init(
    id: String, name: String, origin: InstanceOrigin, groupID: String?, tags: [String],
    revision: Int, createdAt: Date, updatedAt: Date
  ) {
    self.id = id
    self.name = name
    self.origin = origin
    self.groupID = groupID
    self.tags = tags
    self.revision = revision
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }

  /// A new random id: 12 lowercase hex characters.
  public static func newID() -> String {
    var generator = SystemRandomNumberGenerator()
    let value = generator.next() & 0xFFFF_FFFF_FFFF
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: 12 - hex.count) + hex
  }
}

/// A named set of instances.
public struct InstanceGroup: Sendable, Hashable, Codable, Identifiable {
  /// 12 lowercase hex characters.
  public var id: String
  /// Unique, case-insensitively.
  public var name: String
  /// How many instances are in it.
  public var memberCount: Int
  /// When it was created.
  public var createdAt: Date

  /// A group value.
  public init(id: String, name: String, memberCount: Int, createdAt: Date) {
    self.id = id
    self.name = name
    self.memberCount = memberCount
    self.createdAt = createdAt
  }
}

/// A tag and how many instances carry it.
public struct TagCount: Sendable, Hashable, Codable {
  /// The normalized tag.
  public var tag: String
  /// The number of instances with it.
  public var count: Int

  /// A tag count.
  public init(tag: String, count: Int) {
    self.tag = tag
    self.count = count
  }
}

/// What an edit changes; `nil` fields stay as they are.
public struct InstanceChanges: Sendable, Equatable {
  /// How the group changes.
  public enum GroupChange: Sendable, Equatable {
    /// Move into the group with this id.
    case group(String)
    /// Leave any group.
    case ungrouped
  }

  /// A new name.
  public var name: String?
  /// A new origin (must stay unique).
  public var origin: InstanceOrigin?
  /// Replaces all tags.
  public var tags: [String]?
  /// Tags to add (after `tags`).
  public var addTags: [String]
  /// Tags to remove (after `addTags`).
  public var removeTags: [String]
  /// A new group, or none.
  public var group: GroupChange?

  /// Changes; all fields optional.
  public init(
    name: String? = nil, origin: InstanceOrigin? = nil, tags: [String]? = nil,
    addTags: [String] = [], removeTags: [String] = [], group: GroupChange? = nil
  ) {
    self.name = name
    self.origin = origin
    self.tags = tags
    self.addTags = addTags
    self.removeTags = removeTags
    self.group = group
  }
}

/// Which instances ``InstanceRepository/list(filter:)`` returns.
public struct InstanceFilter: Sendable, Equatable {
  /// A group condition.
  public enum GroupCondition: Sendable, Equatable {
    /// Members of the group with this id.
    case id(String)
    /// Instances in no group.
    case ungrouped
  }

  /// Only this group (or the ungrouped).
  public var group: GroupCondition?
  /// Only instances with this tag (normalized before matching).
  public var tag: String?
  /// Case-insensitive substring of name, origin or id.
  public var search: String?

  /// A filter; no conditions lists everything.
  public init(group: GroupCondition? = nil, tag: String? = nil, search: String? = nil) {
    self.group = group
    self.tag = tag
    self.search = search
  }
}

/// Tag normalization, shared by every writer and filter.
public enum InstanceTags {
  /// Trims each tag, collapses inner whitespace to `-`, lower-cases, drops empties and
  /// duplicates, and sorts: `[" Shop  Floor", "lab", "LAB", ""]` → `["lab", "shop-floor"]`.
  public static func normalize(_ tags: [String]) -> [String] {
    let cleaned = tags.map { tag in
      tag.split(whereSeparator: \.isWhitespace).joined(separator: "-").lowercased()
    }
    return Set(cleaned.filter { !$0.isEmpty }).sorted()
  }
}
