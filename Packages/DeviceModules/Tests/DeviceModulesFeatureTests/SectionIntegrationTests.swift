import CommandLineKit
import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import SimAdminClient
import SimAdminSimulator
import Testing

@testable import DeviceModulesFeature

@Suite("Sections against the simulator")
struct SectionIntegrationTests {
  @Test("every section loads with auth off", arguments: DeviceSection.allCases)
  func authOff(_ section: DeviceSection) async throws {
    try await FeatureHarness(.deviceModules, devices: [DeviceProfile(name: "open")]).use {
      harness in
      let report = try await harness.report("open", [section])
      let state = try #require(report.state(section))
      #expect(state.status == .loaded)
      #expect(state.content != nil)
      #expect(state.fetchedAt == harness.testStore.clock.clock.now())
      #expect(report.sections.count == 1)
    }
  }

  @Test("with auth on, a stored password logs in and every section loads")
  func authOnWithPassword() async throws {
    try await FeatureHarness(
      .deviceModules, devices: [DeviceProfile(name: "locked", password: "s3cret-pass")],
      passwords: ["locked": "s3cret-pass"]
    ).use { harness in
      let report = try await harness.report("locked")
      #expect(report.sections.map(\.section) == DeviceSection.allCases)
      for state in report.sections {
        #expect(state.status == .loaded, "\(state.section)")
      }
    }
  }

  @Test("with auth on and no stored password, every section says login required")
  func authOnWithoutPassword() async throws {
    try await FeatureHarness(
      .deviceModules, devices: [DeviceProfile(name: "locked", password: "s3cret-pass")]
    ).use {
      harness in
      let report = try await harness.report("locked")
      for state in report.sections {
        #expect(state.status == .loginRequired, "\(state.section)")
        #expect(state.content == nil)
      }
      #expect(report.hasFailures)
    }
  }

  @Test("protection on with no admin password set: its own status, stored password or not")
  func protectionWithoutPassword() async throws {
    try await FeatureHarness(
      .deviceModules,
      devices: [
        DeviceProfile(name: "unset", protectedWithoutPassword: true),
        DeviceProfile(name: "unset stored", protectedWithoutPassword: true),
      ], passwords: ["unset stored": "cannot-help"]
    ).use { harness in
      for name in ["unset", "unset stored"] {
        let report = try await harness.report(name)
        for state in report.sections {
          #expect(state.status == .passwordNotSet, "\(name) \(state.section)")
          #expect(state.status.code == "passwordNotSet")
        }
        let state = try #require(report.state(.sim))
        #expect(state.status.message(.english)?.contains("no admin password set") == true)
        #expect(state.status.message(.english)?.contains("Store") == false)
        #expect(state.status.message(.simplifiedChinese)?.contains("尚未设置管理员密码") == true)
      }
    }
  }

  @Test("cells from the simulator: centi-dB shown as dBm, band without its prefix, unknowns dashed")
  func cellsFromTheSimulator() async throws {
    try await FeatureHarness(.deviceModules, devices: [DeviceProfile(name: "nr", seed: 11)]).use {
      harness in
      let report = try await harness.report("nr", [.cellular])
      let state = try #require(report.state(.cellular))
      guard case .cellular(let snapshot) = try #require(state.content) else {
        Issue.record("no cellular content")
        return
      }
      let serving = try #require(snapshot.cells?.cells.first { $0.isServing })
      let rsrp = try #require(serving.rsrp)
      #expect((-140.0 ... -44.0).contains(rsrp), "\(rsrp) is dBm, not centi-dB")
      #expect(serving.bandInfo.label != nil)
      #expect(Int(serving.cellID) != nil)
    }
  }

  @Test("no modem: modem sections show the device's own message, the rest still load")
  func noModem() async throws {
    try await FeatureHarness(
      .deviceModules, devices: [DeviceProfile(name: "bare", hasModem: false)]
    ).use { harness in
      let report = try await harness.report("bare")
      for section in [DeviceSection.device, .sim, .cellular] {
        #expect(report.state(section)?.status == .upstream(message: DeviceProfile.noModemMessage))
      }
      // The SMS database keeps working without a modem (SIMADMIN-API §4).
      for section in [DeviceSection.sms, .resources, .cpu, .connection] {
        #expect(report.state(section)?.status == .loaded, "\(section)")
      }
      // The device's text is shown untranslated in both languages.
      let state = try #require(report.state(.sim))
      #expect(state.status.message(.english) == DeviceProfile.noModemMessage)
      #expect(state.status.message(.simplifiedChinese) == DeviceProfile.noModemMessage)
    }
  }

  @Test("version 1.1.8 serves every section")
  func oldVersion() async throws {
    try await FeatureHarness(
      .deviceModules, devices: [DeviceProfile(name: "old", version: "1.1.8")]
    ).use { harness in
      let report = try await harness.report("old")
      #expect(!report.hasFailures)
      #expect(report.sections.allSatisfy { $0.status == .loaded })
    }
  }

  @Test("a hanging /api/stats times out at its timeout; the other sections render")
  func hangingStats() async throws {
    // A 4 s timeout keeps "overlapping" (about 4 s) and "adding up" (8 s) far apart, so a
    // loaded machine cannot blur the two.
    try await FeatureHarness(
      .deviceModules,
      devices: [DeviceProfile(name: "slow", faults: [FaultRule(.hang, pathPrefix: "/api/stats")])],
      timeout: 4
    ).use { harness in
      let start = ContinuousClock.now
      let report = try await harness.report("slow")
      let elapsed = ContinuousClock.now - start
      // The prefix also covers /api/stats/cpu, so both of its sections time out.
      #expect(report.state(.resources)?.status == .timeout)
      #expect(report.state(.cpu)?.status == .timeout)
      for section in [DeviceSection.device, .sim, .cellular, .connection, .sms] {
        #expect(report.state(section)?.status == .loaded, "\(section)")
      }
      // Fetched concurrently: the two hangs overlap instead of adding up.
      #expect(elapsed >= .milliseconds(3_900))
      #expect(elapsed < .seconds(7.5))
    }
  }

  @Test("a plain-text 404 from the device maps to not supported")
  func notSupportedMapping() {
    #expect(SectionStatus(.notSupported) == .notSupported)
  }

  @Test("the route loader of a section returns only that section")
  func routeLoad() async throws {
    try await FeatureHarness(.deviceModules, devices: [DeviceProfile(name: "open")]).use {
      harness in
      let route = try #require(
        DeviceModules.module.routes.first { $0.pattern.description == "device/:ref/sim" })
      let request = RouteRequest(
        path: "device/open/sim", parameters: ["ref": "open"], environment: harness.environment)
      let state = try #require(try await route.load(request) as? DeviceReport)
      #expect(state.sections.map(\.section) == [.sim])
      let view = route.view(of: state, request)
      #expect(view.typeName == "screen")
    }
  }
}
