import Foundation

/// The registry's names read straight from a data directory, for the shells' Tab key:
/// read-only, no migration, nothing created, and empty rather than failing when there is no
/// database yet (or it is from another version).
public enum RegistryNames {
  /// One instance as completion shows it.
  public struct InstanceName: Sendable, Equatable {
    /// Its id.
    public let id: String
    /// Its name.
    public let name: String
    /// Its SimAdmin address.
    public let origin: String
  }

  /// Every instance, by name.
  public static func instances(in directory: URL) -> [InstanceName] {
    rows(in: directory, "SELECT id, name, origin FROM instances ORDER BY name COLLATE NOCASE") {
      InstanceName(
        id: try $0.string("id"), name: try $0.string("name"), origin: try $0.string("origin"))
    }
  }

  /// Every group's name.
  public static func groups(in directory: URL) -> [String] {
    rows(in: directory, "SELECT name FROM instance_groups ORDER BY name COLLATE NOCASE") {
      try $0.string("name")
    }
  }

  /// Every tag in use.
  public static func tags(in directory: URL) -> [String] {
    rows(
      in: directory,
      "SELECT DISTINCT tag.value AS tag FROM instances, json_each(instances.tags) AS tag ORDER BY 1"
    ) { try $0.string("tag") }
  }

  /// The rows of `sql` in the directory's database, read-only; empty when it cannot be read.
  public static func rows<T>(
    in directory: URL, _ sql: String, _ values: [any SQLiteBindable] = [],
    _ transform: (Row) throws -> T
  ) -> [T] {
    let url = directory.appendingPathComponent(Store.databaseFileName)
    guard FileManager.default.fileExists(atPath: url.path),
      let database = try? SQLiteDatabase(url: url, mode: openMode(url)),
      let rows = try? database.query(sql, values)
    else { return [] }
    return rows.compactMap { try? transform($0) }
  }

  /// How a Tab press opens the database: with nothing waiting in its write-ahead log (no
  /// other msa writing, the usual case) as an immutable file — no locks, and no `-wal` or
  /// `-shm` file created beside it, which a read-only open in WAL mode otherwise makes (and
  /// leaves behind); with a log to read (another msa has written since the last checkpoint)
  /// read-only, so a name just added is offered. Completion is a glance: a write landing
  /// during the read at worst gives a short or empty list, never a changed file.
  static func openMode(_ database: URL) -> SQLiteDatabase.Mode {
    let log = database.path + "-wal"
    let size = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? nil
    return (size ?? 0) == 0 ? .immutable : .readOnly
  }
}
