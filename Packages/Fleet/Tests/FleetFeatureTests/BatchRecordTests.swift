import Essentials
import EssentialsTesting
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import Testing

/// The batch record (previous statuses in one statement, the connection log in one savepoint)
/// against the write it replaced (a `SELECT *` and a savepoint per row): the same status rows,
/// connection-log rows, returned previous statuses and runtime-log records.
@Suite struct BatchRecordTests {
  /// The write before the batch one, kept here as the reference.
  static func recordRowByRow(
    _ results: [ProbeResult], snapshotTexts: [String: String], store: Store, logger: Logger
  ) throws -> [String: InstanceStatus?] {
    let statuses = StatusRepository(store: store)
    let log = ConnectionLogRepository(store: store)
    var previous: [String: InstanceStatus?] = [:]
    try store.database.transaction { _ in
      for result in results {
        let before = try statuses.get(instanceID: result.instanceID)
          .flatMap { InstanceStatus(rawValue: $0.status) }
        previous[result.instanceID] = before
        try statuses.save(
          StatusRecorder.statusRecord(of: result, snapshotText: snapshotTexts[result.instanceID]))
        try log.append(StatusRecorder.logEntry(of: result, previous: before))
      }
    }
    for result in results {
      let before = previous[result.instanceID] ?? nil
      if before != result.status {
        logger.labeled("msa.fleet").info(
          "fleet.statusChanged",
          metadata: [
            "instance_id": result.instanceID, "instance_name": result.instanceName,
            "from": before?.rawValue ?? InstanceStatus.unknown.rawValue,
            "to": result.status.rawValue, "reason": result.reason?.rawValue ?? "",
          ])
      }
    }
    return previous
  }

  /// One home with `count` instances named `d0`… and what was written to it.
  struct Home {
    let harness: FeatureHarness
    let ids: [String]
    let logs = InMemoryLogHandler()

    init(count: Int) throws {
      let harness = try FeatureHarness(.fleet)
      self.harness = harness
      ids = try (0..<count).map { index in
        try harness.registry.add(
          name: "d\(index)", origin: try InstanceOrigin(parsing: "http://127.0.0.1:\(4000 + index)")
        ).id
      }
    }

    var logger: Logger { Logger(label: "test", handler: logs) }

    /// Everything written, with each instance id replaced by its name (the two homes' ids
    /// differ), in an order that does not depend on the ids.
    func written(_ previous: [[String: InstanceStatus?]]) throws -> [String] {
      let statuses = try StatusRepository(store: harness.store).all().map { named("\($0)") }
      let entries = try ConnectionLogRepository(store: harness.store).list().map { "\($0)" }
      let records = logs.records.map { record in
        "\(record.level) \(record.label) \(record.message) "
          + record.metadata.keys.sorted().map { "\($0)=\(record.metadata[$0] ?? "")" }
          .joined(separator: ",")
      }
      let returned = previous.map { batch in
        batch.map { "\($0.key)=\(String(describing: $0.value))" }.map(named).sorted()
          .joined(separator: ",")
      }
      return statuses.sorted() + (entries + records + returned).map(named)
    }

    /// `text` with each instance id replaced by its name.
    func named(_ text: String) -> String {
      ids.enumerated().reduce(text) { text, pair in
        text.replacingOccurrences(of: pair.element, with: "d\(pair.offset)")
      }
    }
  }

  /// Round `round`'s results for `home`: statuses that change and stay, errors (with a reason
  /// and the device's detail, no snapshot: the stored one is kept), snapshots, one instance
  /// twice in a batch.
  static func results(_ home: Home, round: Int) -> [ProbeResult] {
    let start = Date(timeIntervalSince1970: 1_790_000_000 + Double(round) * 60)
    var results = home.ids.enumerated().map { index, id in
      let kind = (index + (round >= 2 ? index % 3 : 0)) % 4
      var result = ProbeResult(
        instanceID: id, instanceName: "d\(index)",
        status: [.online, .offline, .loginRequired, .degraded][kind],
        reason: kind == 1 ? .timeout : nil, detail: kind == 1 ? "no answer \(index)" : nil,
        layers: ProbeLayers(), checkedAt: start.addingTimeInterval(Double(index)),
        latencyMS: 40 + index, version: kind == 0 ? "1.\(round)" : nil,
        snapshot: kind == 1
          ? nil : DeviceSnapshot(operatorName: "op \(round)", signalPercent: index))
      result.requests = [
        DeviceRequest(method: "GET", route: "/api/health", status: 200, bytes: 90, milliseconds: 5),
        DeviceRequest(
          method: "GET", route: "/api/sim", status: nil, bytes: nil, milliseconds: 9,
          failure: kind == 1 ? "timeout" : nil),
      ]
      return result
    }
    if round == 3, !results.isEmpty {
      // Changed by its first result of the batch, then again by its second.
      results[0].status = .degraded
      var again = results[0]
      again.status = .offline
      again.reason = .reset
      results.append(again)
    }
    return results
  }

  @Test func theBatchWritesWhatTheRowByRowWriteWrote() throws {
    let reference = try Home(count: 12)
    let batch = try Home(count: 12)
    // A status code this build does not know (written by another version) reads as none.
    for home in [reference, batch] {
      try StatusRepository(store: home.harness.store).save(
        InstanceStatusRecord(instanceID: home.ids[5], status: "retired"))
    }
    var previousReference: [[String: InstanceStatus?]] = []
    var previousBatch: [[String: InstanceStatus?]] = []
    let recorder = StatusRecorder(store: batch.harness.store, logger: batch.logger)
    // Round 0: the first refresh after an import; 1: no changes; 2: changes; 3: a device twice.
    for round in 0..<4 {
      // Round 2 hands one snapshot text already encoded (as a refresh does).
      let kept = round == 2
      previousReference.append(
        try Self.recordRowByRow(
          Self.results(reference, round: round),
          snapshotTexts: kept ? [reference.ids[0]: "{\"kept\":true}"] : [:],
          store: reference.harness.store, logger: reference.logger))
      previousBatch.append(
        try recorder.record(
          Self.results(batch, round: round),
          snapshotTexts: kept ? [batch.ids[0]: "{\"kept\":true}"] : [:]))
    }
    let expected = try reference.written(previousReference)
    let actual = try batch.written(previousBatch)
    #expect(batch.logs.records.count > 12)
    #expect(try ConnectionLogRepository(store: batch.harness.store).list().count == 49)
    #expect(actual.count == expected.count)
    for (line, (want, got)) in zip(expected, actual).enumerated() where want != got {
      Issue.record("line \(line): expected \(want), got \(got)")
    }
  }

  @Test func aBatchThatFailsStoresNoneOfItsLog() throws {
    let home = try Home(count: 3)
    var results = Self.results(home, round: 0)
    results[2].instanceID = "no-such-instance"
    let recorder = StatusRecorder(store: home.harness.store, logger: home.logger)
    #expect(throws: SQLiteError.self) { try recorder.record(results) }
    #expect(try StatusRepository(store: home.harness.store).all().isEmpty)
    #expect(try ConnectionLogRepository(store: home.harness.store).list().isEmpty)
    #expect(home.logs.records.isEmpty)
  }
}
