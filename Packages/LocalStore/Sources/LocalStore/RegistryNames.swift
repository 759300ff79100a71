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
      let database = try? SQLiteDatabase(url: url, mode: .readOnly),
      let rows = try? database.query(sql, values)
    else { return [] }
    return rows.compactMap { try? transform($0) }
  }
}
