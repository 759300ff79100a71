import Essentials
import FeatureKit
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import Testing

@Suite struct LocalFailureTests {
  @Test func aLocalFailureIsNeverRecordedAsTheDevicesStatus() throws {
    let harness = try FeatureHarness(.fleet)
    let instance = try harness.registry.add(
      name: "Healthy", origin: try InstanceOrigin(parsing: "http://127.0.0.1:3000"))
    var result = ProbeResult(
      instanceID: instance.id, instanceName: instance.name, status: .unknown, reason: nil,
      detail: "Too many open files", layers: ProbeLayers(), checkedAt: harness.clock.clock.now(),
      latencyMS: 1)
    result.localFailure = "Too many open files"
    let recorder = StatusRecorder(
      store: harness.store, logger: Logger(label: "test", handler: harness.logs))
    #expect(throws: LocalProbeFailure(detail: "Too many open files")) {
      try recorder.record(result)
    }
    #expect(try StatusRepository(store: harness.store).get(instanceID: instance.id) == nil)
    #expect(try ConnectionLogRepository(store: harness.store).list().isEmpty)
    let message = LocalProbeFailure(detail: "Too many open files").localizedMessage(.english)
    #expect(message.contains("Too many open files") && message.contains("ulimit -n"))
  }

  @Test func aBatchIsRecordedTogetherAndItsLocalFailureThrownAfterwards() throws {
    let harness = try FeatureHarness(.fleet)
    var results: [ProbeResult] = []
    for (port, name) in ["One", "Two", "Three"].enumerated() {
      let instance = try harness.registry.add(
        name: name, origin: try InstanceOrigin(parsing: "http://127.0.0.1:\(3001 + port)"))
      var result = ProbeResult(
        instanceID: instance.id, instanceName: instance.name,
        status: name == "Two" ? .unknown : .online, reason: nil, detail: nil,
        layers: ProbeLayers(), checkedAt: harness.clock.clock.now(), latencyMS: 3)
      if name == "Two" { result.localFailure = "Too many open files" }
      results.append(result)
    }
    let recorder = StatusRecorder(
      store: harness.store, logger: Logger(label: "test", handler: harness.logs))
    #expect(throws: LocalProbeFailure(detail: "Too many open files")) {
      try recorder.record(results)
    }
    let statuses = StatusRepository(store: harness.store)
    #expect(try statuses.get(instanceID: results[0].instanceID)?.status == "online")
    #expect(try statuses.get(instanceID: results[1].instanceID) == nil)
    #expect(try statuses.get(instanceID: results[2].instanceID)?.status == "online")
    #expect(try ConnectionLogRepository(store: harness.store).list().count == 2)
    // Recorded again: the previous statuses come back, per instance.
    let previous = try recorder.record([results[0], results[2]])
    #expect(previous.count == 2)
    #expect(previous[results[0].instanceID] == .some(.online))
  }

  @Test func concurrencyIsCappedToTheOpenFileLimitAndSaid() {
    let streams = CapturedStreams()
    let environment = AppEnvironment.test(
      dataDirectory: URL(fileURLWithPath: "/nonexistent"), streams: streams.streams)
    #expect(environment.cappedConcurrency(32, total: 100, descriptorsEach: 8, limit: 1 << 20) == 32)
    #expect(streams.error.isEmpty)
    let capped = environment.cappedConcurrency(1000, total: 100, descriptorsEach: 8, limit: 256)
    #expect(capped == (256 - ProcessLimits.reservedDescriptors) / 8)
    #expect(streams.error.contains("open-file limit (256)"))
    #expect(environment.cappedConcurrency(1000, total: 100, descriptorsEach: 8, limit: 64) == 1)
  }
}
