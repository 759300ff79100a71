import Essentials
import FeatureKit
import Foundation

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// One section in full (`device/:ref/<section>`): its values as label: value rows and each
/// table row as a card that keeps the columns' titles; its loading, empty and failed states;
/// when it was fetched, in the phone's time zone.
@MainActor
final class DeviceSectionModel: PhoneScreenModel {
  let context: PhoneContext
  let reference: String
  let section: DeviceSection
  let changes = PhoneChanges()

  private(set) var target: DeviceTarget? { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }
  private(set) var state: SectionState { didSet { changes.send() } }

  init(_ context: PhoneContext, reference: String, section: DeviceSection) {
    self.context = context
    self.reference = reference
    self.section = section
    state = .loading(section)
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    DevicePhone.text(key, context, arguments)
  }

  var title: String { section.title(context.language) }

  func appear() async { await load() }
  func refresh() async { await load() }

  private func load() async {
    let access: DeviceAccess
    do {
      access = try DevicePhone.access(reference, context)
      target = access.target
      loadFailure = nil
    } catch {
      loadFailure = context.failure(error)
      return
    }
    state = .loading(section)
    let loader = SectionLoader(session: access.session, clock: context.environment.clock)
    let section = section
    state = await loader.load(section)
  }

  /// The content as cards (loaded sections only).
  var cards: [DevicePhone.Card] {
    guard state.status == .loaded, let content = state.content else { return [] }
    return DevicePhone.cards(
      DeviceViews.body(content, DevicePhone.viewContext(context, reference: reference)), context)
  }

  /// Loading, empty or failed, in words; nil when loaded.
  var stateLines: (title: String, message: String?)? {
    guard state.status != .loaded else { return nil }
    if state.status == .loading { return (context.common("phone.loading"), nil) }
    let words = DevicePhone.stateText(state.status, context)
    return (words.0, words.1)
  }

  var fetched: String? {
    state.fetchedAt.map { text("phone.fetched", ["time": context.fullTime($0)]) }
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if let target { status.append(PhoneText(target.name, .foreign)) }
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    if let lines = stateLines {
      status.append(PhoneText(lines.title, .badge))
      if let message = lines.message { status.append(PhoneText(message)) }
    }
    if let fetched { status.append(PhoneText(fetched)) }
    let sections = cards.map { card in
      PhoneOutline.Section(
        card.title,
        rows: card.rows.map {
          $0.label.isEmpty
            ? PhoneOutline.Row([PhoneText($0.value)])
            : PhoneOutline.Row.pair($0.label, $0.value)
        })
    }
    var actions: [PhoneText] = []
    if state.status.isFailure { actions.append(PhoneText(context.common("phone.retry"), .button)) }
    return PhoneOutline(
      title: PhoneText(title, .title), status: status, sections: sections, actions: actions)
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(DeviceSectionScreen(model: self)) }
  #endif
}
