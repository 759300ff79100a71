import Essentials
import Foundation
import SimAdminClient
import ViewKit

/// What the workbench shows: the rows and the instant their ages are measured from.
public struct WorkbenchState: Sendable, Hashable {
  /// The instances, in registry order.
  public var rows: [FleetRow]
  /// "Now", from the environment's clock when loaded.
  public var now: Date
  /// Whether the rows were filtered (group, tag, status, search): an empty result then says
  /// that nothing matched, not that there are no instances.
  public var isFiltered: Bool

  /// A state.
  public init(rows: [FleetRow], now: Date, isFiltered: Bool = false) {
    self.rows = rows
    self.now = now
    self.isFiltered = isFiltered
  }
}

/// The fleet workbench (`fleet`): a banner for plain-HTTP instances and one table row per
/// instance.
public enum WorkbenchView {
  /// The view of `state` in `language`.
  public static func view(_ state: WorkbenchState, language: AppLanguage) -> ViewNode {
    func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
      FleetStrings.text(key, language, arguments)
    }
    var children: [ViewNode] = []
    let plain = state.rows.indices.compactMap {
      state.rows[$0].isPlainHTTP ? state.rows[$0].name : nil
    }
    if !plain.isEmpty {
      children.append(
        .banner(
          Banner(
            text("banner.plainHTTP", ["names": plain.joined(separator: ", ")]), tone: .warning)))
    }
    // One device registered under several names by an older version (issue 36): said, never
    // removed.
    var byOrigin: [String: [String]] = [:]
    for index in state.rows.indices {
      byOrigin[state.rows[index].origin, default: []].append(state.rows[index].name)
    }
    for (origin, names) in byOrigin.sorted(by: { $0.key < $1.key }) where names.count > 1 {
      children.append(
        .banner(
          Banner(
            text("banner.sameOrigin", ["names": names.joined(separator: ", "), "origin": origin]),
            tone: .warning)))
    }
    // Rows read in place: `flatMap` over the rows copied every `FleetRow` (retaining and
    // releasing its every string) to look at its notes.
    var notes: [String] = []
    for index in state.rows.indices {
      guard let rowNotes = state.rows[index].snapshot?.notes, !rowNotes.isEmpty else { continue }
      for note in rowNotes { notes.append("\(state.rows[index].name): \(note.text(language))") }
    }
    if !notes.isEmpty {
      children.append(.banner(Banner(notes.joined(separator: "\n"), tone: .muted)))
    }
    if state.rows.isEmpty && state.isFiltered {
      children.append(
        .empty(
          EmptyState(
            title: text("workbench.noMatch.title"), message: text("workbench.noMatch.message"))))
    } else if state.rows.isEmpty {
      children.append(
        .empty(
          EmptyState(
            title: text("workbench.empty.title"), message: text("workbench.empty.message"))))
    } else {
      children.append(.table(table(state, language)))
    }
    return .screen(
      Screen(
        title: text("module.name"), subtitle: summary(state.rows, language), children: children))
  }

  /// "3 instances · 2 online · 1 offline".
  static func summary(_ rows: [FleetRow], _ language: AppLanguage) -> String {
    var parts = [FleetStrings.text("workbench.count", language, ["n": String(rows.count)])]
    var counts: [InstanceStatus: Int] = [:]
    for index in rows.indices { counts[rows[index].status, default: 0] += 1 }
    for status in InstanceStatus.allCases {
      let count = counts[status] ?? 0
      if count > 0 { parts.append("\(count) \(status.label(language))") }
    }
    return parts.joined(separator: " · ")
  }

  static func table(_ state: WorkbenchState, _ language: AppLanguage) -> Table {
    func text(_ key: String) -> String { FleetStrings.text(key, language) }
    // The name and the status with its reason are what a row is about: they keep their
    // natural width (whole reasons at 80 columns), and secondary columns are dropped before
    // either is cut. A secondary column is dropped rather than cut below a useful width, and
    // the SMS preview takes only what the others leave.
    let columns = [
      TableColumn(
        id: "name", title: text("column.name"), minWidth: 8, maxWidth: 24, priority: 10,
        sizing: .whole),
      TableColumn(
        id: "status", title: text("column.status"), minWidth: 8, maxWidth: 40, priority: 9,
        sizing: .whole),
      TableColumn(
        id: "phone", title: text("column.phone"), minWidth: 14, maxWidth: 16, priority: 6),
      TableColumn(
        id: "operator", title: text("column.operator"), minWidth: 10, maxWidth: 18, priority: 4),
      TableColumn(
        id: "temperature", title: text("column.temperature"), minWidth: 5, maxWidth: 7,
        priority: 2, alignment: .trailing),
      TableColumn(
        id: "version", title: text("column.version"), minWidth: 7, maxWidth: 8, priority: 3),
      TableColumn(
        id: "freshness", title: text("column.freshness"), minWidth: 10, maxWidth: 22, priority: 5),
      TableColumn(
        id: "sms", title: text("column.sms"), minWidth: 12, priority: 1, sizing: .fill),
    ]
    var texts = RowTexts(now: state.now, language: language)
    // Each row read in place, through a pointer: a copy of a `FleetRow` (which passing
    // `source[index]` made) retains and releases its every string.
    let rows = state.rows.withUnsafeBufferPointer { source -> [TableRow] in
      guard let first = source.baseAddress else { return [] }
      return source.indices.map { index in
        let row = first + index
        return TableRow(
          id: row.pointee.id, cells: cells(row, &texts), link: "fleet/" + row.pointee.id)
      }
    }
    return Table(columns: columns, rows: rows)
  }

  /// The cells of the row at `row`, read through the pointer (never copied).
  static func cells(_ row: UnsafePointer<FleetRow>, _ texts: inout RowTexts) -> [TableCell] {
    let isStale = row.pointee.isStale
    let valueTone: Tone? = isStale ? .muted : nil
    let none = "—"
    // The snapshot's fields are read through `snapshot?` (not a copy of the snapshot, whose
    // every string would be retained and released again).
    var operatorText = row.pointee.snapshot?.operatorName ?? ""
    if let signal = row.pointee.snapshot?.signalPercent {
      operatorText += operatorText.isEmpty ? "\(signal)%" : " \(signal)%"
    }
    let temperature = DeviceReading.celsius.rounded(row.pointee.snapshot?.temperatureCelsius)
      .map { "\($0)°C" }
    // ``DeviceSnapshot/phoneNumber`` read from the stored list: a computed property called
    // through `snapshot?` copied the whole snapshot (a dozen strings retained and released)
    // for every row.
    let phone = row.pointee.snapshot?.phoneNumbers.first { !$0.isEmpty }
    let freshnessTone: Tone? = isStale ? .warning : (row.pointee.checkedAt == nil ? .muted : nil)
    return [
      TableCell(row.pointee.name),
      TableCell(texts.status(row), tone: row.pointee.status.tone),
      TableCell(phone ?? none, tone: valueTone),
      TableCell(operatorText.isEmpty ? none : operatorText, tone: valueTone),
      TableCell(temperature ?? none, tone: valueTone),
      TableCell(row.pointee.version ?? none, tone: valueTone),
      TableCell(texts.freshness(row, isStale: isStale), tone: freshnessTone),
      TableCell(row.pointee.snapshot?.latestSMS?.maskedBody ?? none, tone: .muted),
    ]
  }

  /// "Offline · connection refused", "Online".
  static func statusText(_ row: FleetRow, _ language: AppLanguage) -> String {
    guard let reason = row.reason else { return row.status.label(language) }
    return "\(row.status.label(language)) · \(reason.text(language, detail: row.detail))"
  }
}

/// The status and freshness texts of the workbench's rows, each distinct text made once: a
/// fleet has a handful of statuses and, after a refresh, a handful of ages, while every text
/// is a catalogue look-up with its placeholders filled.
struct RowTexts {
  let now: Date
  let language: AppLanguage
  private var statuses: [StatusKey: String] = [:]
  private var freshnesses: [FreshnessKey: String] = [:]

  init(now: Date, language: AppLanguage) {
    self.now = now
    self.language = language
  }

  struct StatusKey: Hashable {
    var status: InstanceStatus
    var reason: StatusReason?
    /// The seconds a layer timeout tells (nil for every other reason).
    var seconds: String?
  }

  /// What ``Freshness/describe(_:now:_:)`` reads of a row: whether it is stale and how many
  /// whole seconds before `now` it was checked and its snapshot fetched (ages are told in
  /// whole seconds and coarser).
  struct FreshnessKey: Hashable {
    var isStale: Bool
    var checked: Int?
    var fetched: Int?
  }

  /// ``WorkbenchView/statusText(_:_:)`` of the row at `row` (read through the pointer: a
  /// `FleetRow` passed to a mutating method was copied, every string retained and released).
  mutating func status(_ row: UnsafePointer<FleetRow>) -> String {
    let key = StatusKey(
      status: row.pointee.status, reason: row.pointee.reason,
      seconds: row.pointee.reason?.isLayerTimeout == true ? row.pointee.detail : nil)
    if let known = statuses[key] { return known }
    let text = WorkbenchView.statusText(row.pointee, language)
    statuses[key] = text
    return text
  }

  /// ``Freshness/describe(_:now:_:)`` of the row at `row`, whose ``FleetRow/isStale`` is
  /// `isStale`.
  mutating func freshness(_ row: UnsafePointer<FleetRow>, isStale: Bool) -> String {
    let key = FreshnessKey(
      isStale: isStale, checked: row.pointee.checkedAt.map(secondsBefore),
      fetched: row.pointee.snapshotFetchedAt.map(secondsBefore))
    if let known = freshnesses[key] { return known }
    let text = Freshness.describe(row.pointee, now: now, language)
    freshnesses[key] = text
    return text
  }

  private func secondsBefore(_ date: Date) -> Int {
    Int(now.timeIntervalSince(date))
  }
}
