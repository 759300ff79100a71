import Essentials
import Foundation
import SimAdminClient
import SimAdminSimulator
import Testing

@testable import MessagesFeature

/// The newest id a sync records for a device's first page (``DeviceSyncState/topID``) is what
/// a later sync's first page (``MessageSyncer/laterFirstPage`` rows) is compared with: a
/// smaller one there means the ids went back (renumbered). A message stamped below those rows
/// with the newest id (late, a clock reset, a date that names no time) is no renumbering.
@Suite("The first page's newest id")
struct FirstPageTopTests {
  @Test("a late message below the first page: later syncs are ordinary, not renumbered")
  func lateRowBelowTheFirstPage() async throws {
    let (harness, device) = try await CompletenessTests.synced(smsCount: 300, seed: 7)
    // Stamped below the later first page's 20 rows, within a deep read's first page of 100.
    let below = device.messages()[40]
    let at = try #require(BeijingTime.date(from: below.timestamp)).addingTimeInterval(-1)
    _ = device.receiveSMS(from: "95588", content: "late", at: at)
    #expect(!CompletenessTests.firstPage(device).contains { $0.content == "late" })
    let found = await CompletenessTests.sync(harness)
    #expect(found.deepRead == "unaccounted")
    #expect(found.inserted == 1)
    for _ in 0..<2 {
      let quiet = await CompletenessTests.sync(harness)
      #expect(quiet.failure == nil)
      #expect(quiet.deepRead == nil)
      #expect(quiet.inserted == 0)
    }
    #expect(try CompletenessTests.archived(harness) == CompletenessTests.device(harness))
    await harness.stop()
  }

  @Test("dates that name no time sort below every page: no renumbering at each sync")
  func badDatesAreNoRenumbering() async throws {
    let (harness, device) = try await CompletenessTests.synced(smsCount: 60, seed: 12)
    device.setSMSCases([.badDates])
    for _ in 0..<4 {
      device.receiveLiveTraffic(count: 2)
      let sync = await CompletenessTests.sync(harness)
      #expect(sync.failure == nil)
      #expect(sync.deepRead != "renumbered")
      #expect(sync.inserted == 2)
    }
    let quiet = await CompletenessTests.sync(harness)
    #expect(quiet.deepRead == nil)
    #expect(try CompletenessTests.archived(harness) == CompletenessTests.device(harness))
    await harness.stop()
  }
}
