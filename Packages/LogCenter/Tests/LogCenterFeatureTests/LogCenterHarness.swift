import FeatureKitTesting
import Foundation
import LocalStore

@testable import LogCenterFeature

extension TestedFeature {
  /// The LogCenter module: its tables are core's.
  static let logCenter = TestedFeature(LogCenter.module)
}

extension FeatureHarness {
  /// Records one probe of `instance` in the connection log, stamped with the harness's clock.
  func addProbe(
    _ instance: Instance, result: String, status: String, previous: String? = nil,
    reason: String? = nil
  ) throws {
    try ConnectionLogRepository(store: store).append(
      ConnectionLogEntry(
        instanceID: instance.id, instanceName: instance.name, at: clock.clock.now(),
        result: result, status: status, previousStatus: previous, latencyMS: 42, reason: reason))
  }

  /// The names in the data directory, sorted.
  func fileNames() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
  }
}
