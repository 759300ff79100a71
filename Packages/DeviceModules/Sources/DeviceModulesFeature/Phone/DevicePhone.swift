import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminClient
import ViewKit

/// The device sections' phone screens: the overview (`device/:ref`: one card and one request
/// per section), each section in full (`device/:ref/<section>`: its tables as label: value
/// cards) and the device's own SMS (`device/:ref/sms`).
enum DevicePhone {
  static var screens: [PhoneScreen] {
    [PhoneScreen("device/:ref") { DeviceOverviewModel($0.context, reference: $0.parameter("ref")) }]
      + DeviceSection.allCases.map { section in
        PhoneScreen("device/:ref/\(section.rawValue)") { request -> any PhoneScreenModel in
          let reference = request.parameter("ref")
          if section == .sms { return DeviceSMSModel(request.context, reference: reference) }
          return DeviceSectionModel(request.context, reference: reference, section: section)
        }
      }
  }

  /// One card of a section: an optional title and its label: value rows.
  struct Card: Equatable {
    var title: String?
    var rows: [Row]
  }

  /// A label and its value (a table's cell keeps its column's title as its label).
  struct Row: Equatable {
    var label: String
    var value: String
    var tone: PhoneTone?
  }

  static func text(_ key: String, _ context: PhoneContext, _ arguments: [String: String] = [:])
    -> String
  {
    DeviceModulesStrings.text(key, context.language, arguments)
  }

  static func viewContext(_ context: PhoneContext, reference: String) -> ViewContext {
    ViewContext(
      language: context.language, now: context.now, timeZone: context.timeZone, ref: reference)
  }

  /// The instance and its session.
  static func access(_ reference: String, _ context: PhoneContext) throws -> DeviceAccess {
    try DeviceAccess.resolve(reference, in: context.environment)
  }

  static func tone(_ tone: Tone?) -> PhoneTone? {
    switch tone {
    case .success?: .success
    case .warning?: .warning
    case .danger?: .danger
    case .muted?: .muted
    case .info?, .brand?, .primary?: .info
    case .neutral?, nil: nil
    }
  }

  static func tone(_ status: SectionStatus) -> PhoneTone {
    switch status {
    case .loaded: .success
    case .loading, .empty, .notSupported: .muted
    case .loginRequired, .passwordNotSet, .noPermission: .warning
    case .timeout, .upstream, .failed: .danger
    }
  }

  /// A section's content as cards: its values in one card, each table row a card of its own
  /// whose rows are the columns' titles and the row's cells, notes as rows of their own.
  static func cards(_ nodes: [ViewNode], _ context: PhoneContext) -> [Card] {
    var cards: [Card] = []
    var loose: [Row] = []
    func flush() {
      if !loose.isEmpty { cards.append(Card(title: nil, rows: loose)) }
      loose = []
    }
    func walk(_ node: ViewNode) {
      switch node {
      case .keyValue(let pair):
        loose.append(Row(label: pair.key, value: pair.value, tone: tone(pair.tone)))
      case .table(let table):
        flush()
        // Each row a card headed by its first cell under its column's title ("Interface:
        // wwan0"), the other cells as that column's title and value.
        for row in table.rows {
          let pairs = zip(table.columns, row.cells).map { column, cell in
            Row(label: column.title, value: cell.text, tone: tone(cell.tone))
          }
          guard let head = pairs.first else { continue }
          cards.append(
            Card(
              title: context.common("phone.item", ["name": head.label, "detail": head.value]),
              rows: Array(pairs.dropFirst())))
        }
      case .text(let text):
        loose.append(Row(label: "", value: text.text, tone: nil))
      case .empty(let empty):
        loose.append(
          Row(
            label: "",
            value: [empty.title, empty.message].compactMap { $0 }.filter { !$0.isEmpty }.joined(
              separator: " — "), tone: .muted))
      case .error(let error):
        loose.append(
          Row(
            label: "",
            value: [error.title, error.message].filter { !$0.isEmpty }.joined(separator: " — "),
            tone: .danger))
      case .banner(let banner):
        loose.append(Row(label: "", value: banner.text, tone: tone(banner.tone)))
      case .section(let section):
        flush()
        let before = cards.count
        section.children.forEach(walk)
        flush()
        if cards.count > before, cards[before].title == nil { cards[before].title = section.title }
      default:
        node.children.forEach(walk)
      }
    }
    nodes.forEach(walk)
    flush()
    return cards
  }

  /// A section's state in words: its label and what it means, without console advice.
  static func stateText(_ status: SectionStatus, _ context: PhoneContext) -> (String, String?) {
    let message = status.message(context.language).map {
      PhoneWording.plain($0, fallback: context.common("phone.failed"))
    }
    return (status.label(context.language), message)
  }
}
