import FeatureKit
import Foundation
import LocalStore
import SimAdminClient

/// The instance named by a reference and its session, resolved from the environment's services.
struct DeviceAccess: Sendable {
  let instance: Instance
  let session: SimAdminSession

  /// Resolves `ref` (exact name or unique id prefix) in the store and opens its session.
  static func resolve(_ ref: String, in environment: AppEnvironment) throws -> DeviceAccess {
    let store = try environment.services.resolve(Store.self)
    let connector = try environment.services.resolve(SimAdminConnector.self)
    let instance = try InstanceRepository(store: store).resolve(reference: ref)
    let session = connector.session(
      for: instance.id, name: instance.name, origin: instance.origin.url)
    return DeviceAccess(instance: instance, session: session)
  }

  var target: DeviceTarget {
    DeviceTarget(id: instance.id, name: instance.name, origin: instance.origin.string)
  }

  /// Fetches `sections` concurrently into a report.
  func report(
    _ sections: [DeviceSection], environment: AppEnvironment, smsLimit: Int = 20,
    showBodies: Bool = false
  ) async -> DeviceReport {
    let loader = SectionLoader(
      session: session, clock: environment.clock, smsLimit: smsLimit, showBodies: showBodies)
    return DeviceReport(instance: target, sections: await loader.load(sections))
  }
}
