import Essentials
import Foundation
import LocalStore
import Testing
import ViewKit
import ViewKitTesting

@testable import FleetFeature

@Suite struct ViewSnapshotTests {
  static let now = Date(timeIntervalSince1970: 1_767_225_600)

  static var rows: [FleetRow] {
    let full = DeviceSnapshot(
      phoneNumbers: ["+8613800138000"], operatorName: "CHINA MOBILE", signalPercent: 78,
      registration: "registered", temperatureCelsius: 46.4, model: "Quectel RM500Q-GL",
      imei: "867531051747216", iccid: "89860012345678901234", dataActive: true,
      memoryPercent: 41, uptime: "3 days",
      latestSMS: SMSPreview(
        direction: "incoming", peer: "10086",
        maskedBody: Redactor.maskBody("Your code is 482913, valid for 5 minutes"),
        date: now.addingTimeInterval(-600)))
    var old = full
    old.phoneNumbers = ["+8618600000000"]
    old.operatorName = "中国联通"
    old.signalPercent = 40
    old.latestSMS = nil
    return [
      FleetRow(
        id: "a1b2c3d4e5f6", name: "Shop router", origin: "http://192.168.1.1:3000",
        isPlainHTTP: true, group: "Shop", tags: ["lab"], revision: 3, hasPassword: true,
        status: .online, checkedAt: now.addingTimeInterval(-120), latencyMS: 42,
        version: "1.1.10", snapshot: full, snapshotFetchedAt: now.addingTimeInterval(-120),
        createdAt: now.addingTimeInterval(-86_400)),
      FleetRow(
        id: "0f0f0f0f0f0f", name: "仓库路由器", origin: "https://wh.example.com",
        isPlainHTTP: false, status: .offline, reason: .refused,
        checkedAt: now.addingTimeInterval(-300), latencyMS: 3, version: "1.1.9", snapshot: old,
        snapshotFetchedAt: now.addingTimeInterval(-3_600), createdAt: now),
      FleetRow(
        id: "111122223333", name: "Lab dongle", origin: "https://10.0.0.8:8443",
        isPlainHTTP: false, status: .loginRequired, reason: .wrongPassword,
        checkedAt: now.addingTimeInterval(-30), latencyMS: 18, version: "1.1.10",
        createdAt: now),
      FleetRow(
        id: "444455556666", name: "No modem box", origin: "http://10.0.0.9:3000",
        isPlainHTTP: true, status: .degraded, reason: .noModem, detail: "未检测到调制解调器",
        checkedAt: now.addingTimeInterval(-7_200), latencyMS: 25, version: "1.1.8",
        createdAt: now),
      FleetRow(
        id: "777788889999", name: "Spare", origin: "https://spare.lan", isPlainHTTP: false,
        createdAt: now),
    ]
  }

  static let cases: [(Int, AppLanguage)] = [40, 80, 100, 120].flatMap { width in
    AppLanguage.allCases.map { (width, $0) }
  }

  @Test(arguments: cases)
  func workbench(width: Int, language: AppLanguage) {
    let view = WorkbenchView.view(
      WorkbenchState(rows: Self.rows, now: Self.now), language: language)
    let text = TextRenderer.render(view, options: RenderOptions(width: width, language: language))
    assertSnapshot(of: text, named: "workbench-\(width)-\(language.rawValue)")
    #expect(!text.contains("482913"))
  }

  @Test(arguments: cases)
  func detail(width: Int, language: AppLanguage) {
    let online = InstanceDetailView.view(Self.rows[0], now: Self.now, language: language)
    let stale = InstanceDetailView.view(Self.rows[1], now: Self.now, language: language)
    let options = RenderOptions(width: width, language: language)
    let text =
      TextRenderer.render(online, options: options) + "\n\n"
      + TextRenderer.render(stale, options: options)
    assertSnapshot(of: text, named: "detail-\(width)-\(language.rawValue)")
    #expect(!text.contains("482913"))
  }

  /// At 80 columns (the width of a plain terminal, with the console's row markers) every
  /// status shows its reason whole, in both languages, with the name beside it.
  @Test(arguments: AppLanguage.allCases)
  func reasonsShowWholeAt80Columns(language: AppLanguage) {
    let reasons: [(InstanceStatus, StatusReason)] = [
      (.offline, .timeout), (.offline, .refused), (.offline, .dns), (.degraded, .noModem),
      (.degraded, .noSIM), (.degraded, .notRegistered), (.loginRequired, .wrongPassword),
      (.loginRequired, .noPassword),
    ]
    var rows = Self.rows
    for (index, item) in reasons.enumerated() {
      var row = rows[0]
      row.id = "r\(index)"
      row.name = "Hangzhou No Modem \(index)"
      row.status = item.0
      row.reason = item.1
      rows.append(row)
    }
    var table = WorkbenchView.table(WorkbenchState(rows: rows, now: Self.now), language)
    table.selectedID = "r0"
    let text = TextRenderer.render(
      .table(table), options: RenderOptions(width: 80, language: language))
    for (index, item) in reasons.enumerated() {
      let status = "\(item.0.label(language)) · \(item.1.text(language))"
      #expect(text.contains(status), "\(status) is cut in\n\(text)")
      #expect(text.contains("Hangzhou No Modem \(index)"))
    }
  }

  @Test func workbenchRowsCarryStableIDsAndLinks() throws {
    let view = WorkbenchView.view(
      WorkbenchState(rows: Self.rows, now: Self.now), language: .english)
    guard case .screen(let screen) = view else {
      Issue.record("expected a screen")
      return
    }
    let table = try #require(
      screen.children.compactMap { node -> Table? in
        if case .table(let table) = node { return table }
        return nil
      }.first)
    #expect(table.rows.map(\.id) == Self.rows.map(\.id))
    #expect(table.rows.map(\.link) == Self.rows.map { "fleet/\($0.id)" })
    let text = TextRenderer.render(view, options: RenderOptions(width: 200))
    #expect(text.contains("Reached over plain HTTP (unencrypted): Shop router, No modem box"))
    #expect(text.contains("stale, 1 h ago"))
  }

  @Test func formShowsPerFieldMessages() throws {
    let existing = Instance(
      id: "a1b2c3d4e5f6", name: "Shop router",
      origin: try InstanceOrigin(parsing: "http://192.168.1.1:3000"), groupID: nil, tags: [],
      revision: 1, createdAt: Self.now, updatedAt: Self.now)
    let draft = InstanceDraft(name: "  ", url: "http://192.168.1.1:3000/admin", group: "Nope")
    let problems = draft.problems(instances: [existing], groups: [])
    #expect(Set(problems.keys) == ["name", "url", "group"])
    let text = TextRenderer.render(
      InstanceFormView.view(
        InstanceFormState(editing: nil, draft: draft, problems: problems), language: .english),
      options: RenderOptions(width: 100))
    #expect(text.contains("Enter a name"))
    #expect(text.contains("/admin"))
    #expect(text.contains("No group named Nope"))

    let duplicate = InstanceDraft(name: "Copy", url: "HTTP://192.168.1.1:3000")
    #expect(
      duplicate.problems(instances: [existing], groups: [])["url"]?.localizedMessage(.english)
        .contains("Shop router") == true)
    #expect(
      duplicate.problems(instances: [existing], groups: [], editingID: existing.id).isEmpty)
  }

  @Test func moduleDeclaresRoutesAndActions() {
    let module = Fleet.module
    #expect(module.id == "fleet")
    #expect(module.order == 10)
    #expect(module.home == "fleet")
    #expect(module.name.resolve(.simplifiedChinese) == "节点")
    let patterns = module.routes.map(\.pattern.description)
    #expect(
      patterns == ["fleet", "fleet/new", "fleet/:ref", "fleet/:ref/edit", "fleet/:ref/release"])
    let keys = module.routes[0].actions.map(\.key)
    #expect(keys == ["t", "d", "r", "a", "e", "m"])
    // `r` tests every visible row, one command per row; `a` and `e` open the add and edit
    // forms; `m` opens the device's sections.
    #expect(module.routes[0].actions[2].arguments == ["fleet", "test", "{rows}"])
    let opened = module.routes[0].actions.dropFirst(3).map {
      $0.openedPath(selection: "3f2a", parameters: [:])
    }
    #expect(opened == ["fleet/new", "fleet/3f2a/edit", "device/3f2a"])
    #expect(module.routes[1].formKey == "s" && module.routes[3].formKey == "s")
    let remove = module.routes[0].actions[1]
    #expect(remove.confirmation != nil)
    #expect(
      remove.expandedArguments(selection: ["a", "b"], parameters: [:])
        == ["fleet", "remove", "a", "b", "--yes"])
    // Removing never writes to a device: releasing is its own screen, which reads the Hub
    // first and names it in the question (its title is the confirmation's target).
    #expect(!remove.arguments.contains("--release-hub"))
    #expect(remove.confirmation?.resolve(.english).contains("not changed") == true)
    let release = module.routes[4].actions[0]
    #expect(release.arguments == ["fleet", "remove", "{param:ref}", "--release-hub", "--yes"])
    #expect(release.confirmation?.resolve(.english).contains("{targets}") == true)
    #expect(module.routes[2].actions.contains { $0.opens == "fleet/{param:ref}/release" })
  }
}
