import Essentials
import Foundation

/// The instance registry: instances, groups and tags in the `core` tables.
///
/// Every write checks that the store is writable, runs in one transaction, and bumps the
/// written instances' `revision` and `updated_at` (from the store's clock). Reads and writes
/// throw ``RegistryError`` for anything the user can fix and ``SQLiteError`` otherwise.
public struct InstanceRepository: Sendable {
  /// The longest name accepted, in characters.
  public static let maximumNameLength = 200
  /// The shortest id prefix ``resolve(reference:)`` accepts.
  public static let minimumPrefixLength = 4

  /// The store it reads and writes.
  public let store: Store
  private var database: SQLiteDatabase { store.database }

  /// A repository over `store`.
  public init(store: Store) {
    self.store = store
  }

  // MARK: - Instances

  /// Adds an instance; returns it at revision 1.
  ///
  /// - Throws: ``RegistryError/invalidName(reason:)``, ``RegistryError/duplicateOrigin(origin:existingName:)``,
  ///   ``RegistryError/unknownGroup(reference:)``, ``RegistryError/readOnly(reason:)``.
  @discardableResult
  public func add(
    name: String, origin: InstanceOrigin, tags: [String] = [], groupID: String? = nil
  ) throws -> Instance {
    try store.requireWritable()
    let name = try Self.validName(name)
    try Self.checkTags(tags)
    let now = store.clock.now()
    return try database.transaction { database in
      if let groupID { try requireGroup(groupID) }
      try requireUniqueName(name, excluding: nil)
      if let existing = try instance(withOrigin: origin) {
        throw RegistryError.duplicateOrigin(origin: origin.string, existingName: existing.name)
      }
      let instance = Instance(
        id: try unusedID(table: "instances"), name: name, origin: origin, groupID: groupID,
        tags: InstanceTags.normalize(tags), revision: 1, createdAt: now, updatedAt: now)
      try database.run(
        """
        INSERT INTO instances (id, name, origin, group_id, tags, revision, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          instance.id, instance.name, instance.origin.string, instance.groupID,
          Self.encodeTags(instance.tags), instance.revision, now, now,
        ])
      return instance
    }
  }

  /// Applies `changes` to the instance `id`; returns it with its new revision.
  ///
  /// - Parameter expectedRevision: the revision the caller read; a different stored revision
  ///   throws ``RegistryError/conflict(expected:current:)``. `nil` skips the check.
  @discardableResult
  public func update(id: String, expectedRevision: Int?, changes: InstanceChanges) throws
    -> Instance
  {
    try store.requireWritable()
    let newName = try changes.name.map(Self.validName)
    try Self.checkTags((changes.tags ?? []) + changes.addTags)
    return try database.transaction { database in
      var instance = try requireCurrent(id: id, expectedRevision: expectedRevision)
      if let newName {
        try requireUniqueName(newName, excluding: id)
        instance.name = newName
      }
      // The stored text is rewritten only when the origin changes: an instance an older
      // version registered twice (same origin, two texts) keeps its own text on any other
      // edit, instead of failing on the other's.
      var originText: String?
      if let origin = changes.origin, origin != instance.origin {
        if let existing = try self.instance(withOrigin: origin), existing.id != id {
          throw RegistryError.duplicateOrigin(origin: origin.string, existingName: existing.name)
        }
        instance.origin = origin
        originText = origin.string
      }
      var tags = changes.tags ?? instance.tags
      tags += changes.addTags
      let removed = Set(InstanceTags.normalize(changes.removeTags))
      // A stored tag with a control can be removed by the form `data check` shows it in.
      instance.tags = InstanceTags.normalize(tags).filter { tag in
        !removed.contains(tag)
          && !removed.contains(InstanceTags.normalize([UntrustedText.neutralised(tag)]).first ?? "")
      }
      switch changes.group {
      case .group(let groupID)?:
        try requireGroup(groupID)
        instance.groupID = groupID
      case .ungrouped?: instance.groupID = nil
      case nil: break
      }
      instance.revision += 1
      instance.updatedAt = store.clock.now()
      try database.run(
        """
        UPDATE instances SET name = ?, origin = coalesce(?, origin), group_id = ?, tags = ?,
          revision = ?, updated_at = ? WHERE id = ?
        """,
        [
          instance.name, originText, instance.groupID, Self.encodeTags(instance.tags),
          instance.revision, instance.updatedAt, id,
        ])
      return instance
    }
  }

  /// Deletes the instance `id` (its status row goes with it; its logs stay).
  ///
  /// - Parameter expectedRevision: as in ``update(id:expectedRevision:changes:)``.
  /// - Returns: the instance as it was.
  @discardableResult
  public func delete(id: String, expectedRevision: Int?) throws -> Instance {
    try store.requireWritable()
    return try database.transaction { database in
      let instance = try requireCurrent(id: id, expectedRevision: expectedRevision)
      try database.run("DELETE FROM instances WHERE id = ?", [id])
      return instance
    }
  }

  /// The instance with this exact id, or `nil`.
  public func get(id: String) throws -> Instance? {
    try database.queryOne("SELECT * FROM instances WHERE id = ?", [id]).map(Self.instance)
  }

  /// Instances matching `filter`, sorted by name (case-insensitive), then id.
  public func list(filter: InstanceFilter = InstanceFilter()) throws -> [Instance] {
    var conditions: [String] = []
    var values: [any SQLiteBindable] = []
    switch filter.group {
    case .id(let groupID)?:
      conditions.append("group_id = ?")
      values.append(groupID)
    case .ungrouped?: conditions.append("group_id IS NULL")
    case nil: break
    }
    if let tag = filter.tag {
      conditions.append("EXISTS (SELECT 1 FROM json_each(instances.tags) WHERE value = ?)")
      values.append(InstanceTags.normalize([tag]).first ?? "")
    }
    if let search = filter.search?.trimmingCharacters(in: .whitespaces), !search.isEmpty {
      conditions.append(
        "(instr(lower(name), lower(?)) > 0 OR instr(origin, lower(?)) > 0"
          + " OR instr(id, lower(?)) > 0)")
      values += [search, search, search]
    }
    let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    return try database.query(
      "SELECT * FROM instances\(whereClause) ORDER BY name COLLATE NOCASE, id", values
    ).map(Self.instance)
  }

  /// The one instance `reference` names: its name (compared by ``nameKey(_:)``), an exact id, or a
  /// unique id prefix of at least 4 characters.
  ///
  /// - Throws: ``RegistryError/notFound(reference:)`` or
  ///   ``RegistryError/ambiguous(reference:candidates:)``.
  public func resolve(reference: String) throws -> Instance {
    let trimmed = reference.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw RegistryError.notFound(reference: reference) }
    let all = try list()
    let lowered = trimmed.lowercased()
    let key = Self.nameKey(trimmed)
    let byName = all.filter { Self.nameKey($0.name) == key }
    if byName.count == 1 { return byName[0] }
    if byName.count > 1 { throw RegistryError.ambiguous(reference: trimmed, candidates: byName) }
    if let exact = all.first(where: { $0.id == lowered }) { return exact }
    guard trimmed.count >= Self.minimumPrefixLength else {
      throw RegistryError.notFound(reference: trimmed)
    }
    let byPrefix = all.filter { $0.id.hasPrefix(lowered) }
    if byPrefix.count == 1 { return byPrefix[0] }
    if byPrefix.count > 1 {
      throw RegistryError.ambiguous(reference: trimmed, candidates: byPrefix)
    }
    throw RegistryError.notFound(reference: trimmed)
  }

  /// Every tag in use with its number of instances, sorted by tag.
  public func tagCounts() throws -> [TagCount] {
    try database.query(
      """
      SELECT tag.value AS tag, count(*) AS count FROM instances, json_each(instances.tags) AS tag
      GROUP BY tag.value ORDER BY tag.value
      """
    ).map { row in TagCount(tag: try row.string("tag"), count: try row.int("count")) }
  }

  // MARK: - Groups

  /// Creates a group; names are unique case-insensitively.
  @discardableResult
  public func createGroup(name: String) throws -> InstanceGroup {
    try store.requireWritable()
    let name = try Self.validName(name)
    let now = store.clock.now()
    return try database.transaction { database in
      if try group(named: name) != nil { throw RegistryError.duplicateGroup(name: name) }
      let id = try unusedID(table: "instance_groups")
      try database.run(
        "INSERT INTO instance_groups (id, name, created_at) VALUES (?, ?, ?)", [id, name, now])
      return InstanceGroup(id: id, name: name, memberCount: 0, createdAt: now)
    }
  }

  /// Renames a group.
  @discardableResult
  public func renameGroup(id: String, to newName: String) throws -> InstanceGroup {
    try store.requireWritable()
    let name = try Self.validName(newName)
    return try database.transaction { database in
      try requireGroup(id)
      if let other = try group(named: name), try other.string("id") != id {
        throw RegistryError.duplicateGroup(name: name)
      }
      try database.run("UPDATE instance_groups SET name = ? WHERE id = ?", [name, id])
      guard let group = try listGroups().first(where: { $0.id == id }) else {
        throw RegistryError.unknownGroup(reference: id)
      }
      return group
    }
  }

  /// Deletes a group; its members become ungrouped (and get a new revision).
  public func deleteGroup(id: String) throws {
    try store.requireWritable()
    try database.transaction { database in
      try requireGroup(id)
      try database.run(
        """
        UPDATE instances SET group_id = NULL, revision = revision + 1, updated_at = ?
        WHERE group_id = ?
        """, [store.clock.now(), id])
      try database.run("DELETE FROM instance_groups WHERE id = ?", [id])
    }
  }

  /// Every group with its member count, sorted by name (case-insensitive).
  public func listGroups() throws -> [InstanceGroup] {
    try database.query(
      """
      SELECT g.id, g.name, g.created_at, count(i.id) AS members
      FROM instance_groups g LEFT JOIN instances i ON i.group_id = g.id
      GROUP BY g.id ORDER BY g.name COLLATE NOCASE
      """
    ).map { row in
      InstanceGroup(
        id: try row.string("id"), name: try row.string("name"),
        memberCount: try row.int("members"), createdAt: try row.date("created_at"))
    }
  }

  /// The group `reference` names: its exact name (case-insensitive) or its id.
  public func resolveGroup(reference: String) throws -> InstanceGroup {
    let trimmed = reference.trimmingCharacters(in: .whitespaces)
    let groups = try listGroups()
    if let match = groups.first(where: { $0.name.lowercased() == trimmed.lowercased() }) {
      return match
    }
    if let match = groups.first(where: { $0.id == trimmed.lowercased() }) { return match }
    throw RegistryError.unknownGroup(reference: trimmed)
  }

  // MARK: - Names

  /// How names are compared: trimmed, without case (`"Real Healthy"` and `"  real healthy "`
  /// are the same name), so a reference by name always finds one instance.
  public static func nameKey(_ name: String) -> String {
    name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }

  /// Instances whose names collide under ``nameKey(_:)``, stored before names were compared
  /// so; each group sorted by id. They are listed by `msa data check` and renamed by id
  /// (`msa fleet edit ID --name NEW`); nothing renames them on its own.
  public func nameCollisions() throws -> [[Instance]] {
    let groups = Dictionary(grouping: try list(), by: { Self.nameKey($0.name) })
    return groups.values.filter { $0.count > 1 }.map { $0.sorted { $0.id < $1.id } }
      .sorted { Self.nameKey($0[0].name) < Self.nameKey($1[0].name) }
  }

  private func requireUniqueName(_ name: String, excluding id: String?) throws {
    let key = Self.nameKey(name)
    let rows = try database.query("SELECT id, name FROM instances")
    for row in rows where Self.nameKey(try row.string("name")) == key {
      guard try row.string("id") != id else { continue }
      throw RegistryError.duplicateName(name: name, existingName: try row.string("name"))
    }
  }

  // MARK: - Helpers

  /// `name` trimmed, or why it cannot be an instance or group name: empty, too long, or
  /// holding a control or bidi character (refused, never silently changed).
  public static func validName(_ name: String) throws(RegistryError) -> String {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { throw .invalidName(reason: .empty) }
    guard trimmed.count <= maximumNameLength else {
      throw .invalidName(reason: .tooLong(count: trimmed.count))
    }
    if let control = UntrustedText.firstControl(in: trimmed) {
      throw .invalidName(
        reason: .control(
          shown: UntrustedText.neutralised(trimmed), character: UntrustedText.codePoint(control)))
    }
    return trimmed
  }

  /// Refuses a tag holding a control or bidi character.
  public static func checkTags(_ tags: [String]) throws(RegistryError) {
    for tag in tags {
      if let control = UntrustedText.firstControl(in: tag) {
        throw .invalidTag(
          shown: UntrustedText.neutralised(tag), character: UntrustedText.codePoint(control))
      }
    }
  }

  /// Names and tags stored before controls were refused, for `data check`: reported, never
  /// changed (`fleet edit` and `groups rename` fix them).
  public func namesWithControls() throws -> [StoredNameProblem] {
    var found: [StoredNameProblem] = []
    for instance in try list() {
      if UntrustedText.containsControl(instance.name) {
        found.append(StoredNameProblem(.instance, id: instance.id, text: instance.name))
      }
      for tag in instance.tags where UntrustedText.containsControl(tag) {
        found.append(StoredNameProblem(.tag, id: instance.id, text: tag))
      }
    }
    for group in try listGroups() where UntrustedText.containsControl(group.name) {
      found.append(StoredNameProblem(.group, id: group.id, text: group.name))
    }
    return found
  }

  private func requireCurrent(id: String, expectedRevision: Int?) throws -> Instance {
    guard let current = try get(id: id) else { throw RegistryError.notFound(reference: id) }
    if let expectedRevision, expectedRevision != current.revision {
      throw RegistryError.conflict(expected: expectedRevision, current: current)
    }
    return current
  }

  private func requireGroup(_ id: String) throws {
    guard try database.queryOne("SELECT 1 FROM instance_groups WHERE id = ?", [id]) != nil else {
      throw RegistryError.unknownGroup(reference: id)
    }
  }

  private func group(named name: String) throws -> Row? {
    try database.queryOne("SELECT id FROM instance_groups WHERE name = ? COLLATE NOCASE", [name])
  }

  /// The instance registered at `origin`: the one whose stored text is its written form,
  /// else the first added whose stored text reads as the same origin (an older version stored
  /// `http://0x7f000001:3000` as typed; it is `http://127.0.0.1:3000`, issue 36).
  private func instance(withOrigin origin: InstanceOrigin) throws -> Instance? {
    if let row = try database.queryOne("SELECT * FROM instances WHERE origin = ?", [origin.string])
    {
      return try Self.instance(row)
    }
    for row in try database.query("SELECT id, origin FROM instances ORDER BY created_at, id") {
      guard (try? InstanceOrigin(stored: try row.string("origin"))) == origin else { continue }
      return try get(id: try row.string("id"))
    }
    return nil
  }

  /// Instances registered more than once at the same origin (an older version stored each
  /// numeric or mapped form of an address as typed: `http://2130706433:3000` beside
  /// `http://127.0.0.1:3000`), oldest first in each list. None is removed or changed: they
  /// are one device, whose messages each archives; `fleet list` and `data check` say so.
  public func originCollisions() throws -> [[Instance]] {
    let instances = try list().sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    let groups = Dictionary(grouping: instances, by: \.origin.string)
    return groups.values.filter { $0.count > 1 }.sorted {
      $0[0].origin.string < $1[0].origin.string
    }
  }

  private func unusedID(table: String) throws -> String {
    while true {
      let id = Instance.newID()
      if try database.queryOne("SELECT 1 FROM \(table) WHERE id = ?", [id]) == nil { return id }
    }
  }

  static func encodeTags(_ tags: [String]) -> String {
    let data = (try? JSONEncoder().encode(tags)) ?? Data("[]".utf8)
    return String(decoding: data, as: UTF8.self)
  }

  static func instance(_ row: Row) throws -> Instance {
    let originText = try row.string("origin")
    let tagsText = try row.string("tags")
    // Most instances have no tag: `[]` needs no decoder (one per row was 5% of a cold
    // `fleet list` of 1,000).
    let tags =
      tagsText == "[]"
      ? [] : (try? JSONDecoder().decode([String].self, from: Data(tagsText.utf8))) ?? []
    return Instance(
      id: try row.string("id"), name: try row.string("name"),
      origin: try InstanceOrigin(stored: originText), groupID: try row.optionalString("group_id"),
      tags: tags, revision: try row.int("revision"), createdAt: try row.date("created_at"),
      updatedAt: try row.date("updated_at"))
  }
}

/// A stored name or tag holding a control or bidi character (kept from before they were
/// refused).
public struct StoredNameProblem: Sendable, Equatable {
  /// What holds it.
  public enum Kind: String, Sendable {
    /// An instance's name.
    case instance
    /// A group's name.
    case group
    /// One of an instance's tags.
    case tag
  }

  /// What holds it.
  public var kind: Kind
  /// The instance's id (for a name or a tag) or the group's.
  public var id: String
  /// The text with its controls made visible (``UntrustedText/neutralised(_:lineFeeds:)``).
  public var shown: String

  /// A problem for `text`, shown neutralised.
  public init(_ kind: Kind, id: String, text: String) {
    self.kind = kind
    self.id = id
    self.shown = UntrustedText.neutralised(text)
  }
}
