import Essentials
import FeatureKitTesting
import FleetFeature
import Foundation
import LocalStore
import SimAdminClient
import SimAdminSimulator
import Testing

@Suite(.serialized) struct ProbeTests {
  /// Adds every device of `fleet` under its profile's name, storing `passwords` by name.
  func register(
    _ fleet: SimulatedFleet, in harness: FeatureHarness, passwords: [String: String] = [:]
  ) async throws {
    await harness.register(fleet, passwords: passwords)
  }

  @Test func eachCaseGetsItsStatusAndReason() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "open", smsCount: 3),
      DeviceProfile(name: "locked", password: "right-pw", smsCount: 3),
      DeviceProfile(name: "wrongpw", password: "right-pw", smsCount: 3),
      DeviceProfile(name: "nopw", password: "right-pw", smsCount: 3),
      DeviceProfile(name: "nomodem", hasModem: false, smsCount: 0),
      DeviceProfile(name: "old", version: "1.1.8", smsCount: 3),
      DeviceProfile(name: "hang", smsCount: 0, faults: [FaultRule(.hang)]),
      DeviceProfile(name: "reset", smsCount: 0, faults: [FaultRule(.reset)]),
      DeviceProfile(name: "broken", smsCount: 0, faults: [FaultRule(.serverError)]),
    ])
    let harness = try FeatureHarness(.fleet)
    try await register(
      fleet, in: harness, passwords: ["locked": "right-pw", "wrongpw": "nope"])

    let started = ContinuousClock.now
    let outcome = await harness.outcome(
      ["fleet", "test", "--all", "--timeout", "1", "--concurrency", "4"])
    let elapsed = ContinuousClock.now - started
    await fleet.stop()

    #expect(outcome.exitCode == .failure)
    let results = try outcome.payload(TestPayload.self).results
    let byName = Dictionary(uniqueKeysWithValues: results.map { ($0.instanceName, $0) })
    func expect(
      _ name: String, _ status: InstanceStatus, _ reason: StatusReason?,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      let result = byName[name]
      #expect(result?.status == status, "\(name)", sourceLocation: sourceLocation)
      #expect(result?.reason == reason, "\(name)", sourceLocation: sourceLocation)
    }
    expect("open", .online, nil)
    expect("locked", .online, nil)
    expect("wrongpw", .loginRequired, .wrongPassword)
    expect("nopw", .loginRequired, .noPassword)
    expect("nomodem", .degraded, .noModem)
    expect("old", .online, nil)
    expect("hang", .offline, .timeout)
    expect("reset", .offline, .reset)
    expect("broken", .offline, .serverError)
    #expect(byName["old"]?.version == "1.1.8")
    #expect(byName["open"]?.layers.data == .ok)
    #expect(byName["nomodem"]?.layers.modem == .failed)
    #expect(byName["open"]?.snapshot?.operatorName != nil)
    #expect(byName["open"]?.snapshot?.latestSMS != nil)
    // The hang ended at its own timeout: the whole run is bounded by a few timeouts.
    #expect(elapsed < .seconds(8))

    // Stored: status per instance, one connection-log record per probe, progress on stderr.
    let statuses = try StatusRepository(store: harness.store).all()
    #expect(statuses.count == 9)
    let log = try ConnectionLogRepository(store: harness.store).list()
    #expect(log.count == 9)
    #expect(log.contains { $0.instanceName == "hang" && $0.result == "timeout" })
    // Each record keeps the device requests of its probe: method, route, status, bytes, ms;
    // never a cookie, a password or a body.
    let open = try #require(log.first { $0.instanceName == "open" })
    let routes = Set(open.requests.map { "\($0.method) \($0.route)" })
    // Seven calls, each feeding the status or the workbench; the auth layer is told by them.
    #expect(
      routes == [
        "GET /api/health", "GET /api/device", "GET /api/sim", "GET /api/network", "GET /api/data",
        "GET /api/stats", "GET /api/sms/list",
      ])
    #expect(open.requests.count == 7)
    #expect(open.requests.allSatisfy { $0.status == 200 && ($0.bytes ?? 0) > 0 })
    let locked = try #require(log.first { $0.instanceName == "locked" })
    #expect(locked.requests.contains { $0.route == "/api/auth/login" && $0.status == 200 })
    #expect(locked.requests.contains { $0.status == 401 })
    let reset = try #require(log.first { $0.instanceName == "reset" })
    #expect(
      reset.requests.contains { $0.route == "/api/health" && $0.status == nil && $0.failure != nil }
    )
    let stored = try harness.store.database.query("SELECT requests FROM connection_log")
      .map { try $0.string("requests") }.joined()
    #expect(!stored.contains("right-pw") && !stored.lowercased().contains("cookie"))
    #expect(!stored.contains("simadmin_session"))
    #expect(outcome.stderr.contains("[9/9]"))
    // Status changes (unknown → x) reach the runtime log without secrets.
    let changes = harness.logs.records.filter { $0.message == "fleet.statusChanged" }
    #expect(changes.count == 9)
    #expect(!harness.logs.records.map(\.line).joined().contains("right-pw"))
    // The SMS preview in the snapshot is masked.
    let text = outcome.text(width: 160)
    #expect(text.contains("timed out"))
    #expect(text.contains("wrong password"))
  }

  @Test func offlineInstanceKeepsLastValuesMarkedStale() async throws {
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "flaky", smsCount: 2)])
    let harness = try FeatureHarness(.fleet)
    try await register(fleet, in: harness)
    let first = await harness.outcome(["fleet", "test", "flaky", "--timeout", "2"])
    #expect(first.exitCode == .success, "\(first.message)")
    let phone = try #require(
      try first.payload(TestPayload.self).results.first?.snapshot?.phoneNumber)

    harness.clock.advance(by: 300)
    fleet.devices[0].setFaults([FaultRule(.reset)])
    let second = await harness.outcome(["fleet", "test", "flaky", "--timeout", "2"])
    await fleet.stop()
    #expect(second.exitCode == .failure)

    let shown = await harness.outcome(["fleet", "show", "flaky"])
    let row = try #require(try shown.payload(InstancesPayload.self).instances.first)
    #expect(row.status == .offline)
    #expect(row.isStale)
    #expect(row.snapshot?.phoneNumber == phone)
    let text = shown.text(width: 160)
    #expect(text.contains("Not live"))
    #expect(text.contains("5 min ago"))
    let list = await harness.outcome(["fleet", "list"])
    #expect(list.text(width: 160).contains("stale, 5 min ago"))
    let log = try ConnectionLogRepository(store: harness.store).list()
    #expect(log.first?.previousStatus == "online")
    #expect(log.first?.status == "offline")
  }

  @Test func hundredDevicesConcurrently() async throws {
    let profiles = (0..<100).map { DeviceProfile(name: "d\($0)", smsCount: 1, seed: UInt64($0)) }
    let fleet = try await SimulatedFleet.start(profiles)
    let harness = try FeatureHarness(.fleet)
    for device in fleet.devices {
      _ = try harness.registry.add(
        name: device.profile.name, origin: InstanceOrigin(parsing: device.origin.absoluteString))
    }
    let outcome = await harness.outcome(["fleet", "test", "--all", "--timeout", "20"])
    await fleet.stop()
    let results = try outcome.payload(TestPayload.self).results
    #expect(results.count == 100)
    #expect(
      results.allSatisfy { $0.status == .online },
      "\(results.filter { $0.status != .online }.map { "\($0.instanceName) \($0.reason?.rawValue ?? "")" })"
    )
    #expect(outcome.exitCode == .success)
  }

  @Test func loginAndLogoutCommands() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "locked", password: "pw-1", smsCount: 0)
    ])
    let harness = try FeatureHarness(.fleet)
    try await register(fleet, in: harness)
    let wrong = await harness.outcome(
      ["fleet", "login", "locked", "--password-stdin"], input: "bad\n")
    #expect(wrong.exitCode == .failure)
    #expect(wrong.message.contains("Wrong password"), "\(wrong.message)")
    let id = try #require(try harness.registry.list().first?.id)
    #expect(try harness.store.credentials.password(for: id) == nil)
    let right = await harness.outcome(
      ["fleet", "login", "locked", "--password-stdin"], input: "pw-1\n")
    #expect(right.exitCode == .success, "\(right.message)")
    #expect(try harness.store.credentials.password(for: id) == "pw-1")
    #expect(fleet.devices[0].activeSessionCount == 1)
    let out = await harness.outcome(["fleet", "logout", "locked"])
    #expect(out.exitCode == .success)
    #expect(fleet.devices[0].activeSessionCount == 0)
    await fleet.stop()
  }
}
