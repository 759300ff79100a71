import LocalStore

/// A search term and how the archive's indexes match it (see ``MessagesSchema/version4``).
struct SearchTerm {
  /// The term as searched (trimmed).
  let text: String
  /// The `LIKE` pattern (`%term%`, with `%`, `_` and `\` escaped by `\` when the term has
  /// any).
  let like: String
  /// `LIKE ?` for ``like``, with `ESCAPE '\'` only when the term needed escaping (the same
  /// matches; SQLite reads the escape character again for every row it tests).
  let likeOperator: String
  /// The FTS5 table that serves it: the trigram index for three or more characters (Unicode
  /// scalars), the bigram index for one or two.
  let table: String
  /// The FTS5 query: the term as one phrase for the trigram index; its bigram token, or its
  /// one character as a token prefix, for the bigram index.
  let match: String
  /// The term's bigram mask (``MessageArchive/gramsMask(_:)``); zero (no filtering) for a
  /// single character or a term with U+0000 (where `LIKE` stops reading its pattern).
  let mask: MessageArchive.GramsMask

  /// The term of `search` (trimmed of `CharacterSet.whitespaces`); nil when there is none.
  /// Built without Foundation's string searches where it can: a search builds one for every
  /// page it reads.
  init?(_ search: String?) {
    guard let term = search.map(Self.trimmed), !term.isEmpty else { return nil }
    text = term
    if term.utf8.contains(where: { $0 == 0x25 || $0 == 0x5F || $0 == 0x5C }) {
      var escaped = ""
      for character in term.unicodeScalars {
        if character == "%" || character == "_" || character == "\\" {
          escaped.unicodeScalars.append("\\")
        }
        escaped.unicodeScalars.append(character)
      }
      like = "%" + escaped + "%"
      likeOperator = "LIKE ? ESCAPE '\\'"
    } else {
      like = "%" + term + "%"
      likeOperator = "LIKE ?"
    }
    mask =
      term.unicodeScalars.contains("\u{0}")
      ? MessageArchive.GramsMask() : MessageArchive.gramsMask(term)
    let scalars = Array(term.unicodeScalars.prefix(3))
    if scalars.count >= 3 {
      table = "messages_fts"
      var phrase = "\""
      for character in term.unicodeScalars {
        if character == "\"" { phrase.unicodeScalars.append("\"") }
        phrase.unicodeScalars.append(character)
      }
      match = phrase + "\""
    } else {
      table = "messages_grams"
      var token: [UInt8] = []
      for scalar in scalars { MessageArchive.appendHex(scalar, to: &token) }
      let text = String(decoding: token, as: UTF8.self)
      match = scalars.count == 1 ? "\"\(text)\" *" : "\"\(text)\""
    }
  }

  /// `text` trimmed of `CharacterSet.whitespaces`, asking Foundation only when an end is not
  /// a visible ASCII character or a CJK ideograph (never whitespace).
  static func trimmed(_ text: String) -> String {
    func plain(_ scalar: Unicode.Scalar) -> Bool {
      (0x21...0x7e).contains(scalar.value) || (0x4e00...0x9fff).contains(scalar.value)
    }
    if let first = text.unicodeScalars.first, let last = text.unicodeScalars.last, plain(first),
      plain(last)
    {
      return text
    }
    return text.trimmingCharacters(in: .whitespaces)
  }
}

extension MessageArchive {
  /// 128 bits, one for each bigram hash (``gramsMask(_:)``), as the two integers stored in
  /// `grams_low` and `grams_high`.
  struct GramsMask: Equatable {
    var low: UInt64 = 0
    var high: UInt64 = 0

    /// Whether every bit of `other` is set here.
    func covers(_ other: GramsMask) -> Bool {
      low & other.low == other.low && high & other.high == other.high
    }
  }

  /// The bigram mask of `text`: for every two adjacent characters (Unicode scalars, ASCII
  /// capitals lowered, as `LIKE` folds them and nothing else), one of 128 bits, chosen by a
  /// fixed hash of the pair. A body containing a term (as `LIKE '%term%'` finds it: the same
  /// scalars in a row, ASCII case aside) has every bit of the term's mask, so a message
  /// whose mask lacks one cannot match and need not be read. Stored with every message and
  /// tested on the time index (``MessagesSchema/version7``): the hash must never change
  /// without a migration that clears the stored masks.
  static func gramsMask(_ text: String) -> GramsMask {
    var mask = GramsMask()
    var previous: UInt32?
    for scalar in text.unicodeScalars {
      var value = scalar.value
      if (65...90).contains(value) { value += 32 }
      if let previous {
        // SplitMix64's finaliser of the pair; its top 7 bits choose the bit.
        var mixed = UInt64(previous) << 32 | UInt64(value)
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        mixed ^= mixed >> 31
        let bit = mixed >> 57
        if bit < 64 {
          mask.low |= 1 << bit
        } else {
          mask.high |= 1 << (bit - 64)
        }
      }
      previous = value
    }
    return mask
  }

  /// The bigram tokens of `body`: for every character, the hex of it and the next one, and the
  /// last character alone (so every occurrence of a character starts a token), ASCII letters
  /// lowered, separated by spaces; each token once, in the order of its first occurrence.
  /// `messages_grams` is `detail=none`: it keeps which messages hold a token, not how often,
  /// so a repeated token only makes FTS5 tokenize and look it up again (the index is the same
  /// with or without the repeats, and so is a `delete` of a message indexed with them).
  static func grams(_ body: String) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(body.utf8.count * 5)
    // The tokens written so far, by key, in an open-addressing table at most half full
    // (cheaper than a `Set`'s seeded hashing for a message's few dozen tokens).
    var capacity = 16
    while capacity < body.utf8.count * 2 + 2 { capacity <<= 1 }
    let shift = UInt64(64 - capacity.trailingZeroBitCount)
    var seen = [UInt64](repeating: 0, count: capacity)
    var previous: Unicode.Scalar?
    func append(_ first: Unicode.Scalar, _ second: Unicode.Scalar?) {
      // A token's key (never 0, the empty slot): both scalars (21 bits each) lowered as their
      // tokens are, a lone last character marked by bit 42.
      let key =
        1 << 43 | UInt64(lowered(first).value) << 21
        | (second.map { UInt64(lowered($0).value) } ?? 1 << 42)
      var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
      while seen[slot] != 0 {
        if seen[slot] == key { return }
        slot = (slot + 1) & (capacity - 1)
      }
      seen[slot] = key
      if !output.isEmpty { output.append(0x20) }
      appendHex(first, to: &output)
      if let second { appendHex(second, to: &output) }
    }
    for scalar in body.unicodeScalars {
      if let previous { append(previous, scalar) }
      previous = scalar
    }
    if let previous { append(previous, nil) }
    return String(decoding: output, as: UTF8.self)
  }

  /// `scalar` with an ASCII capital lowered (as `LIKE` folds).
  private static func lowered(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    if (65...90).contains(scalar.value), let lower = Unicode.Scalar(scalar.value + 32) {
      return lower
    }
    return scalar
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Appends the hex of `scalar`'s UTF-8 bytes (an ASCII capital lowered, as `LIKE` folds).
  static func appendHex(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
    for byte in UTF8.encode(lowered(scalar)) ?? UTF8.EncodedScalar() {
      output.append(hexDigits[Int(byte >> 4)])
      output.append(hexDigits[Int(byte & 0x0f)])
    }
  }

  /// The search index's watermark: every message with an id at or below it is indexed, none
  /// above it is.
  public func indexWatermark() throws -> Int64 {
    try database.queryOne("SELECT watermark FROM message_index_state WHERE id = 1")?
      .int64("watermark") ?? 0
  }

  /// How many messages wait for the search index (searches scan them meanwhile).
  public func waitingForIndex() throws -> Int {
    try database.queryOne(
      "SELECT count(*) AS n FROM messages WHERE id > ?", [try indexWatermark()])?.int("n") ?? 0
  }

  /// Indexes the messages above the watermark, `chunk` at a time, each chunk in one
  /// transaction that also moves the watermark (so a crash loses at most the chunk under way
  /// and the next call resumes from the watermark). `progress` hears how many still wait
  /// before each chunk and may return false to stop early. Returns how many were indexed.
  @discardableResult
  public func catchUpIndex(chunk: Int = 20_000, progress: (Int) -> Bool = { _ in true })
    throws -> Int
  {
    try catchUpIndex(chunk: chunk, through: .max, progress: progress)
  }

  /// The same for the messages with ids up to `through` only (what waited when a sync began).
  func catchUpIndex(chunk: Int = 20_000, through: Int64, progress: (Int) -> Bool = { _ in true })
    throws -> Int
  {
    try store.requireWritable()
    var indexed = 0
    while true {
      let waiting =
        through == .max
        ? try waitingForIndex()
        : try database.queryOne(
          "SELECT count(*) AS n FROM messages WHERE id > ? AND id <= ?",
          [try indexWatermark(), through])?.int("n") ?? 0
      guard waiting > 0, progress(waiting) else { return indexed }
      indexed += try database.transaction { database in
        let watermark = try indexWatermark()
        let rows = try database.query(
          "SELECT id, body FROM messages WHERE id > ? AND id <= ? ORDER BY id LIMIT ?",
          [watermark, through, max(1, chunk)])
        guard let last = try rows.last?.int64("id") else { return 0 }
        try Self.writeGrams(rows, in: database)
        try database.run(
          """
          INSERT INTO messages_fts(rowid, body)
            SELECT id, body FROM messages WHERE id > ? AND id <= ?
          """, [watermark, last])
        try database.run("UPDATE message_index_state SET watermark = ? WHERE id = 1", [last])
        return rows.count
      }
    }
  }

  /// Removes the bigrams of the indexed ones among `ids`, inside the caller's transaction
  /// before they are deleted (the trigram index's delete trigger handles its own).
  func removeGrams(ids: [Int64], in database: SQLiteDatabase) throws {
    let marks = Array(repeating: "?", count: ids.count).joined(separator: ",")
    let rows = try database.query(
      "SELECT id, body FROM messages WHERE id IN (\(marks)) AND id <= ?",
      ids + [try indexWatermark()])
    guard !rows.isEmpty else { return }
    try Self.writeGrams(rows, delete: true, in: database)
  }

  /// Adds (or with `delete`, removes) the bigrams of `rows` (id, body), one single-row
  /// statement each inside the caller's transaction. A single-row insert opens no statement
  /// savepoint, so FTS5 keeps its pending terms in memory until the transaction ends (or its
  /// buffer fills) as one `INSERT … SELECT` would, without a staging table in between (a
  /// trigger or a multi-row statement makes it flush at the end of every statement).
  private static func writeGrams(_ rows: [Row], delete: Bool = false, in database: SQLiteDatabase)
    throws
  {
    let sql =
      delete
      ? "INSERT INTO messages_grams(messages_grams, rowid, grams) VALUES ('delete', ?, ?)"
      : "INSERT INTO messages_grams(rowid, grams) VALUES (?, ?)"
    for row in rows {
      try database.run(sql, [try row.int64("id"), grams(try row.string("body"))])
    }
  }
}
