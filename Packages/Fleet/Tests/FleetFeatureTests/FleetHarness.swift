import FeatureKitTesting
import FleetFeature
import LocalStore
import SimAdminSimulator
import Testing

extension TestedFeature {
  /// The Fleet module: its tables are core's.
  static let fleet = TestedFeature(Fleet.module)
}

extension FeatureHarness {
  /// Adds every device of `fleet` with `msa fleet add` under its profile's name, storing
  /// `passwords` by name; the harness reaches them in memory.
  func register(_ fleet: SimulatedFleet, passwords: [String: String] = [:]) async {
    attach(fleet)
    for device in fleet.devices {
      let name = device.profile.name
      var arguments = ["fleet", "add", "--name", name, "--url", device.origin.absoluteString]
      if passwords[name] != nil { arguments.append("--password-stdin") }
      let outcome = await self.outcome(arguments, input: passwords[name])
      #expect(outcome.exitCode == .success, "\(outcome.message)")
    }
  }

  /// Everything a bad input must leave untouched: instances, groups, statuses, passwords.
  func fingerprint() throws -> String {
    let instances = try registry.list().map { "\($0.id)|\($0.name)|\($0.origin)|\($0.revision)" }
    let groups = try registry.listGroups().map { "\($0.id)|\($0.name)" }
    let statuses = try StatusRepository(store: store).all().map { "\($0.instanceID)|\($0.status)" }
    let passwords = (try? store.credentials.instanceIDsWithPasswords()) ?? ["unreadable"]
    return [instances, groups, statuses, passwords].map { $0.joined(separator: ",") }
      .joined(separator: "\n")
  }
}
