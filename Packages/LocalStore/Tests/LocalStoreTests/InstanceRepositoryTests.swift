import Essentials
import EssentialsTesting
import Foundation
import LocalStore
import LocalStoreTesting
import Testing

@Suite struct InstanceRepositoryTests {
  let fixture: TestStore
  let repository: InstanceRepository

  init() throws {
    fixture = try TestStore()
    repository = fixture.instances
  }

  func origin(_ text: String) throws -> InstanceOrigin { try InstanceOrigin(parsing: text) }

  @Test func addGetUpdateDelete() throws {
    let added = try repository.add(
      name: "  Shop router ", origin: origin("http://10.0.0.1:3000"), tags: ["Lab"])
    #expect(added.name == "Shop router")
    #expect(added.revision == 1)
    #expect(added.id.count == 12 && added.id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    #expect(try repository.get(id: added.id) == added)

    fixture.clock.advance(by: 5)
    let updated = try repository.update(
      id: added.id, expectedRevision: 1,
      changes: InstanceChanges(name: "Shop", origin: origin("http://10.0.0.2:3000")))
    #expect(updated.revision == 2)
    #expect(updated.updatedAt == added.updatedAt.addingTimeInterval(5))
    #expect(updated.createdAt == added.createdAt)
    #expect(try repository.get(id: added.id) == updated)

    let deleted = try repository.delete(id: added.id, expectedRevision: 2)
    #expect(deleted.name == "Shop")
    #expect(try repository.get(id: added.id) == nil)
    #expect(throws: RegistryError.notFound(reference: added.id)) {
      try repository.delete(id: added.id, expectedRevision: nil)
    }
  }

  /// Issue 36 point 10: `http://0x7f000001:P`, `2130706433:P`, `127.1:P` and
  /// `[::ffff:127.0.0.1]:P` were accepted beside `127.0.0.1:P`: one device archived twice.
  @Test func theSameDeviceUnderAnotherNameIsRefusedNamingTheOwner() throws {
    let owner = try repository.add(name: "Owner", origin: origin("http://127.0.0.1:3000"))
    for text in [
      "http://0x7f000001:3000", "http://2130706433:3000", "http://127.1:3000",
      "http://[::ffff:127.0.0.1]:3000", "http://0177.0.0.1:3000", "HTTP://127.0.0.1.:3000/",
    ] {
      #expect(
        throws: RegistryError.duplicateOrigin(origin: owner.origin.string, existingName: "Owner")
      ) {
        try repository.add(name: "Twin \(text)", origin: origin(text))
      }
    }
    let other = try repository.add(name: "Other", origin: origin("http://127.0.0.2:3000"))
    #expect(
      throws: RegistryError.duplicateOrigin(origin: owner.origin.string, existingName: "Owner")
    ) {
      try repository.update(
        id: other.id, expectedRevision: nil,
        changes: InstanceChanges(origin: origin("http://0x7f000001:3000")))
    }
    #expect(try repository.list().count == 2)
  }

  /// What an older version registered twice stays, both rows loading as the same origin; a
  /// third registration is refused naming the first; each stays editable; nothing is deleted.
  @Test func duplicatesAnOlderVersionStoredAreKeptAndNamed() throws {
    for (index, (name, text)) in [
      ("Hex", "http://0x7f000001:3000"), ("Decimal", "http://2130706433:3000"),
      ("Mapped", "http://[::ffff:127.0.0.1]:3000"), ("Elsewhere", "http://10.0.0.1:3000"),
    ].enumerated() {
      try fixture.store.database.run(
        """
        INSERT INTO instances (id, name, origin, tags, revision, created_at, updated_at)
        VALUES (?, ?, ?, '[]', 1, ?, ?)
        """, ["cafe0000000\(index)", name, text, index, index])
    }
    let all = try repository.list()
    #expect(all.count == 4)
    #expect(all.filter { $0.origin.string == "http://127.0.0.1:3000" }.count == 3)
    #expect(
      try repository.originCollisions().map { $0.map(\.name) } == [["Hex", "Decimal", "Mapped"]])
    #expect(
      throws: RegistryError.duplicateOrigin(origin: "http://127.0.0.1:3000", existingName: "Hex")
    ) {
      try repository.add(name: "Fourth", origin: origin("http://127.0.0.1:3000"))
    }
    // Renaming keeps the stored text (the others hold the same origin).
    let renamed = try repository.update(
      id: "cafe00000001", expectedRevision: 1, changes: InstanceChanges(name: "Decimal 2"))
    #expect(renamed.name == "Decimal 2")
    #expect(
      try fixture.store.database.queryOne("SELECT origin FROM instances WHERE id = 'cafe00000001'")?
        .string("origin") == "http://2130706433:3000")
    // Moving one to its own address ends its part in the collision.
    _ = try repository.update(
      id: "cafe00000002", expectedRevision: 1,
      changes: InstanceChanges(origin: origin("http://[::ffff:10.0.0.2]:3000")))
    #expect(try repository.get(id: "cafe00000002")?.origin.string == "http://10.0.0.2:3000")
    #expect(
      try repository.originCollisions().map { $0.map(\.name) } == [["Hex", "Decimal 2"]])
    #expect(try repository.list().count == 4)
  }

  @Test func namesAreValidated() throws {
    #expect(throws: RegistryError.invalidName(reason: .empty)) {
      try repository.add(name: "   ", origin: origin("http://h"))
    }
    #expect(throws: RegistryError.invalidName(reason: .tooLong(count: 201))) {
      try repository.add(name: String(repeating: "名", count: 201), origin: origin("http://h"))
    }
    #expect(
      try repository.add(name: String(repeating: "名", count: 200), origin: origin("http://h")).name
        .count == 200)
    #expect(try repository.list().count == 1)
  }

  @Test func duplicateOriginIsRefusedNamingTheOwner() throws {
    let first = try repository.add(name: "first", origin: origin("http://h:80"))
    let error = try #require(throws: RegistryError.self) {
      try repository.add(name: "second", origin: origin("HTTP://H/"))
    }
    #expect(error == .duplicateOrigin(origin: "http://h", existingName: "first"))
    #expect(error.description.contains("first"))
    let other = try repository.add(name: "other", origin: origin("http://other"))
    #expect(throws: RegistryError.duplicateOrigin(origin: "http://h", existingName: "first")) {
      try repository.update(
        id: other.id, expectedRevision: nil, changes: InstanceChanges(origin: first.origin))
    }
    #expect(try repository.list().map(\.name) == ["first", "other"])
  }

  @Test func staleRevisionIsAConflict() throws {
    let instance = try repository.add(name: "r", origin: origin("http://h"))
    let current = try repository.update(
      id: instance.id, expectedRevision: 1, changes: InstanceChanges(addTags: ["a"]))
    let error = try #require(throws: RegistryError.self) {
      try repository.update(
        id: instance.id, expectedRevision: 1, changes: InstanceChanges(name: "lost"))
    }
    #expect(error == .conflict(expected: 1, current: current))
    #expect(error.description.contains("revision 2"))
    #expect(throws: RegistryError.conflict(expected: 1, current: current)) {
      try repository.delete(id: instance.id, expectedRevision: 1)
    }
    #expect(try repository.get(id: instance.id)?.name == "r")
  }

  @Test func tagsAreNormalizedSortedAndCounted() throws {
    #expect(
      InstanceTags.normalize([" Shop  Floor", "lab", "LAB", "", "  "]) == ["lab", "shop-floor"])
    let a = try repository.add(
      name: "a", origin: origin("http://a"), tags: ["Zeta", "alpha beta", "zeta"])
    #expect(a.tags == ["alpha-beta", "zeta"])
    let b = try repository.add(name: "b", origin: origin("http://b"), tags: ["ZETA"])
    let edited = try repository.update(
      id: b.id, expectedRevision: nil,
      changes: InstanceChanges(addTags: ["New One"], removeTags: ["Zeta"]))
    #expect(edited.tags == ["new-one"])
    #expect(
      try repository.tagCounts() == [
        TagCount(tag: "alpha-beta", count: 1), TagCount(tag: "new-one", count: 1),
        TagCount(tag: "zeta", count: 1),
      ])
    #expect(try repository.list(filter: InstanceFilter(tag: " ZETA ")).map(\.name) == ["a"])
  }

  @Test func groupsAndDeletingAGroupUngroupsItsMembers() throws {
    let group = try repository.createGroup(name: "Beijing")
    #expect(throws: RegistryError.duplicateGroup(name: "beijing")) {
      try repository.createGroup(name: "beijing")
    }
    #expect(throws: RegistryError.unknownGroup(reference: "nope")) {
      try repository.add(name: "x", origin: origin("http://x"), groupID: "nope")
    }
    let member = try repository.add(name: "m", origin: origin("http://m"), groupID: group.id)
    _ = try repository.add(name: "loose", origin: origin("http://l"))
    #expect(try repository.listGroups().map(\.memberCount) == [1])
    #expect(
      try repository.list(filter: InstanceFilter(group: .id(group.id))).map(\.name) == ["m"])
    #expect(
      try repository.list(filter: InstanceFilter(group: .ungrouped)).map(\.name) == ["loose"])
    let renamed = try repository.renameGroup(id: group.id, to: "北京")
    #expect(renamed.name == "北京" && renamed.memberCount == 1)
    #expect(try repository.resolveGroup(reference: "北京").id == group.id)

    try repository.deleteGroup(id: group.id)
    let after = try #require(try repository.get(id: member.id))
    #expect(after.groupID == nil)
    #expect(after.revision == member.revision + 1)
    #expect(try repository.listGroups().isEmpty)
    #expect(throws: RegistryError.unknownGroup(reference: group.id)) {
      try repository.deleteGroup(id: group.id)
    }
  }

  @Test func searchMatchesNameOriginAndID() throws {
    let router = try repository.add(name: "Warehouse Router", origin: origin("http://10.9.8.7"))
    _ = try repository.add(name: "Dongle", origin: origin("http://172.16.0.5:3000"))
    #expect(
      try repository.list(filter: InstanceFilter(search: "warehouse")).map(\.id) == [router.id])
    #expect(try repository.list(filter: InstanceFilter(search: "172.16")).map(\.name) == ["Dongle"])
    #expect(
      try repository.list(filter: InstanceFilter(search: String(router.id.prefix(6)))).map(\.id)
        .contains(router.id))
  }

  @Test func referencesResolveByNameOrUniquePrefix() throws {
    var made: [Instance] = []
    for index in 0..<40 {
      made.append(
        try repository.add(name: "node \(index)", origin: origin("http://10.0.1.\(index)")))
    }
    let target = made[7]
    #expect(try repository.resolve(reference: "NODE 7") == target)
    #expect(try repository.resolve(reference: target.id) == target)
    #expect(try repository.resolve(reference: target.id.uppercased()) == target)
    // The shortest prefix of at least 4 characters that no other id shares.
    let prefix = try #require(
      (4...12).map { String(target.id.prefix($0)) }.first { candidate in
        made.filter { $0.id.hasPrefix(candidate) }.count == 1
      })
    #expect(try repository.resolve(reference: prefix) == target)
    #expect(throws: RegistryError.notFound(reference: String(target.id.prefix(3)))) {
      try repository.resolve(reference: String(target.id.prefix(3)))
    }
    #expect(throws: RegistryError.notFound(reference: "nothing")) {
      try repository.resolve(reference: "nothing")
    }
  }

  @Test func namesAreUniqueIgnoringCaseAndSurroundingSpaces() throws {
    let first = try repository.add(name: "Real Healthy", origin: origin("http://a"))
    #expect(throws: RegistryError.duplicateName(name: "real healthy", existingName: "Real Healthy"))
    {
      try repository.add(name: "  real healthy ", origin: origin("http://b"))
    }
    let other = try repository.add(name: "Other", origin: origin("http://c"))
    #expect(throws: RegistryError.self) {
      try repository.update(
        id: other.id, expectedRevision: nil, changes: InstanceChanges(name: "REAL HEALTHY"))
    }
    // Its own name in another case is fine.
    let renamed = try repository.update(
      id: first.id, expectedRevision: nil, changes: InstanceChanges(name: "real healthy"))
    #expect(renamed.name == "real healthy")
    #expect(try repository.nameCollisions().isEmpty)
  }

  @Test func ambiguousReferencesListTheCandidates() throws {
    let one = try repository.add(name: "twin", origin: origin("http://a"))
    // Stored before names were compared without case (the registry now refuses it).
    try fixture.store.database.run(
      """
      INSERT INTO instances (id, name, origin, tags, revision, created_at, updated_at)
      VALUES ('bcde00000001', 'Twin', 'http://b', '[]', 1, 0, 0)
      """)
    let two = try #require(try repository.get(id: "bcde00000001"))
    #expect(try repository.nameCollisions().map { Set($0.map(\.id)) } == [[one.id, two.id]])
    let error = try #require(throws: RegistryError.self) {
      try repository.resolve(reference: "twin")
    }
    guard case .ambiguous(_, let candidates) = error else {
      Issue.record("expected ambiguous, got \(error)")
      return
    }
    #expect(Set(candidates.map(\.id)) == [one.id, two.id])
    #expect(error.description.contains(one.id) && error.description.contains(two.id))
    // Ids sharing a 4-character prefix are ambiguous by prefix; insert two such rows directly.
    for (id, host) in [("abcd00000001", "p1"), ("abcd00000002", "p2")] {
      try fixture.store.database.run(
        """
        INSERT INTO instances (id, name, origin, tags, revision, created_at, updated_at)
        VALUES (?, ?, ?, '[]', 1, 0, 0)
        """, [id, host, "http://\(host)"])
    }
    #expect(throws: RegistryError.self) { try repository.resolve(reference: "abcd") }
    #expect(try repository.resolve(reference: "abcd00000002").name == "p2")
  }
}

@Suite struct StatusAndLogTests {
  let fixture: TestStore
  let instance: Instance

  init() throws {
    fixture = try TestStore()
    instance = try fixture.instances.add(
      name: "r1", origin: InstanceOrigin(parsing: "http://10.0.0.1:3000"))
  }

  @Test func offlineStatusKeepsTheLastSnapshot() throws {
    let statuses = StatusRepository(store: fixture.store)
    let first = fixture.clock.clock.now()
    try statuses.save(
      InstanceStatusRecord(
        instanceID: instance.id, status: "online", checkedAt: first, latencyMS: 12,
        version: "1.2.0", snapshot: #"{"operator":"CMCC"}"#, snapshotFetchedAt: first))
    fixture.clock.advance(by: 600)
    try statuses.save(
      InstanceStatusRecord(
        instanceID: instance.id, status: "offline", reason: "timeout",
        checkedAt: fixture.clock.clock.now()))
    let stored = try #require(try statuses.get(instanceID: instance.id))
    #expect(stored.status == "offline" && stored.reason == "timeout")
    #expect(stored.snapshot == #"{"operator":"CMCC"}"#)
    #expect(stored.snapshotFetchedAt == first)
    #expect(stored.latencyMS == nil)
    #expect(try statuses.all().count == 1)
    try fixture.instances.delete(id: instance.id, expectedRevision: nil)
    #expect(try statuses.all().isEmpty)
    #expect(throws: SQLiteError.self) {
      try statuses.save(InstanceStatusRecord(instanceID: "unknown", status: "online"))
    }
  }

  @Test func connectionLogFiltersAndSurvivesInstanceDeletion() throws {
    let log = ConnectionLogRepository(store: fixture.store)
    let start = fixture.clock.clock.now()
    for index in 0..<5 {
      try log.append(
        ConnectionLogEntry(
          instanceID: index == 4 ? "other" : instance.id, instanceName: "r1",
          at: start.addingTimeInterval(Double(index) * 60), result: "ok", status: "online",
          previousStatus: index == 0 ? "unknown" : "online", latencyMS: 10 + index))
    }
    try fixture.instances.delete(id: instance.id, expectedRevision: nil)
    let mine = try log.list(filter: LogQuery(instanceID: instance.id))
    #expect(mine.map(\.latencyMS) == [13, 12, 11, 10])
    #expect(mine.last?.changedStatus == true)
    let window = try log.list(
      filter: LogQuery(since: start.addingTimeInterval(60), until: start.addingTimeInterval(180)))
    #expect(window.map(\.latencyMS) == [12, 11])
    #expect(try log.list(filter: LogQuery(limit: 2)).map(\.latencyMS) == [14, 13])
    #expect(try log.trim(olderThan: start.addingTimeInterval(120)) == 2)
    #expect(try log.clear() == 3)
  }

  @Test func connectionLogKeepsEachProbesDeviceRequests() throws {
    let log = ConnectionLogRepository(store: fixture.store)
    let requests = [
      DeviceRequest(method: "GET", route: "/api/health", status: 200, bytes: 87, milliseconds: 3),
      DeviceRequest(
        method: "GET", route: "/api/device", status: nil, bytes: nil, milliseconds: 5000,
        failure: "timeout"),
    ]
    let stored = try log.append(
      ConnectionLogEntry(
        instanceID: instance.id, instanceName: "r1", at: fixture.clock.clock.now(),
        result: "ok", status: "degraded", requests: requests))
    #expect(try log.list().first?.requests == requests)
    #expect(try log.get(id: try #require(stored.id))?.requests == requests)
    // A record written before requests were kept (or by hand) reads as none.
    _ = try fixture.store.database.run("UPDATE connection_log SET requests = 'not json'")
    #expect(try log.list().first?.requests == [])
  }

  @Test func storeLogHandlerWritesRedactedRecords() throws {
    let handler = StoreLogHandler(store: fixture.store)
    let logger = Logger(
      label: "msa.fleet", handler: handler, logLevel: .debug, clock: fixture.clock.clock)
    logger.info(
      "login password=hunter2", metadata: ["instance_id": instance.id, "password": "hunter2"])
    logger.debug("detail")
    logger.error("probe failed")
    #expect(handler.droppedCount == 0)
    let runtime = RuntimeLogRepository(store: fixture.store)
    let all = try runtime.list()
    #expect(all.count == 3)
    let login = try #require(all.first { $0.record.message.hasPrefix("login") })
    #expect(login.instanceID == instance.id)
    #expect(login.record.metadata["password"] == Redactor.mask)
    #expect(!login.record.message.contains("hunter2"))
    #expect(try runtime.list(minimumLevel: .warning).map(\.record.message) == ["probe failed"])
    #expect(try runtime.list(filter: LogQuery(instanceID: instance.id)).count == 1)
    #expect(try runtime.clear() == 3)
  }

  @Test func catalogueIsComplete() {
    #expect(LocalStoreStrings.catalogue.problems().isEmpty)
    #expect(LocalStoreStrings.catalogue.entries.count > 30)
  }
}
