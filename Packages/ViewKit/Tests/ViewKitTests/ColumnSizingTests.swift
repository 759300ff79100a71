import Foundation
import Testing

@testable import ViewKit

@Suite struct ColumnSizingTests {
  /// Name and status (whole), two secondary columns, and a message text (fill).
  static func table(status: String = "Offline · connection refused") -> Table {
    Table(
      columns: [
        TableColumn(
          id: "name", title: "Name", minWidth: 6, maxWidth: 24, priority: 10, sizing: .whole),
        TableColumn(
          id: "status", title: "Status", minWidth: 8, maxWidth: 40, priority: 9, sizing: .whole),
        TableColumn(id: "phone", title: "Phone", minWidth: 8, maxWidth: 16, priority: 6),
        TableColumn(id: "version", title: "Version", minWidth: 7, maxWidth: 8, priority: 3),
        TableColumn(
          id: "text", title: "Text", minWidth: 8, priority: 8, sizing: .fill),
      ],
      rows: [
        TableRow(
          id: "1",
          cells: [
            "Real Device Shanghai", TableCell(status), "+8615100222917", "1.1.10",
            "Your verification code is ••••••, valid for five minutes. Do not share it.",
          ]),
        TableRow(id: "2", cells: ["Wuhan", "Online", "—", "1.1.8", "Hi"]),
      ])
  }

  static func widths(_ table: Table, _ width: Int) -> [String: Int] {
    let layout = TableLayout(table: table, layout: Layout(language: .english))
    let result = layout.columnWidths(width: width, measured: .init(table))
    return Dictionary(uniqueKeysWithValues: result.map { (table.columns[$0.index].id, $0.width) })
  }

  @Test func fillTakesOnlyWhatTheOthersLeave() {
    let widths = Self.widths(Self.table(), 150)
    #expect(widths["name"] == 20)
    #expect(widths["status"] == 28)
    #expect(widths["phone"] == 14)
    #expect(widths["version"] == 7)
    // 150 − 20 − 28 − 14 − 7 − 4 gaps of 2.
    #expect(widths["text"] == 73)
  }

  @Test func secondaryColumnsGoBeforeAWholeStatusIsCut() throws {
    let widths = Self.widths(Self.table(), 70)
    #expect(widths["name"] == 20)
    #expect(widths["status"] == 28)
    #expect(widths["phone"] == 8)
    #expect(widths["version"] == nil)
    #expect(widths["text"] == 8)
    let lines = TextRenderer.render(.table(Self.table()), options: RenderOptions(width: 70))
    #expect(lines.contains("Offline · connection refused"))
    #expect(lines.contains("Real Device Shanghai"))
  }

  @Test func aWholeColumnIsCutOnlyWhenNothingLowerIsLeft() {
    let widths = Self.widths(Self.table(), 30)
    // Only name and status are left, and together they need 50: both fall back to their
    // minimums and grow by priority.
    #expect(Set(widths.keys) == ["name", "status"])
    #expect(widths["name"] == 20)
    #expect(widths["status"] == 8)
  }

  @Test func sizingSurvivesCodingAndIsOptional() throws {
    let column = TableColumn(id: "b", title: "Body", sizing: .fill)
    let data = try JSONEncoder().encode(column)
    #expect(try JSONDecoder().decode(TableColumn.self, from: data) == column)
    let old =
      #"{"id":"a","title":"A","minWidth":4,"priority":0,"alignment":"leading","truncation":"tail"}"#
    let decoded = try JSONDecoder().decode(TableColumn.self, from: Data(old.utf8))
    #expect(decoded.sizing == .natural)
    let plain = String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self)
    #expect(!plain.contains("sizing"))
  }
}

@Suite struct FillColumnTests {
  @Test func aFillColumnOfLowPriorityGivesWayToACutColumn() {
    let table = Table(
      columns: [
        TableColumn(id: "name", title: "Name", minWidth: 4, priority: 10, sizing: .whole),
        TableColumn(id: "operator", title: "Operator", minWidth: 6, maxWidth: 18, priority: 4),
        TableColumn(id: "sms", title: "SMS", minWidth: 10, priority: 1, sizing: .fill),
      ],
      rows: [TableRow(id: "1", cells: ["Shop router", "CHINA MOBILE 78%", "Your code is ••••"])])
    // 41 columns: name 11 + operator 16 + 2 gaps leave the preview its minimum of 10.
    #expect(ColumnSizingTests.widths(table, 41) == ["name": 11, "operator": 16, "sms": 10])
    // 40 columns: the preview's minimum would cut the operator, so the preview goes.
    #expect(ColumnSizingTests.widths(table, 40) == ["name": 11, "operator": 16])
  }
}

@Suite struct ComfortableWidthTests {
  /// A message list: time, number, text (fill), then code, instance and SIM number.
  static func table(comfortable: Int?) -> Table {
    Table(
      columns: [
        TableColumn(id: "time", title: "Time", minWidth: 16, priority: 4),
        TableColumn(id: "peer", title: "Number", minWidth: 8, maxWidth: 18, priority: 6),
        TableColumn(
          id: "text", title: "Text", minWidth: 10, priority: 3, sizing: .fill,
          comfortableWidth: comfortable),
        TableColumn(id: "code", title: "Code", minWidth: 4, priority: 2),
        TableColumn(id: "instance", title: "Instance", minWidth: 8, priority: 1, sizing: .whole),
        TableColumn(id: "sim", title: "SIM", minWidth: 6, priority: 0),
      ],
      rows: [
        TableRow(
          id: "1",
          cells: [
            "2026-01-01 07:59", "+8613800138000", "Your code is ••••••, valid for 5 minutes",
            "••••••", "Shenzhen Office CPE", "+8613912345678",
          ])
      ])
  }

  @Test func lowerColumnsGoUntilTheTextIsComfortable() {
    // Without a comfortable width the text gets its minimum beside every column.
    #expect(ColumnSizingTests.widths(Self.table(comfortable: nil), 80)["text"] == 10)
    // With one, the SIM number goes, then the instance: the text gets the room.
    let widths = ColumnSizingTests.widths(Self.table(comfortable: 24), 80)
    #expect(widths["sim"] == nil)
    #expect(widths["instance"] == nil)
    #expect(widths["code"] == 6)
    // 80 − 16 − 14 − 6 − 3 gaps of 2.
    #expect(widths["text"] == 38)
    // Wide enough, nothing goes.
    let wide = ColumnSizingTests.widths(Self.table(comfortable: 24), 120)
    #expect(Set(wide.keys) == ["time", "peer", "text", "code", "instance", "sim"])
    #expect((wide["text"] ?? 0) >= 24)
  }

  @Test func aShortTextNeedsNoRoom() {
    // A text narrower than the comfortable width whole: nothing is dropped for it.
    var table = Self.table(comfortable: 24)
    table.rows[0].cells[2] = "ok"
    let widths = ColumnSizingTests.widths(table, 80)
    #expect(Set(widths.keys) == ["time", "peer", "text", "code", "instance", "sim"])
  }

  @Test func higherColumnsAreNeverDroppedForIt() {
    // 40 columns: only what ranks above the text is left beside it, whatever its comfort.
    let widths = ColumnSizingTests.widths(Self.table(comfortable: 60), 40)
    #expect(widths["time"] == 16)
    #expect(widths["peer"] != nil)
  }

  @Test func comfortableWidthSurvivesCodingAndIsOptional() throws {
    let column = TableColumn(
      id: "b", title: "Body", sizing: .fill, comfortableWidth: 24)
    let data = try JSONEncoder().encode(column)
    #expect(try JSONDecoder().decode(TableColumn.self, from: data) == column)
    let plain = TableColumn(id: "b", title: "Body", sizing: .fill)
    let encoded = String(decoding: try JSONEncoder().encode(plain), as: UTF8.self)
    #expect(!encoded.contains("comfortableWidth"))
  }
}
