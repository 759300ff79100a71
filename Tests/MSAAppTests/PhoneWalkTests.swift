import AppCore
import AppRuntime
import Essentials
import FeatureKit
import Foundation
import SimAdminSimulator
import Testing

@testable import FleetFeature
@testable import MSAApp

/// The iPhone app walked on Linux in both languages: every flow of issue 28 performed by the
/// messages the views send, the transcript compared with docs/ios/walk-<language>.txt (and
/// rewritten with `SNAPSHOT_RECORD=1`), terminal words, one-line strings too wide for 390
/// points, routes without a phone screen, flows that cannot finish and request counts over
/// budget failing the walk.
@Suite("The iPhone app walked on Linux", .serialized)
struct PhoneWalkTests {
  /// The modules walked (the app's own list, in its order).
  static var modules: [FeatureModule] {
    CompiledFeatures.modules.filter { ["fleet"].contains($0.id) }
  }

  @MainActor
  @Test(arguments: [AppLanguage.english, .simplifiedChinese])
  func everyFlowFinishesInBothLanguages(language: AppLanguage) async throws {
    let walker = try await PhoneWalker(language: language, modules: Self.modules)
    do {
      try await walkFleet(walker)
    } catch {
      await walker.stop()
      throw error
    }
    await walker.stop()
    for problem in walker.problems { Issue.record(Comment(rawValue: problem)) }
    let registry = walker.session.context.registry
    #expect(registry.routesWithoutPhoneScreen == [])
    try compare(walker.transcript, language: language)
  }

  /// The transcript must be the committed one.
  func compare(_ transcript: String, language: AppLanguage) throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent(
        "../../docs/ios/walk-\(language.rawValue == "en" ? "en" : "zh-Hans").txt"
      )
      .standardized
    let record = ["1", "true", "yes"].contains(
      ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"]?.lowercased() ?? "")
    let committed = try? String(contentsOf: file, encoding: .utf8)
    if record {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try transcript.write(to: file, atomically: true, encoding: .utf8)
      if committed != transcript {
        Issue.record("rewrote \(file.path); run again without SNAPSHOT_RECORD")
      }
      return
    }
    guard let committed else {
      Issue.record("no transcript at \(file.path): run with SNAPSHOT_RECORD=1")
      return
    }
    if committed != transcript {
      let old = committed.split(separator: "\n", omittingEmptySubsequences: false)
      let new = transcript.split(separator: "\n", omittingEmptySubsequences: false)
      let first = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }
      let line = first?.offset ?? min(old.count, new.count)
      Issue.record(
        """
        \(file.lastPathComponent) is not current (line \(line + 1)):
        committed: \(line < old.count ? String(old[line]) : "<end>")
        walked:    \(line < new.count ? String(new[line]) : "<end>")
        Run with SNAPSHOT_RECORD=1 to rewrite it.
        """)
    }
  }

  // MARK: - 节点

  @MainActor
  func walkFleet(_ walker: PhoneWalker) async throws {
    let session = walker.session
    session.start()
    await walker.settle()
    walker.show("First launch: no device yet")
    var list = try walker.screen(FleetListModel.self)
    #expect(list.rows.isEmpty)

    // + → the add form; Save with nothing typed names what is missing.
    list.add()
    await walker.settle()
    var form = try walker.screen(InstanceFormModel.self)
    await form.save()
    walker.show("Add: Save with empty fields")
    #expect(form.problem("name") != nil && form.problem("url") != nil)

    // The password device, with a wrong password first; a new group.
    form.name = "Lab"
    form.url = walker.origin("Lab")
    form.tags = "lab, 5g"
    form.group = .new
    form.newGroup = "Shenzhen"
    form.password = "wrong-password"
    walker.show("Add: the password device filled in")
    await form.save()
    await walker.settle()
    walker.show("Added with a wrong password: the list says so")
    list = try walker.screen(FleetListModel.self)
    #expect(list.rows.first?.reason == .wrongPassword)

    for (name, tags) in [("NoModem", "lab"), ("Hanging", ""), ("Traffic", "5g")] {
      list.add()
      await walker.settle()
      form = try walker.screen(InstanceFormModel.self)
      form.name = name
      form.url = walker.origin(name)
      form.tags = tags
      if name == "NoModem" { form.group = .existing("Shenzhen") }
      await form.save()
      await walker.settle()
    }
    list = try walker.screen(FleetListModel.self)
    walker.show("Four devices added")
    #expect(list.rows.count == 4)

    // Search and filters.
    list.search = "traf"
    walker.show("Search “traf”")
    #expect(list.visibleRows.map(\.name) == ["Traffic"])
    list.search = ""
    list.filter(group: "Shenzhen")
    walker.show("Filter: group Shenzhen")
    #expect(Set(list.visibleRows.map(\.name)) == ["Lab", "NoModem"])
    list.filter(group: nil)
    list.filter(tag: "5g")
    list.filter(status: .online)
    walker.show("Filter: tag 5g, status online")
    #expect(list.visibleRows.map(\.name) == ["Traffic"])
    list.filter(status: .offline)
    walker.show("Filter: nothing matches")
    #expect(list.visibleRows.isEmpty)
    list.clearFilters()

    // The password device: wrong password shown as such, the prompt, a wrong then the right
    // password, logout.
    let lab = try #require(list.rows.first { $0.name == "Lab" })
    list.tap(lab.id)
    await walker.settle()
    let detail = try walker.screen(InstanceDetailModel.self)
    walker.show("Lab: wrong password")
    detail.askLogin()
    walker.show("Log in: the password prompt")
    detail.password = "still-wrong"
    await detail.login()
    walker.show("Log in: a wrong password")
    #expect(detail.isAskingPassword && detail.loginProblem != nil)
    detail.password = "s3cret-lab"
    await detail.login()
    walker.show("Logged in: online")
    #expect(!detail.isAskingPassword && detail.row?.status == .online)
    await detail.logout()
    walker.show("Logged out")

    // Edit: rename, drop a tag; Save tests again and comes back with what it found.
    detail.edit()
    await walker.settle()
    form = try walker.screen(InstanceFormModel.self)
    walker.show("Edit Lab")
    form.name = "Lab 1"
    form.tags = "lab"
    await form.save()
    await walker.settle()
    walker.show("Saved: back on the device")
    #expect(detail.row?.name == "Lab 1" && detail.row?.tags == ["lab"])

    // Back to the list: nothing is fetched again.
    let back = await walker.requests(to: "Traffic") {
      session.close()
    }
    if !back.isEmpty { walker.fail("going back to the list asked a device \(back.count) times") }
    list = try walker.screen(FleetListModel.self)

    // Pull to refresh: one test of every device, each within the probe's budget.
    var counts: [String: Int] = [:]
    for device in walker.fleet.devices { device.clearRequests() }
    await list.refresh()
    await walker.settle()
    for device in walker.fleet.devices {
      let requests = device.requests()
      counts[device.profile.name] = requests.count
      let logins = requests.filter { $0.target.hasPrefix("/api/auth/login") }.count
      if requests.count - logins > 7 || logins > 1 {
        walker.fail(
          "a refresh of the list asked \(device.profile.name) \(requests.count) times "
            + "(\(logins) logins; budget 7 and 1)")
      }
    }
    walker.show("Pull to refresh")
    walker.note(
      "requests per device: "
        + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))

    // Batch: select two, test them; select the hanging one, remove it (anyway).
    list.toggleSelecting()
    for name in ["NoModem", "Hanging"] {
      list.toggle(try #require(list.rows.first { $0.name == name }).id)
    }
    walker.show("Selecting two devices")
    await list.testSelection()
    walker.show("Tested the selection")
    list.toggleSelecting()
    list.toggle(try #require(list.rows.first { $0.name == "Hanging" }).id)
    list.removeSelection()
    walker.show("Remove: the confirmation names the count")
    await list.confirm()
    if case .removeAnyway? = list.confirmation {
      walker.show("Remove: the device cannot be reached")
      await list.confirm()
    }
    walker.show("Removed")
    #expect(!list.rows.contains { $0.name == "Hanging" })

    // A swipe's remove, cancelled.
    list.askRemove(try #require(list.rows.first { $0.name == "NoModem" }).id)
    list.cancelConfirmation()
    walker.show("Remove cancelled")
    #expect(list.rows.count == 3)
  }
}
