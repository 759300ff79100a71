import Essentials
import Foundation
import Testing

@testable import FleetFeature

/// The workbench makes each distinct status and freshness text once; every row still gets
/// the text it would get on its own.
@Suite struct WorkbenchRowTextsTests {
  static let now = Date(timeIntervalSince1970: 1_767_225_600)

  /// Rows checked and fetched at ages around the word boundaries (a minute, an hour, a day),
  /// a fraction of a second apart, stale and fresh, never checked, future-dated.
  static var rows: [FleetRow] {
    let ages: [Double] = [
      0, 0.4, 59.2, 59.9, 60, 60.7, 61, 119.99, 120, 3_599.5, 3_600, 3_600.3, 7_199.9, 86_399.9,
      86_400, 90_000.5, -5, -0.5,
    ]
    var rows: [FleetRow] = []
    for (index, age) in ages.enumerated() {
      for fetchedAge in [nil, age, age + 0.6, age + 3_600] as [Double?] {
        let status = InstanceStatus.allCases[index % InstanceStatus.allCases.count]
        rows.append(
          FleetRow(
            id: "\(index)-\(rows.count)", name: "n", origin: "https://x", isPlainHTTP: false,
            status: status,
            reason: index % 3 == 0
              ? nil : StatusReason.allCases[index % StatusReason.allCases.count],
            checkedAt: index % 7 == 6 ? nil : now.addingTimeInterval(-age),
            snapshot: fetchedAge == nil ? nil : DeviceSnapshot(),
            snapshotFetchedAt: fetchedAge.map { now.addingTimeInterval(-$0) }, createdAt: now))
      }
    }
    return rows
  }

  @Test(arguments: AppLanguage.allCases)
  func sharedTextsAreEachRowsOwn(language: AppLanguage) {
    var texts = RowTexts(now: Self.now, language: language)
    // Twice over, so that the second pass reads only remembered texts.
    for row in Self.rows + Self.rows {
      let (status, freshness) = withUnsafePointer(to: row) {
        (texts.status($0), texts.freshness($0, isStale: row.isStale))
      }
      #expect(status == WorkbenchView.statusText(row, language), "\(row.id)")
      #expect(freshness == Freshness.describe(row, now: Self.now, language), "\(row.id)")
    }
  }
}
