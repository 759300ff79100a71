import Foundation
import LocalStore

/// The `messages` schema module: the archive, its full-text index, the outbox and the
/// per-instance sync state. Dates are Unix-epoch milliseconds.
///
/// Version 2 keys a message's identity by `(instance_id, device_timestamp, dedupe_key)`
/// instead of the bare hash: a device's pages arrive newest first, so new keys land next to
/// each other in that index instead of at random places in a hash-ordered one (a first sync
/// of a million messages wrote and re-read index pages all over the file).
enum MessagesSchema {
  static let module = SchemaModule(
    name: "messages",
    migrations: [
      Migration(version: 1, name: "create archive, search, outbox", sql: version1),
      Migration(version: 2, name: "identity index in device order", sql: version2),
      Migration(version: 3, name: "multiplicity, id epochs, completeness state", sql: version3),
      Migration(version: 4, name: "search index behind a watermark, bigrams", sql: version4),
      Migration(version: 5, name: "verification codes, receiving SIM number", sql: version5),
      Migration(version: 6, name: "completeness per direction", sql: version6),
      Migration(version: 7, name: "bigram masks in the time index", sql: version7),
      Migration(version: 8, name: "untrusted device times, first seen", apply: version8),
      Migration(
        version: 9, name: "bounded reads: page size, reading on, repeated ids", sql: version9),
      Migration(version: 10, name: "exact peer keys", apply: exactPeerKeys),
      Migration(version: 11, name: "local deletes stay deleted", sql: version11),
    ])

  static let version1 = """
    CREATE TABLE messages (
      id INTEGER PRIMARY KEY,
      instance_id TEXT NOT NULL,
      instance_name TEXT NOT NULL,
      direction TEXT NOT NULL,
      peer_raw TEXT NOT NULL,
      peer_key TEXT NOT NULL,
      body TEXT NOT NULL,
      device_at INTEGER NOT NULL,
      device_timestamp TEXT NOT NULL,
      status TEXT NOT NULL,
      upstream_id INTEGER,
      marker TEXT,
      dedupe_key TEXT NOT NULL UNIQUE,
      synced_at INTEGER NOT NULL
    );
    CREATE INDEX messages_by_time ON messages(device_at DESC, id DESC);
    CREATE INDEX messages_by_peer ON messages(peer_key, device_at DESC, id DESC);
    CREATE INDEX messages_by_instance ON messages(instance_id, device_at DESC, id DESC);
    CREATE VIRTUAL TABLE messages_fts USING fts5(
      body, content='messages', content_rowid='id', tokenize='trigram');
    CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
      INSERT INTO messages_fts(rowid, body) VALUES (new.id, new.body);
    END;
    CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
      INSERT INTO messages_fts(messages_fts, rowid, body) VALUES ('delete', old.id, old.body);
    END;
    CREATE TABLE message_sync_state (
      instance_id TEXT PRIMARY KEY,
      instance_name TEXT NOT NULL,
      history_complete INTEGER NOT NULL DEFAULT 0,
      in_progress INTEGER NOT NULL DEFAULT 0,
      last_started_at INTEGER,
      last_finished_at INTEGER,
      last_error TEXT
    );
    CREATE TABLE outbox (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      instance_id TEXT NOT NULL,
      instance_name TEXT NOT NULL,
      peer TEXT NOT NULL,
      body TEXT NOT NULL,
      state TEXT NOT NULL,
      reason_key TEXT,
      reason_detail TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      expires_at INTEGER,
      sent_at INTEGER,
      upstream_path TEXT
    );
    CREATE INDEX outbox_by_state ON outbox(state, instance_id, id);
    CREATE TABLE outbox_attempts (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      entry_id INTEGER NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
      at INTEGER NOT NULL,
      result TEXT NOT NULL,
      reason_key TEXT,
      reason_detail TEXT
    );
    CREATE INDEX outbox_attempts_by_entry ON outbox_attempts(entry_id, id);
    """

  /// Rebuilds `messages` without the column's `UNIQUE` (row ids kept, so the external-content
  /// search index stays valid) and adds the identity index.
  static let version2 = """
    CREATE TABLE messages_v2 (
      id INTEGER PRIMARY KEY,
      instance_id TEXT NOT NULL,
      instance_name TEXT NOT NULL,
      direction TEXT NOT NULL,
      peer_raw TEXT NOT NULL,
      peer_key TEXT NOT NULL,
      body TEXT NOT NULL,
      device_at INTEGER NOT NULL,
      device_timestamp TEXT NOT NULL,
      status TEXT NOT NULL,
      upstream_id INTEGER,
      marker TEXT,
      dedupe_key TEXT NOT NULL,
      synced_at INTEGER NOT NULL
    );
    INSERT INTO messages_v2 SELECT id, instance_id, instance_name, direction, peer_raw, peer_key,
      body, device_at, device_timestamp, status, upstream_id, marker, dedupe_key, synced_at
      FROM messages;
    DROP TRIGGER messages_fts_insert;
    DROP TRIGGER messages_fts_delete;
    DROP TABLE messages;
    ALTER TABLE messages_v2 RENAME TO messages;
    CREATE UNIQUE INDEX messages_identity ON messages(instance_id, device_timestamp, dedupe_key);
    CREATE INDEX messages_by_time ON messages(device_at DESC, id DESC);
    CREATE INDEX messages_by_peer ON messages(peer_key, device_at DESC, id DESC);
    CREATE INDEX messages_by_instance ON messages(instance_id, device_at DESC, id DESC);
    CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
      INSERT INTO messages_fts(rowid, body) VALUES (new.id, new.body);
    END;
    CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
      INSERT INTO messages_fts(messages_fts, rowid, body) VALUES ('delete', old.id, old.body);
    END;
    """

  /// Identity that keeps multiplicity and the state of the completeness check (issue 14).
  ///
  /// - `occurrence` numbers the archived rows of one instance with equal content (0 for the
  ///   first): two identical rows on a device are two archived messages, so the identity index
  ///   takes it in.
  /// - `id_epoch` says which of the instance's id epochs `upstream_id` belongs to: a device's
  ///   ids are stable and only grow until its database is reset or restored; a new epoch starts
  ///   when an id comes back with other content (see ``MessageArchive``).
  /// - `repaired` marks a message whose body or number held invalid UTF-8, stored with U+FFFD.
  /// - The sync state keeps the instance's current epoch, how many of its rows the archive has
  ///   accounted for on the device and the newest device id among them, the newest id on the
  ///   first page (it only falls when ids are renumbered or the newest row deleted), the total the device
  ///   last reported (`/api/sms/stats`) and when every row was last read (a deep read).
  ///
  /// Existing rows keep their upstream ids in epoch 0; the first sync after the upgrade reads
  /// each device through once (no accounting yet), which also restores identical messages an
  /// older version merged.
  static let version3 = """
    ALTER TABLE messages ADD COLUMN id_epoch INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE messages ADD COLUMN occurrence INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE messages ADD COLUMN repaired INTEGER NOT NULL DEFAULT 0;
    DROP INDEX messages_identity;
    CREATE UNIQUE INDEX messages_identity
      ON messages(instance_id, device_timestamp, dedupe_key, occurrence);
    CREATE INDEX messages_by_upstream ON messages(instance_id, id_epoch, upstream_id);
    ALTER TABLE message_sync_state ADD COLUMN id_epoch INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE message_sync_state ADD COLUMN accounted INTEGER;
    ALTER TABLE message_sync_state ADD COLUMN newest_id INTEGER;
    ALTER TABLE message_sync_state ADD COLUMN top_id INTEGER;
    ALTER TABLE message_sync_state ADD COLUMN allowance INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE message_sync_state ADD COLUMN reported_total INTEGER;
    ALTER TABLE message_sync_state ADD COLUMN reported_at INTEGER;
    ALTER TABLE message_sync_state ADD COLUMN last_deep_at INTEGER;
    """

  /// The search index catches up after the rows are stored (issue 19), and one- and
  /// two-character terms get an index of their own.
  ///
  /// - `message_index_state` holds the archive's watermark: every message with an id at or
  ///   below it is in both search indexes, every one above it in neither. New messages are
  ///   stored without touching the indexes (the insert trigger is gone) and
  ///   ``MessageArchive/catchUpIndex(chunk:progress:)`` moves the watermark up one
  ///   transaction at a time, so a crash resumes from it. Searches scan the rows above it.
  ///   Ingest gives new rows ids above both the largest id and the watermark, so an id at or
  ///   below the watermark is never reused by an unindexed row.
  /// - `messages_grams` is a contentless FTS5 table holding each message's character bigrams
  ///   (and its last character alone), each as the hex of its UTF-8 bytes with ASCII letters
  ///   lowered, so a one- or two-character term (验证, 快递) is one token or one prefix,
  ///   matched exactly as `LIKE` would (ASCII case folded, nothing else). `detail=none`:
  ///   single tokens need no positions. The archive removes a message's bigrams when it
  ///   deletes the message; the trigram index keeps its delete trigger for indexed rows.
  /// - The trigram index is emptied: the watermark starts at 0 and the next sync rebuilds both
  ///   indexes (until then searches scan, exactly).
  static let version4 = """
    CREATE VIRTUAL TABLE messages_grams USING fts5(
      grams, content='', detail='none', columnsize=0);
    CREATE TABLE message_index_state (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      watermark INTEGER NOT NULL
    );
    INSERT INTO message_index_state (id, watermark) VALUES (1, 0);
    DROP TRIGGER messages_fts_insert;
    DROP TRIGGER messages_fts_delete;
    INSERT INTO messages_fts(messages_fts) VALUES ('delete-all');
    CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages
      WHEN old.id <= (SELECT watermark FROM message_index_state WHERE id = 1) BEGIN
      INSERT INTO messages_fts(messages_fts, rowid, body) VALUES ('delete', old.id, old.body);
    END;
    """

  /// Verification codes and the SIM number (issue 17).
  ///
  /// - `code` is the message's verification code as ``CodeDetector`` extracts it (nil: none);
  ///   a partial index over the rows with one makes `messages list --has-code` and `msa code`
  ///   read only those. `message_codes` keeps the rules version the stored codes were
  ///   extracted with; 0 after the upgrade, so the first use extracts every archived message's
  ///   code (``MessageArchive/refreshCodes()``), as a later rules version does again.
  /// - `sim_number` is the receiving SIM's own number for an incoming message (the sending
  ///   SIM's for an outgoing one) as the instance's status knew it when the message was
  ///   archived; older rows have none (it was not known then). For an instance never probed
  ///   (no stored status), its first sync reads `/api/sim` once and keeps the number in the
  ///   sync state.
  static let version5 = """
    ALTER TABLE messages ADD COLUMN code TEXT;
    ALTER TABLE messages ADD COLUMN sim_number TEXT;
    ALTER TABLE message_sync_state ADD COLUMN sim_number TEXT;
    CREATE INDEX messages_with_code ON messages(device_at DESC, id DESC) WHERE code IS NOT NULL;
    CREATE TABLE message_codes (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      rules_version INTEGER NOT NULL
    );
    INSERT INTO message_codes (id, rules_version) VALUES (1, 0);
    """

  /// The completeness check counts per direction (issue 14): `accounted_outgoing` is how many
  /// of the rows the last sync accounted for (`accounted`) are outgoing; the rest are
  /// incoming. NULL (as after the upgrade) skips the per-direction comparison until a sync has
  /// recorded it.
  static let version6 = """
    ALTER TABLE message_sync_state ADD COLUMN accounted_outgoing INTEGER;
    """

  /// Each message's bigram mask (``MessageArchive/gramsMask(_:)``), 128 bits in two integers,
  /// kept in the time index beside the time and the id: a search walking the newest messages
  /// tests a term's mask on the index alone and reads (and matches by `LIKE`) only the
  /// messages whose mask has every bit of the term's. NULL (the rows archived before this
  /// version) is "unknown": those rows are always read and matched, so a search stays exact.
  static let version7 = """
    ALTER TABLE messages ADD COLUMN grams_low INTEGER;
    ALTER TABLE messages ADD COLUMN grams_high INTEGER;
    DROP INDEX messages_by_time;
    CREATE INDEX messages_by_time ON messages(device_at DESC, id DESC, grams_low, grams_high);
    """

  /// Device times the archive does not believe, and when a message was first seen (issue 36
  /// point 6, issue 29 points 6 and 7; see ``DeviceTime``).
  ///
  /// - `time_approximate` marks a message whose device timestamp names no time (`""`,
  ///   `0000-00-00 00:00:00`, `2026-02-30 10:00:00`, an epoch number) or one more than a day
  ///   ahead of the archive's clock when it was archived: `device_timestamp` keeps the text
  ///   as written and `device_at` is when msa first archived it (`synced_at`).
  /// - `seen_after` is when the instance's previous successful sync started, at the moment
  ///   the message was first archived: it appeared on the device between that sync and the
  ///   one that archived it. NULL: archived by the instance's first sync (history), or
  ///   before this version.
  /// - `message_sync_state.last_ok_at` is when the instance's last successful sync started;
  ///   `sim_number_at` when a sync last read the SIM's number from the device (issue 29
  ///   point 8: after a SIM swap the number a sync stamps is the one read then, not one kept
  ///   from before the swap).
  ///
  /// Existing rows are dated again: v1.0.0–1.0.5's RFC 3339 timestamps (which older msa
  /// dated at sync time) get their true instant, and every row whose text names no believable
  /// time is marked approximate at the time it was archived. Only rows whose `device_at`
  /// equals `synced_at`, lies more than a day after it, or whose text is not of the Beijing
  /// form are read (an ordinary archive's rows are not).
  static let version8: @Sendable (SQLiteDatabase) throws -> Void = { database in
    try database.execute(
      """
      ALTER TABLE messages ADD COLUMN time_approximate INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE messages ADD COLUMN seen_after INTEGER;
      ALTER TABLE message_sync_state ADD COLUMN last_ok_at INTEGER;
      ALTER TABLE message_sync_state ADD COLUMN sim_number_at INTEGER;
      UPDATE message_sync_state SET last_ok_at = last_started_at
        WHERE history_complete = 1 AND in_progress = 0 AND last_error IS NULL;
      """)
    var after: Int64 = 0
    while true {
      let rows = try database.query(
        """
        SELECT id, device_timestamp, device_at, synced_at FROM messages
        WHERE id > ? AND (device_at = synced_at OR device_at > synced_at + 86400000
          OR device_timestamp NOT GLOB
            '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]')
        ORDER BY id LIMIT 2000
        """, [after])
      guard let last = rows.last else { break }
      for row in rows {
        let syncedAt = Date(timeIntervalSince1970: Double(try row.int64("synced_at")) / 1000)
        let trusted = DeviceTime.trusted(try row.string("device_timestamp"), now: syncedAt)
        try database.run(
          "UPDATE messages SET device_at = ?, time_approximate = ? WHERE id = ?",
          [trusted ?? syncedAt, trusted == nil, try row.int64("id")])
      }
      after = try last.int64("id")
    }
  }

  /// A device's answers are untrusted (issue 36): what a sync keeps between runs to read a
  /// broken or hostile device in bounded steps.
  ///
  /// - `page_size`: the page size that worked for this device after a page was too large for
  ///   the response limit (halved until it fit); NULL: the size asked for works.
  /// - `read_on`: where a read that stopped at the per-device ceiling goes on next time, as
  ///   JSON (``SyncResume``); NULL: nothing to read on from.
  /// - `ids_repeat`: the device lists the same id on rows of different content, so its rows
  ///   are matched by content and its ids prove nothing.
  static let version9 = """
    ALTER TABLE message_sync_state ADD COLUMN page_size INTEGER;
    ALTER TABLE message_sync_state ADD COLUMN read_on TEXT;
    ALTER TABLE message_sync_state ADD COLUMN ids_repeat INTEGER NOT NULL DEFAULT 0;
    """

  /// What the user deleted from the archive, by device id and identity key (``MessageIdentity``):
  /// a sync skips those device rows, so a local delete stays deleted (issue 35).
  static let version11 = """
    CREATE TABLE message_tombstones (
      instance_id TEXT NOT NULL,
      upstream_id INTEGER NOT NULL,
      dedupe_key TEXT NOT NULL,
      deleted_at INTEGER NOT NULL,
      PRIMARY KEY (instance_id, upstream_id, dedupe_key)
    ) WITHOUT ROWID;
    """

  /// Peer keys compare exactly but for a mobile number's documented forms (``PeerNumber``,
  /// issue 36). An older version dropped spaces, dashes, dots and parentheses and lowered
  /// letters, so `-10086`, `(10086)` and `10 086` shared `10086`'s conversation and answered
  /// `msa code --from 10086`. Each stored key is computed again from the peer as the device
  /// wrote it (`peer_raw`, kept untouched), so those conversations split; messages, ids and
  /// everything else stay as they are. The update walks the peer index (`messages_by_peer`)
  /// per old key, never the whole table once per sender.
  @Sendable static func exactPeerKeys(_ database: SQLiteDatabase) throws {
    let pairs = try database.query("SELECT DISTINCT peer_key, peer_raw FROM messages")
      .map { (key: try $0.string("peer_key"), raw: try $0.string("peer_raw")) }
    for pair in pairs {
      let key = PeerNumber.key(pair.raw)
      guard key != pair.key else { continue }
      try database.run(
        "UPDATE messages SET peer_key = ? WHERE peer_key = ? AND peer_raw = ?",
        [key, pair.key, pair.raw])
    }
  }
}
