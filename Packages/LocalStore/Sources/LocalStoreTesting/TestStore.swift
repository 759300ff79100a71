import Essentials
import EssentialsTesting
import Foundation
import LocalStore

/// A real store in its own temporary directory, with a test clock: what feature tests use.
///
/// Keep the value alive for the test's duration; the directory is removed afterwards.
public final class TestStore: Sendable {
  /// The temporary data directory.
  public let directory: TemporaryDirectory
  /// The clock stamping writes; advance it to move time.
  public let clock: TestClock
  /// The opened store.
  public let store: Store

  /// Opens a store with `modules` (plus core) in a fresh temporary directory.
  public convenience init(modules: [SchemaModule] = [], clock: TestClock = TestClock()) throws {
    try self.init(
      directory: try TemporaryDirectory(prefix: "msa-store"), modules: modules, clock: clock)
  }

  /// Opens the store already in `directory` (a test that prepared the files first, e.g. a
  /// database of a newer schema version).
  public init(
    directory: TemporaryDirectory, modules: [SchemaModule] = [], clock: TestClock = TestClock()
  ) throws {
    self.directory = directory
    self.clock = clock
    store = try Store.open(directory: directory.url, modules: modules, clock: clock.clock)
  }

  /// The instance registry over ``store``.
  public var instances: InstanceRepository { InstanceRepository(store: store) }
}
