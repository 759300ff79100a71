import AppCore
import AppRuntime
import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminSimulator
import Testing

@testable import DeviceModulesFeature
@testable import FleetFeature
@testable import LogCenterFeature
@testable import MSAApp
@testable import MessagesFeature

/// The iPhone app walked on Linux in both languages: every flow of issue 28 performed by the
/// messages the views send, the transcript compared with docs/ios/walk-<language>.txt (and
/// rewritten with `SNAPSHOT_RECORD=1`), terminal words, one-line strings too wide for 390
/// points, routes without a phone screen, flows that cannot finish and request counts over
/// budget failing the walk.
@Suite("The iPhone app walked on Linux", .serialized)
struct PhoneWalkTests {
  /// The modules walked (the app's own list, in its order).
  static var modules: [FeatureModule] { CompiledFeatures.modules }

  @MainActor
  @Test(arguments: [AppLanguage.english, .simplifiedChinese])
  func everyFlowFinishesInBothLanguages(language: AppLanguage) async throws {
    let walker = try await PhoneWalker(language: language, modules: Self.modules)
    do {
      try await walkFleet(walker)
      try await walkMessages(walker)
      try await walkDevices(walker)
      try await walkSettings(walker)
      try await walkRelease(walker)
    } catch {
      await walker.stop()
      throw error
    }
    await walker.stop()
    for problem in walker.problems { Issue.record(Comment(rawValue: problem)) }
    let registry = walker.session.context.registry
    #expect(registry.routesWithoutPhoneScreen == [])
    // Every route of the app was shown in the walk.
    let unreached = registry.routes.map(\.route.pattern.description).filter {
      !walker.reached.contains($0)
    }
    #expect(unreached == [], "routes the walk never showed")
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

  // MARK: - 消息

  @MainActor
  func walkMessages(_ walker: PhoneWalker) async throws {
    let session = walker.session
    session.selectTab(1)
    var list = try walker.screen(MessageListModel.self)
    // The empty archive while its first sync runs: the sync is shown on it.
    var shownEmpty = false
    let token = list.changes.observe { [list] in
      guard !shownEmpty, list.isSyncing, list.messages.isEmpty else { return }
      shownEmpty = true
      walker.show("Messages, first visit: the empty archive syncing")
    }
    await walker.settle()
    list.changes.stop(token)
    if !shownEmpty { walker.fail("the empty archive never showed its sync") }
    walker.show("The first sync ended")
    #expect(!list.messages.isEmpty)

    // Load more until every archived message is reachable.
    let store = try walker.session.environment.services.resolve(Store.self)
    let total = try MessageArchive(store: store).count()
    var pages = 1
    while list.nextCursor != nil && pages < 100 {
      await list.loadMore()
      pages += 1
      if pages == 2 { walker.show("Load more") }
    }
    walker.note("pages: \(pages), messages shown: \(list.messages.count) of \(total)")
    #expect(list.messages.count == total)

    // SMS traffic: a code arrives; a pull syncs it in; one tap copies it, masked.
    walker.device("Traffic").receiveSMS(
      from: "95588", content: "【工商银行】您的验证码 482913，5 分钟内有效。Your code is 482913.")
    await list.refresh()
    walker.show("Pull to refresh: a code arrived")
    let coded = try #require(list.messages.first)
    #expect(coded.code == "482913")
    #expect(list.copyCode(coded.id) == "482913")
    walker.show("Copied the code with one tap (still masked)")
    list.toggleReveal(coded.id)
    walker.show("Revealed one message")
    list.toggleReveal(coded.id)

    // Search and filters.
    await list.search("482913")
    walker.show("Search “482913”")
    #expect(list.messages.map(\.id) == [coded.id])
    await list.search("")
    await list.filter(codesOnly: true)
    await list.filter(direction: "incoming")
    walker.show("Filters: received, codes only")
    await list.filter(codesOnly: false)
    await list.filter(direction: nil)
    let lab = try #require(list.instances.first { $0.name == "Lab 1" })
    await list.filter(instance: lab.id)
    walker.show("Filter: device Lab 1")
    await list.filter(instance: nil)

    // The conversation: bubbles opening at the newest; a reply from a chosen device.
    list.open(coded)
    await walker.settle()
    let thread = try walker.screen(ThreadModel.self)
    walker.show("The conversation with 95588")
    #expect(thread.anchor == thread.messages.last?.id)
    thread.toggleRevealAll()
    thread.fromID = try #require(thread.instances.first { $0.name == "Traffic" }).id
    thread.draft = "谢谢 / Thanks"
    await thread.send()
    walker.show("Replied from Traffic")
    let back = await walker.requests(to: "Traffic") { session.close() }
    if !back.isEmpty { walker.fail("going back to the archive asked a device \(back.count) times") }
    list = try walker.screen(MessageListModel.self)

    // Conversations.
    list.openConversations()
    await walker.settle()
    walker.show("Conversations")
    session.close()

    // Compose: problems first, then sent, queued (device down), not sent (no modem) and a
    // send that gets no answer in time.
    list.compose()
    await walker.settle()
    var compose = try walker.screen(ComposeModel.self)
    await compose.send()
    walker.show("Compose: Send with nothing typed")
    func send(from name: String, to number: String, _ text: String) async throws {
      compose.fromID = try #require(compose.instances.first { $0.name == name }).id
      compose.to = number
      compose.body = text
      await compose.send()
    }
    try await send(from: "Lab 1", to: "+86 138 0013 8000", "Hello from Lab 1")
    walker.show("Compose: sent")
    compose.done()
    await walker.settle()
    list.compose()
    await walker.settle()
    compose = try walker.screen(ComposeModel.self)
    walker.device("Traffic").setFaults([FaultRule(.down)])
    try await send(from: "Traffic", to: "10086", "Queued while Traffic is down")
    walker.show("Compose: queued, and why")
    try await send(from: "NoModem", to: "10086", "No modem here")
    walker.show("Compose: not sent, and why")
    walker.device("Lab").setFaults([FaultRule(.hang, pathPrefix: "/api/sms/send")])
    try await send(from: "Lab 1", to: "10010", "No answer in time")
    walker.show("Compose: no answer in time")
    compose.openOutbox()
    await walker.settle()

    // The outbox: retry the queued one once Traffic is back; cancel the other.
    walker.device("Traffic").setFaults([])
    walker.device("Lab").setFaults([])
    let outbox = try walker.screen(OutboxModel.self)
    walker.show("The outbox")
    let queued = try #require(outbox.entries.first { $0.body.hasPrefix("Queued") })
    await outbox.askRetry(queued.id)
    walker.show("Outbox: retried")
    #expect(outbox.entries.first { $0.id == queued.id }?.state == .sent)
    // Cancel: what was not sent is never sent.
    let cancellable = try #require(outbox.entries.first { outbox.canCancel($0) })
    outbox.askCancel(cancellable.id)
    walker.show("Outbox: cancel asks first")
    await outbox.confirmCancel()
    walker.show("Outbox: cancelled")
    #expect(outbox.entries.first { $0.id == cancellable.id }?.state == .cancelled)
    // An unknown outcome: a retry asks first, then checks the device's sent messages.
    if let unknown = outbox.entries.first(where: { $0.state.rawValue == "unknown" }) {
      await outbox.askRetry(unknown.id)
      walker.show("Outbox: retrying an unknown outcome asks first")
      await outbox.confirmRetry()
      walker.show("Outbox: the unknown outcome retried")
      #expect(outbox.entries.first { $0.id == unknown.id }?.state.rawValue != "unknown")
    } else {
      walker.fail("the send with no answer in time did not become unknown")
    }
    session.close()
    session.close()
    await walker.settle()
  }

  // MARK: - 设备

  @MainActor
  func walkDevices(_ walker: PhoneWalker) async throws {
    let session = walker.session
    session.selectTab(0)
    await walker.settle()
    var list = try walker.screen(FleetListModel.self)
    if session.state.stacks[0].count > 1 { session.close(toDepth: 1) }
    list = try walker.screen(FleetListModel.self)
    let lab = try #require(list.rows.first { $0.name == "Lab 1" })
    list.tap(lab.id)
    await walker.settle()
    let detail = try walker.screen(InstanceDetailModel.self)
    #expect(detail.canOpenSections)

    // The overview: loading cards, then one request per section.
    walker.device("Lab").clearRequests()
    detail.openSections()
    walker.show("Device overview: loading")
    await walker.settle()
    let overview = try walker.screen(DeviceOverviewModel.self)
    walker.show("Device overview: Lab 1")
    func checkBudget(_ step: String) {
      let requests = walker.device("Lab").requests()
      let logins = requests.filter { $0.target.hasPrefix("/api/auth/login") }.count
      walker.note("\(step): \(requests.count - logins) requests, \(logins) logins")
      if requests.count - logins > DeviceSection.allCases.count || logins > 1 {
        walker.fail("\(step) asked the device \(requests.count) times (budget: one per section)")
      }
    }
    checkBudget("the overview's first load")
    walker.device("Lab").clearRequests()
    await overview.refresh()
    checkBudget("the overview's refresh")

    // Each section in full; going back fetches nothing.
    for section in DeviceSection.allCases where section != .sms {
      overview.open(section)
      await walker.settle()
      walker.show("Section: \(section.rawValue)")
      let back = await walker.requests(to: "Lab") { session.close() }
      if !back.isEmpty {
        walker.fail("going back to the overview asked the device \(back.count) times")
      }
    }

    // The device's own SMS: reveal, send, delete (confirmed), then none left: its empty state.
    overview.open(.sms)
    await walker.settle()
    let sms = try walker.screen(DeviceSMSModel.self)
    walker.show("The device's SMS")
    let first = try #require(sms.messages.first)
    sms.toggleReveal(first.id)
    walker.show("The device's SMS: one revealed")
    sms.compose()
    sms.to = "10086"
    sms.body = "Balance?"
    walker.show("The device's SMS: send form")
    await sms.send()
    walker.show("The device's SMS: sent")
    sms.askDelete(try #require(sms.messages.first).id)
    walker.show("The device's SMS: delete asks first")
    await sms.confirmDelete()
    walker.show("The device's SMS: deleted")
    walker.device("Lab").deleteMessages(ids: walker.device("Lab").messages().map(\.id))
    await sms.refresh()
    walker.show("The device's SMS: none left")
    session.close()

    // The foreground: the screen shown refreshes once; nothing runs on its own.
    walker.device("Lab").clearRequests()
    session.enterForeground()
    await walker.settle()
    checkBudget("returning to the foreground")
    for device in walker.fleet.devices { device.clearRequests() }
    try await Task.sleep(nanoseconds: 1_500_000_000)
    let idle = walker.fleet.devices.reduce(0) { $0 + $1.requests().count }
    walker.note("requests while idle for 1.5 s: \(idle)")
    if idle > 0 { walker.fail("\(idle) requests went out while nobody touched the app") }
    session.close()
    session.close()

    // A device without a modem: its sections fail one by one, each saying why.
    list = try walker.screen(FleetListModel.self)
    list.tap(try #require(list.rows.first { $0.name == "NoModem" }).id)
    await walker.settle()
    try walker.screen(InstanceDetailModel.self).openSections()
    await walker.settle()
    walker.show("Device overview: no modem")
    let modemless = try walker.screen(DeviceOverviewModel.self)
    modemless.open(.sim)
    await walker.settle()
    walker.show("Section without a modem: SIM")
    session.close(toDepth: 1)
    await walker.settle()
  }

  // MARK: - 设置

  @MainActor
  func walkSettings(_ walker: PhoneWalker) async throws {
    let session = walker.session
    session.selectTab(2)
    await walker.settle()
    let settings = try walker.screen(SettingsModel.self)
    walker.show("Settings")
    #expect(settings.state?.plainHTTP.count == 3)

    settings.openData()
    await walker.settle()
    let data = try walker.screen(LocalDataModel.self)
    walker.show("Local data")
    await data.check()
    walker.show("Local data: checked")
    await data.compact()
    walker.show("Local data: compacted")
    await data.backup()
    walker.show("Local data: backed up")
    let backup = try #require(data.file)
    #expect(FileManager.default.fileExists(atPath: backup.url.path))
    #expect(backup.url.path.hasPrefix(walker.sandbox.appendingPathComponent("Documents").path))
    await data.exportRegistry()
    walker.show("Local data: devices exported")
    let exported = try String(contentsOf: try #require(data.file).url, encoding: .utf8)
    #expect(!exported.contains("s3cret-lab"), "the export holds a password")
    data.chooseBackup()
    data.picked(backup.url)
    walker.show("Local data: restore asks first")
    await data.confirm()
    walker.show("Local data: restored")
    session.close()

    settings.openLogs()
    await walker.settle()
    let logs = try walker.screen(LogListModel.self)
    walker.show("Log center", rows: 8)
    await logs.filter(kind: .connection)
    await logs.search("NoModem")
    walker.show("Log center: connection log, “NoModem”")
    await logs.search("")
    await logs.filter(kind: nil)
    await logs.filter(level: .warning)
    walker.show("Log center: warnings and worse", rows: 8)
    await logs.filter(level: nil)
    let record = try #require(logs.shown.first)
    logs.open(record)
    await walker.settle()
    walker.show("A log record")
    session.close()
    await logs.export(.csv)
    walker.show("Log center: exported as CSV", rows: 8)
    let csv = try String(contentsOf: try #require(logs.file).url, encoding: .utf8)
    #expect(!csv.contains("s3cret-lab") && !csv.contains("482913"), "the export holds a secret")
    logs.askTrim(.olderThanMonth)
    walker.show("Log center: trim asks first", rows: 8)
    await logs.confirm()
    walker.show("Log center: trimmed", rows: 8)
    await logs.askClear()
    walker.show("Log center: clear asks first", rows: 8)
    await logs.confirm()
    walker.show("Log center: cleared")
    session.close()
  }

  // MARK: - Release from Hub

  /// A device bound to a Hub: the release screen reads the binding (one request, nothing
  /// written), asks first, and "Release and remove" makes the device standalone and removes
  /// the node; a device that is not bound says removing changes nothing on it.
  @MainActor
  func walkRelease(_ walker: PhoneWalker) async throws {
    let session = walker.session
    session.selectTab(0)
    await walker.settle()
    if session.state.stacks[0].count > 1 { session.close(toDepth: 1) }
    await walker.settle()
    var list = try walker.screen(FleetListModel.self)

    list.tap(try #require(list.rows.first { $0.name == "NoModem" }).id)
    await walker.settle()
    try walker.screen(InstanceDetailModel.self).openRelease()
    await walker.settle()
    walker.show("Release from Hub: not bound")
    #expect(try walker.screen(ReleaseModel.self).boundURL == nil)
    session.close(toDepth: 1)
    await walker.settle()

    let lab = walker.device("Lab")
    lab.setHub(.bound(url: "http://10.0.0.9:8788"))
    list = try walker.screen(FleetListModel.self)
    list.tap(try #require(list.rows.first { $0.name == "Lab 1" }).id)
    await walker.settle()
    lab.clearRequests()
    try walker.screen(InstanceDetailModel.self).openRelease()
    await walker.settle()
    let release = try walker.screen(ReleaseModel.self)
    walker.show("Release from Hub: bound")
    let reads = lab.requests().filter { !$0.target.hasPrefix("/api/auth/login") }
    walker.note("opening the release screen: \(reads.count) request")
    if reads.count > 1 || reads.contains(where: { $0.method != "GET" }) {
      walker.fail("opening the release screen asked \(reads.count) times or wrote")
    }
    release.askRelease()
    walker.show("Release from Hub: asks first")
    release.cancelConfirmation()
    walker.show("Release from Hub: kept")
    #expect(lab.hubBinding == .bound(url: "http://10.0.0.9:8788"))
    release.askRelease()
    await release.confirm()
    await walker.settle()
    list = try walker.screen(FleetListModel.self)
    walker.show("Released and removed")
    #expect(lab.hubBinding != .bound(url: "http://10.0.0.9:8788"))
    #expect(!list.rows.contains { $0.name == "Lab 1" })
  }
}
