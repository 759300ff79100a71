import Essentials
import EssentialsTesting
import Foundation
import LocalStore
import LocalStoreTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A database whose main file is shorter than its header says while the rest is in the
/// write-ahead log is healthy: it is what a kill during a checkpoint leaves, and what another
/// process sees while a checkpoint runs. Only SQLite decides whether a file is damaged.
@Suite struct CheckpointStateTests {
  let clock = TestClock()

  /// A table big rows can go into, so that a few transactions grow the file by many pages.
  static let bulk = SchemaModule(
    name: "bulk",
    migrations: [
      Migration(
        version: 1, name: "bulk",
        sql: "CREATE TABLE bulk (id INTEGER PRIMARY KEY, data BLOB NOT NULL)")
    ])

  /// The state a kill in the middle of a checkpoint leaves, built by hand: a used home whose
  /// committed transactions are all in the WAL (nothing checkpointed), copied as a kill -9
  /// would leave it (main file and WAL, no shared memory), then the checkpoint's first writes
  /// done: the newest page 1 from the WAL (its header now counts every page) and the pages
  /// after it up to half of the original file, while the file has not grown yet.
  func midCheckpointHome() throws -> (TemporaryDirectory, URL, Int) {
    let source = try TemporaryDirectory(prefix: "checkpoint-source")
    let store = try Store.open(directory: source.url, modules: [Self.bulk], clock: clock.clock)
    _ = try store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
    _ = try store.database.query("PRAGMA wal_autocheckpoint = 0")
    let repository = InstanceRepository(store: store)
    for index in 0..<40 {
      _ = try repository.add(
        name: "Device \(index)",
        origin: try InstanceOrigin(parsing: "http://10.0.2.\(index):3000"))
      try store.database.run(
        "INSERT INTO bulk (data) VALUES (?)", [Data(repeating: UInt8(index), count: 20_000)])
    }
    let home = try TemporaryDirectory(prefix: "checkpoint")
    let (database, claimed) = try InterruptedCheckpoint.leave(from: source.url, in: home.url)
    store.database.close()
    return (home, database, claimed)
  }

  @Test func aFileShorterThanItsHeaderWithTheRestInTheLogIsHealthy() throws {
    let (home, database, expected) = try midCheckpointHome()
    #expect(
      Int(DatabaseFile.size(database)) < expected,
      "the state under test: the header counts more pages than the file holds")
    let store = try Store.open(directory: home.url, modules: [Self.bulk], clock: clock.clock)
    #expect(!store.isReadOnly)
    #expect(store.issues.isEmpty)
    #expect(store.database.quickCheck().isEmpty)
    #expect(try InstanceRepository(store: store).list().count == 40)
    #expect(try store.database.queryOne("SELECT count(*) AS n FROM bulk")?.int("n") == 40)
    // The checkpoint finishes: the file is whole, and still healthy.
    _ = try store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
    #expect(Int(DatabaseFile.size(database)) >= expected)
    #expect(store.database.quickCheck().isEmpty)
  }

  @Test func readOnlyOpeningOfTheSameStateWorksToo() throws {
    let (home, _, _) = try midCheckpointHome()
    let store = try Store.open(
      directory: home.url, modules: [Self.bulk], clock: clock.clock, readOnly: true)
    #expect(try InstanceRepository(store: store).list().count == 40)
  }

  /// Readers open the store while another connection writes and checkpoints, so the file
  /// keeps growing under them: every open works (before, about one in a hundred was refused
  /// as "truncated" with advice to restore a backup).
  @Test func readersDuringWritesAndCheckpointsAreNeverRefused() async throws {
    let home = try TemporaryDirectory(prefix: "readers")
    let writer = try Store.open(directory: home.url, modules: [Self.bulk], clock: clock.clock)
    _ = try InstanceRepository(store: writer).add(
      name: "Shop", origin: try InstanceOrigin(parsing: "http://10.0.0.1:3000"))
    let stop = StopFlag()
    let writes = Task.detached {
      var row = 0
      while !stop.isSet {
        try writer.database.transaction { database in
          for _ in 0..<8 {
            row += 1
            try database.run(
              "INSERT INTO bulk (data) VALUES (?)",
              [Data(repeating: UInt8(row % 251), count: 16_384)])
          }
        }
        _ = try? writer.database.query("PRAGMA wal_checkpoint(PASSIVE)")
        stop.count()
      }
      return row
    }
    // Reading starts once the writer runs (in a full parallel test run it may start late).
    while stop.counted == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
    var refusals: [String] = []
    for _ in 0..<1_000 {
      do {
        let reader = try Store.open(directory: home.url, modules: [Self.bulk], clock: clock.clock)
        _ = try InstanceRepository(store: reader).list()
        reader.database.close()
      } catch {
        refusals.append(String(describing: error))
      }
    }
    stop.set()
    let rows = try await writes.value
    #expect(rows > 8, "the writer ran")
    #expect(
      refusals.isEmpty, "\(refusals.count) of 1,000 opens refused, first: \(refusals.first ?? "")")
  }
}

/// A flag one task sets and another reads, and a count of the other's rounds.
final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  private var rounds = 0

  var isSet: Bool { lock.withLock { value } }
  var counted: Int { lock.withLock { rounds } }
  func set() { lock.withLock { value = true } }
  func count() { lock.withLock { rounds += 1 } }
}
