import Essentials
import FeatureKit
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import SimAdminClient
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

/// What iOS answers every request with when the owner has not allowed the app on the local
/// network (only an iPhone produces it; this transport stands in for it).
struct LocalNetworkDeniedTransport: HTTPTransport {
  func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(HTTPTransportError)
    -> HTTPResponse
  {
    throw .localNetworkDenied
  }
}

@Suite struct LocalNetworkPermissionTests {
  /// A refused local-network permission is not the device being Offline: the status stays
  /// Unknown with its own reason, which says where to allow it.
  @Test func aDeniedLocalNetworkIsUnknownWithItsOwnReasonNotOffline() async throws {
    let harness = try FeatureHarness(.fleet, transport: LocalNetworkDeniedTransport())
    let instance = try harness.registry.add(
      name: "Lab", origin: try InstanceOrigin(parsing: "http://192.168.1.20:3000"))
    let outcome = await harness.outcome(["fleet", "test", instance.id])
    #expect(outcome.exitCode == .failure)
    let record = try #require(
      try StatusRepository(store: harness.store).get(instanceID: instance.id))
    #expect(record.status == InstanceStatus.unknown.rawValue)
    #expect(record.reason == StatusReason.localNetworkDenied.rawValue)
    let english = StatusReason.localNetworkDenied.text(.english)
    #expect(english.contains("Settings › Privacy & Security › Local Network"))
    #expect(StatusReason.localNetworkDenied.text(.simplifiedChinese).contains("本地网络"))
  }
}
