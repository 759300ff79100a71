import Essentials
import FeatureKit
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import Testing

@Suite struct LocalFailureTests {
  @Test func aLocalFailureIsNeverRecordedAsTheDevicesStatus() throws {
    let harness = try Harness()
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
