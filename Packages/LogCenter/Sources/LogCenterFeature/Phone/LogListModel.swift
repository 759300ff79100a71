import Essentials
import FeatureKit
import Foundation
import LocalStore

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// The log center (`settings/logs`): runtime and connection records newest first, in the
/// phone's time zone; search and filters by kind, level and device; clear and trim (each
/// confirmed); export as CSV or JSON Lines into Files, to share from there.
@MainActor
final class LogListModel: PhoneScreenModel, PhoneConfirming {
  /// A trim the user can choose.
  enum Trim: Hashable, CaseIterable {
    case olderThanWeek, olderThanMonth, keepThousand

    var arguments: [String] {
      switch self {
      case .olderThanWeek: ["--older-than", "7"]
      case .olderThanMonth: ["--older-than", "30"]
      case .keepThousand: ["--keep", "1000"]
      }
    }

    var key: String {
      switch self {
      case .olderThanWeek: "phone.logs.trim.week"
      case .olderThanMonth: "phone.logs.trim.month"
      case .keepThousand: "phone.logs.trim.keep"
      }
    }
  }

  /// An action waiting for its yes.
  enum Confirmation: Equatable {
    case clear(count: Int)
    case trim(Trim)
  }

  let context: PhoneContext
  let changes = PhoneChanges()

  private(set) var items: [LogItem] = [] { didSet { changes.send() } }
  private(set) var isLoaded = false { didSet { changes.send() } }
  private(set) var loadFailure: String? { didSet { changes.send() } }
  /// How many records are shown (more on demand).
  private(set) var limit = 100 { didSet { changes.send() } }
  private(set) var search = "" { didSet { changes.send() } }
  private(set) var kind: LogKind? { didSet { changes.send() } }
  private(set) var level: LogLevel? { didSet { changes.send() } }
  private(set) var instanceID: String? { didSet { changes.send() } }
  private(set) var instances: [(id: String, name: String)] = [] { didSet { changes.send() } }
  private(set) var busy: String? { didSet { changes.send() } }
  private(set) var notice: PhoneNotice? { didSet { changes.send() } }
  private(set) var file: PhoneFile? { didSet { changes.send() } }
  private(set) var confirmation: Confirmation? { didSet { changes.send() } }
  var isConfirming: Bool { confirmation != nil }

  init(_ context: PhoneContext) {
    self.context = context
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    SettingsPhone.text(key, context, arguments)
  }

  var title: String { text("logs.title") }

  func appear() async { await reload() }
  func resume(notice: String?) async { await reload() }
  func refresh() async { await reload() }

  private var filter: LogFilter {
    LogFilter(
      kinds: kind.map { [$0] } ?? [], minimumLevel: level, instanceID: instanceID,
      search: search.trimmingCharacters(in: .whitespaces).isEmpty ? nil : search,
      limit: limit + 1)
  }

  private func reload() async {
    do {
      let store = try SettingsPhone.store(context)
      let filter = filter
      let language = context.language
      items = try await context.offMain {
        try LogBook(store: store).entries(filter).map { $0.localized(language) }
      }
      instances = try await context.offMain {
        try InstanceRepository(store: store).list().map { ($0.id, $0.name) }
      }
      loadFailure = nil
    } catch {
      loadFailure = SettingsPhone.message(error, context)
    }
    isLoaded = true
  }

  /// The records shown (one more was read to know whether there are more).
  var shown: ArraySlice<LogItem> { items.prefix(limit) }
  var hasMore: Bool { items.count > limit }

  func loadMore() async {
    limit += 100
    await reload()
  }

  func search(_ text: String) async {
    search = text
    await reload()
  }

  func filter(kind: LogKind?) async {
    self.kind = kind
    await reload()
  }

  func filter(level: LogLevel?) async {
    self.level = level
    await reload()
  }

  func filter(instance: String?) async {
    instanceID = instance
    await reload()
  }

  func open(_ item: LogItem) {
    context.open("settings/logs/\(item.id)")
  }

  // MARK: - Clear, trim, export

  func askClear() async {
    let store = try? SettingsPhone.store(context)
    let count = (try? store.map { try LogBook(store: $0).counts().total }) ?? nil
    confirmation = .clear(count: count ?? 0)
  }

  func askTrim(_ trim: Trim) { confirmation = .trim(trim) }

  func cancelConfirmation() {
    confirmation = nil
    notice = PhoneNotice(text("phone.logs.kept"), tone: .muted)
  }

  func confirm() async {
    guard let confirmation else { return }
    self.confirmation = nil
    switch confirmation {
    case .clear:
      await perform("phone.logs.clearing", ["logs", "clear", "--yes"], key: "phone.logs.cleared")
    case .trim(let trim):
      await perform(
        "phone.logs.trimming", ["logs", "trim"] + trim.arguments, key: "phone.logs.trimmed")
    }
  }

  private func perform(_ busyKey: String, _ arguments: [String], key: String) async {
    busy = text(busyKey)
    file = nil
    do {
      let result = try await context.run(arguments)
      let removal =
        (result.payload as? LogsCommands.ClearPayload)?.removed
        ?? (result.payload as? LogsCommands.TrimPayload)?.removed
      notice = PhoneNotice(text(key, ["count": String(removal?.total ?? 0)]))
    } catch {
      notice = PhoneNotice(SettingsPhone.message(error, context), tone: .danger)
    }
    busy = nil
    await reload()
  }

  /// Exports the records the filters keep into Files (Exports).
  func export(_ format: LogExportFormat) async {
    busy = text("phone.logs.exporting")
    file = nil
    do {
      let url = try context.newFile(in: "Exports", named: "logs", extension: format.rawValue)
      var arguments = ["logs", "export", "--format", format.rawValue, "--output", url.path]
      if let kind { arguments += ["--kind", kind.rawValue] }
      let result = try await context.run(arguments)
      let count = (result.payload as? LogsCommands.ExportPayload)?.count
      let place = context.filesLocation(of: url)
      notice = PhoneNotice(
        text("phone.logs.exported", ["count": String(count ?? 0), "place": place]))
      file = PhoneFile(url: url, place: place)
    } catch {
      notice = PhoneNotice(SettingsPhone.message(error, context), tone: .danger)
    }
    busy = nil
  }

  // MARK: - Words

  var chipTitles: (kind: String, level: String, instance: String) {
    let all = context.common("phone.all")
    return (
      text("phone.logs.filter.kind", ["value": kind?.title(context.language) ?? all]),
      text("phone.logs.filter.level", ["value": level.map { levelName($0) } ?? all]),
      text(
        "phone.logs.filter.device", ["value": instances.first { $0.id == instanceID }?.name ?? all])
    )
  }

  func levelName(_ level: LogLevel) -> String {
    text("phone.logs.level.\(level.rawValue)")
  }

  /// The line under a record's message: time, level, device, kind.
  func meta(_ item: LogItem) -> String {
    [
      context.time(item.date), levelName(item.level), item.instanceName ?? "",
      item.kind.title(context.language),
    ]
    .filter { !$0.isEmpty }.joined(separator: " · ")
  }

  var question: PhoneConfirmation? {
    switch confirmation {
    case .clear(let count)?:
      return PhoneConfirmation(
        text("phone.logs.clearQuestion", ["count": String(count)]),
        message: text("phone.logs.clearMessage"),
        confirm: text("phone.logs.clearConfirm"), cancel: context.common("phone.cancel"))
    case .trim(let trim)?:
      return PhoneConfirmation(
        text("phone.logs.trimQuestion", ["what": text(trim.key)]),
        message: text("phone.logs.clearMessage"),
        confirm: text("phone.logs.trimConfirm"), cancel: context.common("phone.cancel"))
    case nil:
      return nil
    }
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if !isLoaded { status.append(PhoneText(context.common("phone.loading"))) }
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    if let busy { status.append(PhoneText(busy)) }
    if isLoaded && items.isEmpty { status.append(PhoneText(text("logs.empty.title"))) }
    let chips = chipTitles
    var actions = [
      PhoneText(chips.kind, .chip), PhoneText(chips.level, .chip), PhoneText(chips.instance, .chip),
      PhoneText(text("phone.logs.export.csv"), .menu),
      PhoneText(text("phone.logs.export.jsonl"), .menu),
    ]
    actions += Trim.allCases.map { PhoneText(text($0.key), .menu) }
    actions.append(PhoneText(text("phone.logs.clear"), .menu))
    if file != nil { actions.append(PhoneText(context.common("phone.share"), .button)) }
    var rows = shown.map { item in
      PhoneOutline.Row([PhoneText(item.message, .foreign), PhoneText(meta(item))])
    }
    if hasMore { rows.append(PhoneOutline.Row([PhoneText(context.common("phone.more"), .button)])) }
    return PhoneOutline(
      title: PhoneText(title, .title), status: status,
      sections: rows.isEmpty ? [] : [PhoneOutline.Section(rows: rows)], actions: actions,
      inputs: [PhoneOutline.Input(context.common("phone.search"), value: search)],
      notice: notice.map { PhoneText($0.text) }, dialog: dialog)
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(LogListScreen(model: self)) }
  #endif
}
