import Foundation

/// One step of a module's schema: a version number, a name, and what it does.
public struct Migration: Sendable {
  /// The version the schema is at after this step (1, 2, 3… in order).
  public let version: Int
  /// A short name for reports, e.g. `create instances`.
  public let name: String
  /// Applies the step; runs inside the migration's transaction.
  public let apply: @Sendable (SQLiteDatabase) throws -> Void

  /// A step written as SQL (one or more statements).
  public init(version: Int, name: String, sql: String) {
    self.version = version
    self.name = name
    self.apply = { database in try database.execute(sql) }
  }

  /// A step written as code, for data transformations SQL alone cannot express.
  public init(
    version: Int, name: String, apply: @escaping @Sendable (SQLiteDatabase) throws -> Void
  ) {
    self.version = version
    self.name = name
    self.apply = apply
  }
}

/// The tables one part of the app owns, with their migrations.
///
/// Each module's version is kept in `schema_versions(module, version, updated_at)`, so parts
/// evolve independently: `core` (the registry, status and logs), `messages`, …
public struct SchemaModule: Sendable {
  /// The module's name, the key in `schema_versions`.
  public let name: String
  /// Its migrations, versions 1, 2, 3… in order.
  public let migrations: [Migration]

  /// A module with its migrations.
  public init(name: String, migrations: [Migration]) {
    self.name = name
    self.migrations = migrations
  }

  /// The newest version this code knows (0 for no migrations).
  public var latestVersion: Int { migrations.map(\.version).max() ?? 0 }

  /// Whether versions run 1, 2, 3… without gaps or repeats.
  var hasValidVersions: Bool {
    migrations.map(\.version) == Array(stride(from: 1, through: migrations.count, by: 1))
  }
}
