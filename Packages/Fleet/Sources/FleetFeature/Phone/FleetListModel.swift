import Essentials
import FeatureKit
import Foundation
import LocalStore

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// The node list (节点): every device as a card with its status, search and filters by
/// group, tag and status, a + to add one, batch selection with test and remove, and pull to
/// refresh testing every device.
@MainActor
final class FleetListModel: PhoneScreenModel, PhoneConfirming {
  /// A removal waiting for its confirmation.
  enum Confirmation: Equatable {
    /// Remove these nodes.
    case remove([String])
    /// These nodes could not be reached or refused the check: remove them anyway.
    case removeAnyway([String], reasons: [String])
  }

  let context: PhoneContext
  let changes = PhoneChanges()

  /// Every node, from the local store.
  private(set) var rows: [FleetRow] = [] { didSet { changes.send() } }
  /// Whether the first read of the store ended.
  private(set) var isLoaded = false { didSet { changes.send() } }
  /// Why the store could not be read.
  private(set) var loadFailure: String? { didSet { changes.send() } }
  /// The search text (name, address, phone number).
  var search = "" { didSet { changes.send() } }
  /// The group filter (a group's name), nil for every group.
  private(set) var group: String? { didSet { changes.send() } }
  /// The tag filter.
  private(set) var tag: String? { didSet { changes.send() } }
  /// The status filter.
  private(set) var status: InstanceStatus? { didSet { changes.send() } }
  /// Whether rows are being selected for a batch.
  private(set) var isSelecting = false { didSet { changes.send() } }
  /// The selected nodes.
  private(set) var selection: Set<String> = [] { didSet { changes.send() } }
  /// Nodes with a test or removal under way.
  private(set) var pending: Set<String> = [] { didSet { changes.send() } }
  /// What the last action came to.
  private(set) var notice: PhoneNotice? { didSet { changes.send() } }
  /// A removal waiting for yes or no.
  private(set) var confirmation: Confirmation? { didSet { changes.send() } }
  var isConfirming: Bool { confirmation != nil }

  init(_ context: PhoneContext) {
    self.context = context
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    FleetStrings.text(key, context.language, arguments)
  }

  var title: String { text("module.name") }

  // MARK: - Life cycle

  /// Reads the nodes, then tests them (opening the screen is a refresh).
  func appear() async {
    await reload()
    guard loadFailure == nil, !rows.isEmpty else { return }
    await test(rows.map(\.id))
  }

  /// Back from a screen above: the store is read again (a node added, edited or removed),
  /// no device is asked.
  func resume(notice: String?) async {
    if let notice { self.notice = PhoneNotice(notice) }
    await reload()
  }

  /// Pull to refresh: every node is tested.
  func refresh() async {
    await reload()
    await test(rows.map(\.id))
  }

  private func reload() async {
    do {
      rows = try await FleetPhone.rows(context)
      loadFailure = nil
    } catch {
      loadFailure = FleetPhone.message(error, context)
    }
    isLoaded = true
    selection.formIntersection(rows.map(\.id))
  }

  // MARK: - Search and filters

  /// The rows the search and filters keep.
  var visibleRows: [FleetRow] {
    rows.filter { row in
      (group == nil || row.group == group) && (tag == nil || row.tags.contains(tag ?? ""))
        && (status == nil || row.status == status) && row.matches(search: search)
    }
  }

  /// Whether a search or filter is on.
  var isFiltered: Bool {
    !search.trimmingCharacters(in: .whitespaces).isEmpty || group != nil || tag != nil
      || status != nil
  }

  /// The groups the nodes are in, sorted.
  var groups: [String] { Set(rows.compactMap(\.group)).sorted() }
  /// The tags the nodes carry, sorted.
  var tags: [String] { Set(rows.flatMap(\.tags)).sorted() }

  func filter(group: String?) { self.group = group }
  func filter(tag: String?) { self.tag = tag }
  func filter(status: InstanceStatus?) { self.status = status }

  /// Search, group, tag and status all off.
  func clearFilters() {
    search = ""
    group = nil
    tag = nil
    status = nil
  }

  // MARK: - Rows and selection

  /// A tap on a node: opens it, or selects it while selecting.
  func tap(_ id: String) {
    if isSelecting {
      toggle(id)
    } else {
      context.open("fleet/\(id)")
    }
  }

  /// The + button.
  func add() {
    context.open("fleet/new")
  }

  /// Starts or ends selecting rows.
  func toggleSelecting() {
    isSelecting.toggle()
    if !isSelecting { selection = [] }
  }

  func toggle(_ id: String) {
    if selection.contains(id) { selection.remove(id) } else { selection.insert(id) }
  }

  /// Selects every visible row (or none when all are selected).
  func selectAll() {
    let visible = Set(visibleRows.map(\.id))
    selection = selection.isSuperset(of: visible) ? [] : visible
  }

  // MARK: - Test

  /// Tests the selected nodes.
  func testSelection() async {
    let ids = visibleRows.map(\.id).filter(selection.contains)
    isSelecting = false
    selection = []
    await test(ids)
  }

  /// Tests `ids`, each on its own (a hanging device keeps only its own row waiting), and sums
  /// up: "Tested 3 · 1 not online (Lab: Offline · timed out)".
  func test(_ ids: [String]) async {
    let ids = ids.filter { !pending.contains($0) }
    guard !ids.isEmpty else { return }
    notice = nil
    pending.formUnion(ids)
    let context = self.context
    var failures: [String] = []
    await withTaskGroup(of: (String, String?).self) { group in
      for id in ids {
        group.addTask {
          do {
            _ = try await context.run(["fleet", "test", id])
            return (id, nil)
          } catch {
            return (id, FleetPhone.message(error, context))
          }
        }
      }
      for await (id, failure) in group {
        pending.remove(id)
        if let failure { failures.append(failure) }
        if let fresh = try? await FleetPhone.rows(context) { rows = fresh }
      }
    }
    let tested = rows.filter { ids.contains($0.id) }
    let notOnline = tested.filter { $0.status != .online }.map {
      context.common(
        "phone.item", ["name": $0.name, "detail": FleetPhone.statusLine($0, context.language)])
    }
    failures.sort()
    if !failures.isEmpty {
      notice = PhoneNotice(
        text(
          "phone.notice.testFailed",
          ["reasons": failures.joined(separator: context.common("phone.separator"))]),
        tone: .danger)
    } else if notOnline.isEmpty {
      notice = PhoneNotice(text("phone.notice.tested", ["count": String(ids.count)]))
    } else {
      notice = PhoneNotice(
        text(
          "phone.notice.testedNotOnline",
          [
            "count": String(ids.count), "bad": String(notOnline.count),
            "names": notOnline.joined(separator: context.common("phone.separator")),
          ]), tone: .warning)
    }
  }

  // MARK: - Remove

  /// Asks to remove the selected nodes.
  func removeSelection() {
    let ids = visibleRows.map(\.id).filter(selection.contains)
    guard !ids.isEmpty else { return }
    confirmation = .remove(ids)
  }

  /// Asks to remove one node (its swipe action).
  func askRemove(_ id: String) {
    confirmation = .remove([id])
  }

  func cancelConfirmation() {
    confirmation = nil
    notice = PhoneNotice(text("phone.notice.kept"), tone: .muted)
  }

  /// Yes to the confirmation shown.
  func confirm() async {
    guard let confirmation else { return }
    self.confirmation = nil
    switch confirmation {
    case .remove(let ids): await remove(ids, anyway: false)
    case .removeAnyway(let ids, _): await remove(ids, anyway: true)
    }
  }

  private func remove(_ ids: [String], anyway: Bool) async {
    pending.formUnion(ids)
    defer { pending.subtract(ids) }
    var arguments = ["fleet", "remove"] + ids + ["--yes"]
    if anyway { arguments.append("--force") }
    let names = Dictionary(rows.map { ($0.id, $0.name) }) { first, _ in first }
    do {
      let result = try await context.run(arguments)
      let reports = (result.payload as? RemovePayload)?.removals ?? []
      let removed = reports.filter(\.deleted)
      let kept = reports.filter { !$0.deleted }
      selection.subtract(removed.map(\.id))
      isSelecting = isSelecting && !selection.isEmpty
      await reload()
      if kept.isEmpty {
        notice = PhoneNotice(
          text(
            "phone.notice.removed",
            ["count": String(removed.count), "names": removed.map(\.name).joined(separator: ", ")]))
      } else {
        notice = nil
        self.confirmation = .removeAnyway(
          kept.map(\.id),
          reasons: kept.map {
            context.common("phone.item", ["name": $0.name, "detail": keptReason($0)])
          })
      }
    } catch {
      let targets = ids.compactMap { names[$0] }.joined(separator: ", ")
      notice = PhoneNotice(
        text(
          "phone.notice.removeFailed",
          ["names": targets, "reason": FleetPhone.message(error, context)]), tone: .danger)
    }
  }

  private func keptReason(_ report: RemovalReport) -> String {
    if let failure = report.failure { return FleetPhone.reason(failure, context) }
    return text("release.\(report.release.rawValue)")
  }

  // MARK: - Words

  /// The confirmation's question, explanation and buttons.
  var question: PhoneConfirmation? {
    guard let confirmation else { return nil }
    let names = Dictionary(rows.map { ($0.id, $0.name) }) { first, _ in first }
    switch confirmation {
    case .remove(let ids):
      return PhoneConfirmation(
        text("phone.remove.question", ["count": String(ids.count)]),
        message: text(
          "phone.remove.message",
          [
            "count": String(ids.count),
            "names": ids.compactMap { names[$0] }.joined(separator: ", "),
          ]),
        confirm: text("phone.remove.confirm", ["count": String(ids.count)]),
        cancel: context.common("phone.cancel"))
    case .removeAnyway(let ids, let reasons):
      return PhoneConfirmation(
        text("phone.removeAnyway.question", ["count": String(ids.count)]),
        message: text(
          "phone.removeAnyway.message",
          ["reasons": reasons.joined(separator: context.common("phone.separator"))]),
        confirm: text("phone.removeAnyway.confirm"), cancel: text("phone.removeAnyway.keep"))
    }
  }

  /// The card of a node: name, status line, phone and operator, latest SMS (masked), when
  /// it was checked.
  func card(_ row: FleetRow) -> (reason: String?, details: [String]) {
    let language = context.language
    var details: [String] = []
    if let snapshot = row.snapshot {
      let line = [
        snapshot.phoneNumber, snapshot.operatorName,
        snapshot.signalPercent.map { text("phone.card.signal", ["percent": String($0)]) },
      ].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
      if !line.isEmpty { details.append(line) }
      if let sms = snapshot.latestSMS {
        details.append(text("phone.card.latest", ["peer": sms.peer, "body": sms.maskedBody]))
      }
    }
    let checked =
      row.checkedAt.map { text("phone.card.checked", ["time": context.time($0)]) }
      ?? text("freshness.never")
    details.append(row.isStale ? text("phone.card.stale", ["checked": checked]) : checked)
    return (row.reason.map { $0.text(language, detail: row.detail) }, details)
  }

  /// The chips' titles: "Group: All" …
  var chipTitles: (group: String, tag: String, status: String) {
    let all = context.common("phone.all")
    return (
      text("phone.filter.group", ["value": group ?? all]),
      text("phone.filter.tag", ["value": tag ?? all]),
      text("phone.filter.status", ["value": status?.label(context.language) ?? all])
    )
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if !isLoaded { status.append(PhoneText(context.common("phone.loading"))) }
    if let loadFailure {
      status.append(PhoneText(text("phone.list.failed", ["reason": loadFailure])))
    }
    if !pending.isEmpty {
      status.append(PhoneText(text("phone.list.testing", ["count": String(pending.count)])))
    }
    var actions = [PhoneText(text("phone.action.add"), .toolbar)]
    var sections: [PhoneOutline.Section] = []
    if isLoaded && rows.isEmpty && loadFailure == nil {
      status.append(PhoneText(text("phone.empty.title")))
      status.append(PhoneText(text("phone.empty.message")))
      actions.append(PhoneText(text("phone.action.addFirst"), .button))
    } else if !rows.isEmpty {
      let chips = chipTitles
      actions += [
        PhoneText(chips.group, .chip), PhoneText(chips.tag, .chip),
        PhoneText(chips.status, .chip),
        PhoneText(
          isSelecting ? context.common("phone.done") : context.common("phone.select"), .toolbar),
      ]
      if isSelecting {
        actions += [
          PhoneText(context.common("phone.selectAll"), .toolbar),
          PhoneText(text("phone.action.testCount", ["count": String(selection.count)]), .toolbar),
          PhoneText(text("phone.action.removeCount", ["count": String(selection.count)]), .toolbar),
        ]
      }
      let visible = visibleRows
      if visible.isEmpty {
        status.append(PhoneText(text("phone.noMatch.title")))
        actions.append(PhoneText(text("phone.action.clearFilters"), .button))
      }
      let rows = visible.map { row -> PhoneOutline.Row in
        let card = card(row)
        var parts = [PhoneText(row.name, .foreign)]
        if isSelecting {
          parts.insert(
            PhoneText(selection.contains(row.id) ? "☑" : "☐", .body), at: 0)
        }
        parts.append(PhoneText(row.status.label(context.language), .badge))
        if pending.contains(row.id) {
          parts.append(PhoneText(text("phone.card.testing"), .badge))
        }
        parts += (card.reason.map { [PhoneText($0)] } ?? []) + card.details.map { PhoneText($0) }
        return PhoneOutline.Row(
          parts,
          actions: [
            PhoneText(text("action.test"), .swipe), PhoneText(text("action.remove"), .swipe),
          ])
      }
      if !rows.isEmpty { sections.append(PhoneOutline.Section(rows: rows)) }
    }
    return PhoneOutline(
      title: PhoneText(title, .title), status: status, sections: sections, actions: actions,
      inputs: rows.isEmpty
        ? [] : [PhoneOutline.Input(context.common("phone.search"), value: search)],
      notice: notice.map { PhoneText($0.text) }, dialog: dialog)
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(FleetListScreen(model: self)) }
  #endif
}
