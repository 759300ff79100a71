import FeatureKitTesting

@testable import DeviceModulesFeature

extension TestedFeature {
  /// The DeviceModules module: it keeps nothing in the store of its own.
  static let deviceModules = TestedFeature(DeviceModules.module)
}

extension FeatureHarness {
  /// Loads `sections` of the instance named `name` the way the routes do.
  func report(_ name: String, _ sections: [DeviceSection] = DeviceSection.allCases) async throws
    -> DeviceReport
  {
    let access = try DeviceAccess.resolve(name, in: environment)
    return await access.report(sections, environment: environment)
  }
}
