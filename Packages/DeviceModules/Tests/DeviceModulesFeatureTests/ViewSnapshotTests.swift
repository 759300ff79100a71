import Essentials
import Foundation
import Testing
import ViewKit
import ViewKitTesting

@testable import DeviceModulesFeature

@Suite("View snapshots")
struct ViewSnapshotTests {
  static let widths = [40, 80, 120]

  static func context(_ language: AppLanguage) -> ViewContext {
    ViewContext(
      language: language, now: Fixtures.now, timeZone: TimeZone(identifier: "UTC") ?? .current,
      ref: "office")
  }

  static func check(_ view: (ViewContext) -> ViewNode, named name: String) {
    for language in AppLanguage.allCases {
      let node = view(context(language))
      for width in widths {
        let text = TextRenderer.render(
          node, options: RenderOptions(width: width, language: language))
        assertSnapshot(of: text, named: "\(name)-\(width)-\(language.rawValue)")
      }
    }
  }

  @Test("the overview at 40/80/120 columns, English and Chinese")
  func overview() {
    Self.check({ DeviceViews.overview(Fixtures.report, $0) }, named: "overview")
  }

  @Test(
    "every section at 40/80/120 columns, English and Chinese", arguments: DeviceSection.allCases)
  func section(_ section: DeviceSection) throws {
    let state = try #require(Fixtures.report.state(section))
    Self.check(
      { DeviceViews.sectionScreen(state, instance: Fixtures.target, $0) }, named: section.rawValue)
  }

  @Test("every section state, on the overview and in full")
  func states() {
    Self.check({ DeviceViews.overview(Fixtures.states, $0) }, named: "states-overview")
    Self.check({ DeviceViews.allSections(Fixtures.states, $0) }, named: "states-all")
  }

  @Test("the SMS section with bodies shown")
  func smsBodies() {
    let state = Fixtures.loaded(
      .sms, .sms(SmsSnapshot(messages: Fixtures.messages, showBodies: true)))
    let text = TextRenderer.render(
      DeviceViews.sectionScreen(state, instance: Fixtures.target, Self.context(.english)),
      options: RenderOptions(width: 120))
    #expect(text.contains("482913"))
    let masked = TextRenderer.render(
      DeviceViews.sectionScreen(
        try! #require(Fixtures.report.state(.sms)), instance: Fixtures.target,
        Self.context(.english)), options: RenderOptions(width: 120))
    #expect(!masked.contains("482913"))
  }

  @Test("widths are respected and the overview rows link to their sections")
  func layout() {
    for width in Self.widths {
      let text = TextRenderer.render(
        DeviceViews.allSections(Fixtures.report, Self.context(.simplifiedChinese)),
        options: RenderOptions(width: width, language: .simplifiedChinese))
      for line in text.split(separator: "\n") {
        #expect(DisplayWidth.of(String(line)) <= width)
      }
    }
    guard case .screen(let screen) = DeviceViews.overview(Fixtures.report, Self.context(.english)),
      case .table(let table) = screen.children.first
    else {
      Issue.record("overview is not a screen with a table")
      return
    }
    #expect(table.rows.map(\.link) == DeviceSection.allCases.map { "device/office/\($0.rawValue)" })
  }
}
