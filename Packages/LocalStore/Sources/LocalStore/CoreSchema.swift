import Foundation

/// The `core` schema module: the instance registry, live status and the two logs.
///
/// See the package README for the table definitions.
public enum CoreSchema {
  /// The module, applied by every ``Store``.
  public static let module = SchemaModule(
    name: "core",
    migrations: [
      Migration(
        version: 1, name: "registry, status and logs",
        sql: """
          CREATE TABLE instance_groups (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            created_at INTEGER NOT NULL
          );
          CREATE TABLE instances (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            origin TEXT NOT NULL UNIQUE,
            group_id TEXT NULL REFERENCES instance_groups(id) ON DELETE SET NULL,
            tags TEXT NOT NULL DEFAULT '[]',
            revision INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
          );
          CREATE INDEX instances_group ON instances(group_id);
          CREATE TABLE instance_status (
            instance_id TEXT PRIMARY KEY REFERENCES instances(id) ON DELETE CASCADE,
            status TEXT NOT NULL,
            reason TEXT,
            detail TEXT,
            checked_at INTEGER,
            latency_ms INTEGER,
            version TEXT,
            snapshot TEXT,
            snapshot_fetched_at INTEGER
          );
          CREATE TABLE connection_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            instance_id TEXT NOT NULL,
            instance_name TEXT NOT NULL,
            at INTEGER NOT NULL,
            result TEXT NOT NULL,
            status TEXT NOT NULL,
            previous_status TEXT,
            latency_ms INTEGER,
            reason TEXT
          );
          CREATE INDEX connection_log_at ON connection_log(at);
          CREATE INDEX connection_log_instance ON connection_log(instance_id, at);
          CREATE TABLE runtime_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            at INTEGER NOT NULL,
            level TEXT NOT NULL,
            label TEXT NOT NULL,
            message TEXT NOT NULL,
            metadata TEXT NOT NULL DEFAULT '{}',
            instance_id TEXT
          );
          CREATE INDEX runtime_log_at ON runtime_log(at);
          CREATE INDEX runtime_log_instance ON runtime_log(instance_id, at);
          """),
      Migration(
        version: 2, name: "device requests in the connection log",
        sql: """
          ALTER TABLE connection_log ADD COLUMN requests TEXT NOT NULL DEFAULT '[]';
          """),
    ])
}
