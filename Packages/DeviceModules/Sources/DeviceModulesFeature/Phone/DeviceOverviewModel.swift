import Essentials
import FeatureKit
import Foundation
import SimAdminClient

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// A device's overview (`device/:ref`): one card per section with its state, a summary and
/// when it was fetched; one request per section (the rest of a section is read on its own
/// screen), all at once, so a section that hangs keeps only its own card loading.
@MainActor
final class DeviceOverviewModel: PhoneScreenModel {
  let context: PhoneContext
  let reference: String
  let changes = PhoneChanges()

  /// The instance's name and address, once resolved.
  private(set) var target: DeviceTarget? { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }
  /// Each section's state, in overview order.
  private(set) var sections: [SectionState] = DeviceSection.allCases.map(SectionState.loading) {
    didSet { changes.send() }
  }
  private(set) var isRefreshing = false { didSet { changes.send() } }

  init(_ context: PhoneContext, reference: String) {
    self.context = context
    self.reference = reference
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    DevicePhone.text(key, context, arguments)
  }

  var title: String { target?.name ?? text("route.overview") }

  func appear() async { await load() }

  /// Pull to refresh: every section again, one request each.
  func refresh() async { await load() }

  private func load() async {
    guard !isRefreshing else { return }
    let access: DeviceAccess
    do {
      access = try DevicePhone.access(reference, context)
      target = access.target
      loadFailure = nil
    } catch {
      loadFailure = context.failure(error)
      return
    }
    isRefreshing = true
    defer { isRefreshing = false }
    sections = DeviceSection.allCases.map(SectionState.loading)
    let clock = context.environment.clock
    await withTaskGroup(of: SectionState.self) { group in
      for section in DeviceSection.allCases {
        group.addTask { await Self.summary(section, session: access.session, clock: clock) }
      }
      for await state in group {
        if let index = sections.firstIndex(where: { $0.section == state.section }) {
          sections[index] = state
        }
      }
    }
  }

  /// One section from its one main request: `/api/device`, `/api/sim`, `/api/network`,
  /// `/api/stats`, `/api/stats/cpu`, `/api/connectivity`, `/api/sms/list`.
  nonisolated static func summary(
    _ section: DeviceSection, session: SimAdminSession, clock: AppClock
  ) async -> SectionState {
    do throws(SimAdminFailure) {
      let content: SectionContent
      switch section {
      case .device: content = .device(try await session.device())
      case .sim: content = .sim(try await session.sim())
      case .cellular:
        content = .cellular(
          CellularSnapshot(network: try await session.network(), cells: nil, cellsStatus: .empty))
      case .resources: content = .resources(try await session.stats())
      case .cpu: content = .cpu(try await session.cpu())
      case .connection:
        content = .connection(
          ConnectionSnapshot(
            connectivity: try await session.connectivity(), data: nil, roaming: nil,
            airplaneMode: nil))
      case .sms:
        content = .sms(SmsSnapshot(messages: try await session.smsList(limit: 20, offset: 0)))
      }
      let status: SectionStatus = SectionLoader.isEmpty(content) ? .empty : .loaded
      return SectionState(
        section: section, status: status, content: status == .loaded ? content : nil,
        fetchedAt: clock.now())
    } catch {
      return SectionState(
        section: section, status: SectionStatus(error.error), fetchedAt: clock.now())
    }
  }

  func open(_ section: DeviceSection) {
    context.open(section.route(ref: reference))
  }

  /// A card's lines: the summary (or why there is none) and when it was fetched.
  func summary(_ state: SectionState) -> String {
    switch state.status {
    case .loading: return context.common("phone.loading")
    case .loaded:
      return DeviceViews.summary(state, DevicePhone.viewContext(context, reference: reference))
    default:
      // The badge says what the state is; the line says why.
      let words = DevicePhone.stateText(state.status, context)
      return words.1 ?? words.0
    }
  }

  /// The card's badge: the state when it is not simply loaded.
  func badge(_ state: SectionState) -> String? {
    state.status == .loaded || state.status == .loading ? nil : state.status.label(context.language)
  }

  func fetched(_ state: SectionState) -> String? {
    state.fetchedAt.map { text("phone.fetched", ["time": context.fullTime($0)]) }
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    if let target { status.append(PhoneText(target.origin, .foreign)) }
    let rows = sections.map { state in
      PhoneOutline.Row(
        [
          PhoneText(state.section.title(context.language), .label)
        ] + (badge(state).map { [PhoneText($0, .badge)] } ?? []) + [PhoneText(summary(state))]
          + (fetched(state).map { [PhoneText($0)] } ?? []))
    }
    return PhoneOutline(
      title: PhoneText(title, .foreign), status: status,
      sections: [PhoneOutline.Section(rows: rows)])
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(DeviceOverviewScreen(model: self)) }
  #endif
}
