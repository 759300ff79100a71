import Essentials
import Foundation
import LocalStore

/// What an import did (or, with `--dry-run`, would do).
public struct RegistryImportReport: Sendable, Equatable, Codable {
  /// Whether nothing was written.
  public var dryRun: Bool
  /// Names of the instances added.
  public var added: [String]
  /// Names of instances skipped because their origin is already registered.
  public var skipped: [String]
  /// Names of the groups created.
  public var groupsCreated: [String]
  /// How many passwords were stored.
  public var passwordsStored: Int
}

/// What an export wrote.
public struct RegistryExportReport: Sendable, Equatable, Codable {
  /// The file.
  public var path: String
  /// Instances written.
  public var instances: Int
  /// Groups written.
  public var groups: Int
  /// Whether passwords are in the file (then its mode is 0600).
  public var includesPasswords: Bool
}

/// Export and import of the instance registry as a ``RegistryDocument``.
public struct RegistryTransfer: Sendable {
  /// The store.
  public let store: Store
  /// The clock stamping exports.
  public let clock: AppClock

  /// A transfer over `store`.
  public init(store: Store, clock: AppClock) {
    self.store = store
    self.clock = clock
  }

  // MARK: - Export

  /// The registry as a document; passwords only when `includePasswords`.
  public func document(includePasswords: Bool) throws -> RegistryDocument {
    let repository = InstanceRepository(store: store)
    let groups = try repository.listGroups()
    let groupNames = Dictionary(uniqueKeysWithValues: groups.map { ($0.id, $0.name) })
    let entries = try repository.list().map { instance in
      RegistryDocument.Entry(
        id: instance.id, name: instance.name, origin: instance.origin.string,
        group: instance.groupID.flatMap { groupNames[$0] }, tags: instance.tags,
        password: includePasswords ? try store.credentials.password(for: instance.id) : nil)
    }
    return RegistryDocument(
      exportedAt: clock.now(), groups: groups.map { .init(name: $0.name) }, instances: entries)
  }

  /// Writes the registry to `url` (atomically, mode 0600).
  public func export(to url: URL, includePasswords: Bool, overwrite: Bool) throws
    -> RegistryExportReport
  {
    let document = try document(includePasswords: includePasswords)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    let data = try encoder.encode(document)
    try AtomicFile.write(
      data + Data("\n".utf8), to: url, mode: 0o600, existing: overwrite ? .replace : .refuse)
    return RegistryExportReport(
      path: url.path, instances: document.instances.count, groups: document.groups.count,
      includesPasswords: includePasswords)
  }

  // MARK: - Import

  /// Reads `url`, validates everything, then imports in one transaction (unless `dryRun`).
  ///
  /// - Throws: ``LogCenterError/malformedJSON(path:line:column:detail:)`` or
  ///   ``LogCenterError/importRejected(path:problems:)`` listing every problem with its index;
  ///   nothing is written then.
  public func importRegistry(from url: URL, dryRun: Bool) throws -> RegistryImportReport {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw LogCenterError.unreadable(path: url.path, reason: "no such file, or not readable")
    }
    let document = try Self.decode(data, path: url.path)
    let plan = try plan(document, path: url.path)
    var report = RegistryImportReport(
      dryRun: dryRun, added: plan.add.map(\.name), skipped: plan.skipped,
      groupsCreated: plan.newGroups, passwordsStored: plan.add.filter { $0.password != nil }.count)
    guard !dryRun else { return report }
    try store.requireWritable()
    let repository = InstanceRepository(store: store)
    let passwords: [(String, String)] = try store.database.transaction { _ in
      var groupIDs: [String: String] = [:]
      for group in try repository.listGroups() { groupIDs[group.name.lowercased()] = group.id }
      for name in plan.newGroups {
        groupIDs[name.lowercased()] = try repository.createGroup(name: name).id
      }
      var passwords: [(String, String)] = []
      for entry in plan.add {
        let instance = try repository.add(
          name: entry.name, origin: entry.origin, tags: entry.tags,
          groupID: entry.group.flatMap { groupIDs[$0.lowercased()] })
        if let password = entry.password { passwords.append((instance.id, password)) }
      }
      return passwords
    }
    var stored = 0
    for (id, password) in passwords {
      try store.credentials.setPassword(password, for: id)
      stored += 1
    }
    report.passwordsStored = stored
    return report
  }

  struct PlannedEntry {
    var name: String
    var origin: InstanceOrigin
    var group: String?
    var tags: [String]
    var password: String?
  }

  struct Plan {
    var add: [PlannedEntry] = []
    var skipped: [String] = []
    var newGroups: [String] = []
  }

  /// Decodes the document, turning syntax errors into line/column messages.
  static func decode(_ data: Data, path: String) throws -> RegistryDocument {
    do {
      _ = try JSONSerialization.jsonObject(with: data)
    } catch {
      let detail = String(describing: error)
      let (line, column) = JSONPosition.locate(data)
      throw LogCenterError.malformedJSON(
        path: path, line: line, column: column, detail: JSONPosition.summary(detail))
    }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    do {
      let document = try decoder.decode(RegistryDocument.self, from: data)
      guard document.schemaVersion == RegistryDocument.currentVersion else {
        throw LogCenterError.importRejected(
          path: path,
          problems: ["schemaVersion \(document.schemaVersion) is not supported (expected 1)"])
      }
      return document
    } catch let error as LogCenterError {
      throw error
    } catch let error as DecodingError {
      throw LogCenterError.importRejected(path: path, problems: [Self.describe(error)])
    }
  }

  /// Checks every entry and lists every problem; returns what would be done.
  private func plan(_ document: RegistryDocument, path: String) throws -> Plan {
    var problems: [String] = []
    var plan = Plan()
    let repository = InstanceRepository(store: store)
    let existingGroups = Set(try repository.listGroups().map { $0.name.lowercased() })
    var fileGroups: [String: Int] = [:]
    for (index, group) in document.groups.enumerated() {
      let name = group.name.trimmingCharacters(in: .whitespacesAndNewlines)
      if name.isEmpty || name.count > InstanceRepository.maximumNameLength {
        problems.append("groups[\(index)]: the name must be 1–200 characters")
      } else if let problem = Self.controlProblem(name: name) {
        problems.append("groups[\(index)]: \(problem)")
      } else if let first = fileGroups[name.lowercased()] {
        problems.append("groups[\(index)]: \"\(name)\" repeats groups[\(first)]")
      } else {
        fileGroups[name.lowercased()] = index
        if !existingGroups.contains(name.lowercased()) { plan.newGroups.append(name) }
      }
    }
    let existing = try repository.list()
    let existingOrigins = Set(existing.map(\.origin.string))
    var existingNames: [String: (origin: String, name: String)] = [:]
    for instance in existing {
      existingNames[InstanceRepository.nameKey(instance.name)] = (
        instance.origin.string, instance.name
      )
    }
    var seenOrigins: [String: Int] = [:]
    var seenNames: [String: Int] = [:]
    for (index, entry) in document.instances.enumerated() {
      let name = entry.name.trimmingCharacters(in: .whitespacesAndNewlines)
      var valid = true
      if name.isEmpty || name.count > InstanceRepository.maximumNameLength {
        problems.append("instances[\(index)]: the name must be 1–200 characters")
        valid = false
      } else if let problem = Self.controlProblem(name: name) {
        problems.append("instances[\(index)]: \(problem)")
        valid = false
      }
      do {
        try InstanceRepository.checkTags(entry.tags ?? [])
      } catch {
        problems.append("instances[\(index)]: \(error.localizedMessage(.english))")
        valid = false
      }
      var origin: InstanceOrigin?
      do {
        origin = try InstanceOrigin(parsing: entry.origin)
      } catch {
        problems.append(
          "instances[\(index)] (\(name)): \(error.localizedMessage(.english))")
        valid = false
      }
      if let origin {
        if let first = seenOrigins[origin.string] {
          problems.append(
            "instances[\(index)] (\(name)): origin \(origin.string) repeats instances[\(first)]")
          valid = false
        } else {
          seenOrigins[origin.string] = index
        }
      }
      if let group = entry.group?.trimmingCharacters(in: .whitespaces), !group.isEmpty,
        fileGroups[group.lowercased()] == nil, !existingGroups.contains(group.lowercased())
      {
        problems.append("instances[\(index)] (\(name)): group \"\(group)\" is not in groups")
        valid = false
      }
      guard valid, let origin else { continue }
      if existingOrigins.contains(origin.string) {
        plan.skipped.append(name)
        continue
      }
      // Names are unique ignoring case and surrounding spaces (InstanceRepository.nameKey).
      let key = InstanceRepository.nameKey(name)
      if let first = seenNames[key] {
        problems.append("instances[\(index)] (\(name)): the name repeats instances[\(first)]")
        continue
      }
      seenNames[key] = index
      if let other = existingNames[key], other.origin != origin.string {
        problems.append(
          "instances[\(index)] (\(name)): the name is already used by \"\(other.name)\" (\(other.origin))"
        )
        continue
      }
      plan.add.append(
        PlannedEntry(
          name: name, origin: origin,
          group: entry.group.flatMap { $0.trimmingCharacters(in: .whitespaces) }.flatMap {
            $0.isEmpty ? nil : $0
          }, tags: entry.tags ?? [], password: entry.password))
    }
    guard problems.isEmpty else {
      throw LogCenterError.importRejected(path: path, problems: problems)
    }
    return plan
  }

  /// Why `name` (1–200 characters) cannot be stored: it holds a control or bidi character.
  static func controlProblem(name: String) -> String? {
    do {
      _ = try InstanceRepository.validName(name)
      return nil
    } catch {
      return error.localizedMessage(.english)
    }
  }

  private static func describe(_ error: DecodingError) -> String {
    func location(_ path: [any CodingKey]) -> String {
      path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
        .trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
    switch error {
    case .keyNotFound(let key, let context):
      let at = location(context.codingPath)
      return "\(at.isEmpty ? "document" : at): missing \"\(key.stringValue)\""
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "\(location(context.codingPath)): wrong type of value"
    case .dataCorrupted(let context):
      return "\(location(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return "unreadable document"
    }
  }
}
