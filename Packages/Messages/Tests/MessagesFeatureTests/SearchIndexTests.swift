import Essentials
import EssentialsTesting
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import LocalStoreTesting
import SimAdminClient
import SimAdminSimulator
import Testing
import ViewKit

@testable import MessagesFeature

@Suite("Search index: bigrams and the watermark")
struct SearchIndexTests {
  /// Mixed Chinese and English bodies from a fixed seed, with the characters tests search for.
  static func bodies(count: Int, seed: UInt64) -> [String] {
    let words = [
      "验证", "验证码", "快递", "银行", "您的", "已到", "取件", "余额", "元", "行", "码",
      "Telegram", "code", "Bank", "OK", "ok", "a", "Te", "100%", "x_y", "\\", "é", "12", "0",
      "，", "。", " ", "【", "】", "😀", "验",
    ]
    var state = seed
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33)
    }
    return (0..<count).map { _ in
      (0..<(1 + next() % 8)).map { _ in words[next() % words.count] }.joined()
    }
  }

  static let terms = [
    "验证", "快递", "银行", "验", "行", "码", "a", "A", "te", "TE", "ok", "12", "0", "%", "_",
    "\\", "，", "】验", "😀", "é", "e", "zz", "验证码", "Telegram", "100%", "x_y", "bank",
  ]

  /// Stores `bodies` as one instance's messages, one page, newest first.
  static func ingest(_ bodies: [String], into archive: MessageArchive, instance: String, from: Int)
    throws
  {
    let rows = bodies.enumerated().map { offset, body in
      (
        id: from + offset, peer: "1069\(offset % 7)", body: body,
        at: String(
          format: "2026-03-01 10:%02d:%02d", (from + offset) / 60 % 60, (from + offset) % 60)
      )
    }
    try archive.ingest(
      IngestTests.page(rows.reversed()), instanceID: instance, instanceName: instance,
      syncedAt: Date(timeIntervalSince1970: 1_780_000_000))
  }

  /// The ids a search for `term` must find, newest first (the reference every search must
  /// equal): the bodies `LIKE` finds, the messages of the instances whose shown name `LIKE`
  /// finds (registry name, else the last synced one), and the messages of the senders whose
  /// key starts, byte for byte, with one of the term's sender forms (issue 30).
  static func scanned(_ term: String, _ archive: MessageArchive) throws -> [Int64] {
    let escaped = term.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    let trimmed = term.trimmingCharacters(in: .whitespaces)
    let prefixes = SenderMatches.prefixes(trimmed)
    return try archive.store.database.query(
      """
      SELECT m.id, m.peer_key, (m.body LIKE ?1 ESCAPE '\\') AS body,
        (COALESCE(i.name, s.instance_name) LIKE ?1 ESCAPE '\\') AS instance
      FROM messages m LEFT JOIN instances i ON i.id = m.instance_id
        LEFT JOIN message_sync_state s ON s.instance_id = m.instance_id
      ORDER BY m.device_at DESC, m.id DESC
      """, ["%" + escaped + "%"]
    ).compactMap { row in
      let key = try row.string("peer_key")
      let sender = prefixes.contains { key.utf8.starts(with: $0.utf8) }
      let matches = try row.int("body") == 1 || (try row.optionalInt("instance")) == 1 || sender
      return matches ? try row.int64("id") : nil
    }
  }

  /// Every search way (through the index, newest first by scan) returns what `LIKE` finds.
  static func expectExact(_ archive: MessageArchive, _ context: String) throws {
    for term in terms {
      let expected = try scanned(term, archive)
      for (number, strategy) in MessageArchive.SearchStrategy.all.enumerated() {
        let found = try archive.list(
          filter: MessageFilter(search: term), after: nil, limit: 100_000, strategy: strategy
        ).map(\.id)
        #expect(found == expected, "\(context): \(term) (strategy #\(number))")
      }
      #expect(
        try archive.count(filter: MessageFilter(search: term)) == expected.count,
        "\(context): count of \(term)")
    }
  }

  /// FTS5's own check of the trigram index against every message (it fails while any wait).
  static func checkTrigramIndex(_ store: Store) throws {
    try store.database.execute(
      "INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)")
  }

  /// How many messages the bigram index alone matches for a one- or two-character term.
  static func indexed(_ term: String, _ archive: MessageArchive) throws -> Int {
    let search = try #require(SearchTerm(term))
    #expect(search.table == "messages_grams")
    return try archive.store.database.queryOne(
      "SELECT count(*) AS n FROM messages_grams WHERE messages_grams MATCH ?", [search.match]
    )?.int("n") ?? -1
  }

  @Test("one- and two-character terms are served by the bigram index, exactly as LIKE")
  func bigramsMatchLike() throws {
    let test = try TestStore(modules: [Messages.schema])
    let archive = MessageArchive(store: test.store)
    try Self.ingest(Self.bodies(count: 600, seed: 19), into: archive, instance: "a", from: 1)
    #expect(try archive.waitingForIndex() == 600)
    #expect(try archive.catchUpIndex(chunk: 250) == 600)
    #expect(try archive.waitingForIndex() == 0)
    #expect(try archive.indexWatermark() == 600)
    // The index alone (no scan: nothing is above the watermark) finds every match.
    for term in Self.terms where term.unicodeScalars.count <= 2 {
      #expect(try Self.indexed(term, archive) == Self.scanned(term, archive).count, "\(term)")
    }
    #expect(try Self.indexed("验证", archive) > 0)
    try Self.expectExact(archive, "indexed")
    try Self.checkTrigramIndex(test.store)
  }

  @Test("search is exact while the index catches up, and an interrupted catch-up resumes")
  func exactWhileCatchingUp() throws {
    let directory = try TemporaryDirectory(prefix: "messages-index")
    let clock = TestClock()
    do {
      let store = try Store.open(
        directory: directory.url, modules: [Messages.schema], clock: clock.clock)
      let archive = MessageArchive(store: store)
      try Self.ingest(Self.bodies(count: 300, seed: 5), into: archive, instance: "a", from: 1)
      try Self.expectExact(archive, "nothing indexed")
      // One chunk of 120, then stopped: the process "dies" with 180 waiting.
      var chunks = 0
      let indexed = try archive.catchUpIndex(chunk: 120) { _ in
        chunks += 1
        return chunks == 1
      }
      #expect(indexed == 120)
      #expect(try archive.waitingForIndex() == 180)
      #expect(try archive.stats().waitingForIndex == 180)
      try Self.expectExact(archive, "120 of 300 indexed")
      // New messages arrive above the watermark meanwhile.
      try Self.ingest(Self.bodies(count: 50, seed: 6), into: archive, instance: "b", from: 1)
      #expect(try archive.waitingForIndex() == 230)
      try Self.expectExact(archive, "120 of 350 indexed")
    }
    // Reopened: it resumes from the watermark, indexing each message once.
    let store = try Store.open(
      directory: directory.url, modules: [Messages.schema], clock: clock.clock)
    let archive = MessageArchive(store: store)
    #expect(try archive.indexWatermark() == 120)
    var heard: [Int] = []
    #expect(
      try archive.catchUpIndex(chunk: 100) { waiting in
        heard.append(waiting)
        return true
      } == 230)
    #expect(heard == [230, 130, 30])
    #expect(try archive.waitingForIndex() == 0)
    try Self.expectExact(archive, "all indexed")
    try Self.checkTrigramIndex(store)
    #expect(
      try store.database.queryOne("SELECT count(*) AS n FROM messages_fts")?.int("n") == 350)
  }

  /// The trigram tokenizer folds the case of non-ASCII letters; `LIKE` (the scan of rows
  /// waiting for the index, and the newest-first reading of common terms) folds ASCII's only.
  @Test("letters beyond ASCII: the same results with rows waiting for the index and after")
  func nonASCIICaseEitherWay() throws {
    let test = try TestStore(modules: [Messages.schema])
    let archive = MessageArchive(store: test.store)
    let bodies = [
      "Écoute le CAFÉ", "écoute le café", "ÉCOUTE", "Straße", "STRASSE", "Ünïcode ünïcode",
      "\u{212A}elvin", "plain cafe", "Ωmega ωmega",
    ]
    try Self.ingest(bodies, into: archive, instance: "a", from: 1)
    let terms = [
      "écoute", "ÉCOUTE", "Écoute", "café", "CAFÉ", "straße", "ünïcode", "ÜNÏCODE", "kelvin",
      "cafe", "ωmega", "ΩMEGA", "é", "É",
    ]
    func results() throws -> [String] {
      try terms.flatMap { term in
        try MessageArchive.SearchStrategy.all.indices.map { number in
          let ids = try archive.list(
            filter: MessageFilter(search: term), after: nil, limit: 100,
            strategy: MessageArchive.SearchStrategy.all[number]
          ).map(\.id)
          let count = try archive.count(filter: MessageFilter(search: term))
          return "\(term) \(number): \(ids) (\(count))"
        }
      }
    }
    #expect(try archive.waitingForIndex() == bodies.count)
    let waiting = try results()
    #expect(try archive.catchUpIndex(chunk: 4) == bodies.count)
    #expect(try archive.waitingForIndex() == 0)
    #expect(try results() == waiting)
    // Every way gives LIKE's: ASCII letters folded, nothing else.
    for term in terms {
      let like = try Self.scanned(term, archive)
      for number in MessageArchive.SearchStrategy.all.indices {
        #expect(waiting.contains("\(term) \(number): \(like) (\(like.count))"), "\(term)")
      }
    }
    #expect(try Self.scanned("CAFÉ", archive).count == 1)
  }

  /// Whether `body` contains `term` as `LIKE '%term%'` finds it: byte for byte, ASCII letters
  /// folded.
  static func likeContains(_ body: String, _ term: String) -> Bool {
    func folded(_ text: String) -> [UInt8] {
      text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }
    }
    let haystack = folded(body)
    let needle = folded(term)
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains {
      haystack[$0..<($0 + needle.count)].elementsEqual(needle)
    }
  }

  /// Stores `count` messages of instance `instance`, one page: every third outgoing, seven
  /// peers, three messages per device second (so the order needs the id too).
  static func ingestMixed(count: Int, seed: UInt64, into archive: MessageArchive, instance: String)
    throws
  {
    let objects = Self.bodies(count: count, seed: seed).enumerated().reversed().map {
      offset, body -> [String: Any] in
      [
        "id": offset + 1, "direction": offset % 3 == 0 ? "outgoing" : "incoming",
        "phone_number": "1069\(offset % 7)", "content": body,
        "timestamp": String(
          format: "2026-03-01 %02d:%02d:%02d", offset / 3 / 3600, offset / 3 / 60 % 60,
          offset / 3 % 60),
        "status": offset % 3 == 0 ? "sent" : "received", "pdu": "mmfp:\(offset)",
      ]
    }
    try archive.ingest(
      JSONDecoder().decode(
        [SmsMessage].self, from: JSONSerialization.data(withJSONObject: objects)),
      instanceID: instance, instanceName: instance,
      syncedAt: Date(timeIntervalSince1970: 1_780_000_000))
  }

  @Test(
    "a search term's pattern, operator and index query are those Foundation's trimming and replacing gave"
  )
  func termsAsBefore() throws {
    // The search term as built before it avoided Foundation (trimmingCharacters,
    // replacingOccurrences).
    func before(_ search: String) -> (like: String, table: String, match: String)? {
      let term = search.trimmingCharacters(in: .whitespaces)
      guard !term.isEmpty else { return nil }
      let escaped = term.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
      let scalars = Array(term.unicodeScalars)
      if scalars.count >= 3 {
        return (
          "%" + escaped + "%", "messages_fts",
          "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        )
      }
      var token: [UInt8] = []
      for scalar in scalars { MessageArchive.appendHex(scalar, to: &token) }
      let text = String(decoding: token, as: UTF8.self)
      return (
        "%" + escaped + "%", "messages_grams",
        scalars.count == 1 ? "\"\(text)\" *" : "\"\(text)\""
      )
    }
    let inputs = [
      "", " ", "\t", "\u{3000}", "验证", " 验证 ", "\u{3000}快递\u{3000}", "\u{a0}码\t", "\n验证",
      "验证\n", "a", "TE", "Telegram", " Telegram", "%", "_", "\\", "50%_off\\x", "\"", "a\"b\"",
      "\"quoted\"", "😀", "e\u{301}", " \u{301}", "a b", "\u{2003}em\u{2009}thin\u{200b}",
    ]
    for input in inputs {
      let term = SearchTerm(input)
      let old = before(input)
      #expect(term?.like == old?.like, "\(input.debugDescription)")
      #expect(term?.table == old?.table, "\(input.debugDescription)")
      #expect(term?.match == old?.match, "\(input.debugDescription)")
      if let term {
        let escapes = term.like.contains("\\")
        #expect(term.likeOperator == (escapes ? "LIKE ? ESCAPE '\\'" : "LIKE ?"))
      }
    }
    #expect(SearchTerm(nil) == nil)
  }

  @Test("a body LIKE finds a term in has every bit of the term's bigram mask; ingest stores it")
  func masksNeverHideAMatch() throws {
    let test = try TestStore(modules: [Messages.schema])
    let database = test.store.database
    // The generator's bodies and odd ones: LIKE's wildcards and escape character, combining
    // marks, emoji with modifiers, letters beyond ASCII in either case, U+0000 (where LIKE
    // stops reading), U+FFFD (what invalid UTF-8 is read as), full-width digits.
    var bodies = Self.bodies(count: 1_500, seed: 73)
    bodies += [
      "", "a", "A%b_c\\d", "e\u{301}t", "Ét", "E\u{301}T", "\u{0}验证", "验\u{0}证码", "😀😀x",
      "👍🏽ok", "\u{FFFD}\u{FFFD}码", "TeLeGrAm 12", "Straße", "İstanbul", "\u{200B}验证",
      "１２３４５６", "%%__\\\\", "ÀÉÎ àéî",
    ]
    var state: UInt64 = 5
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33) % max(1, bound)
    }
    var terms =
      Self.terms + [
        "\u{301}", "e\u{301}", "E\u{301}T", "😀😀", "🏽", "tElEgRaM", "验\u{0}", "a%B", "%b_",
        "\\D", "ße", "STRASSE", "é", "É", "１２", "\u{FFFD}码", "%_", "__", "\\\\",
      ]
    // Pieces of the bodies with ASCII letters' case flipped at random, so LIKE finds each
    // at least where it came from.
    for _ in 0..<600 {
      let body = Array(bodies[next(bodies.count)].unicodeScalars)
      guard body.count >= 2 else { continue }
      let start = next(body.count - 1)
      let piece = body[start..<min(body.count, start + 2 + next(6))].map { scalar in
        guard next(2) == 0, let letter = Unicode.Scalar(scalar.value ^ 0x20),
          (65...90).contains(scalar.value) || (97...122).contains(scalar.value)
        else { return String(scalar) }
        return String(letter)
      }
      terms.append(piece.joined())
    }
    try database.execute("CREATE TEMP TABLE bodies (body TEXT NOT NULL)")
    for body in bodies { try database.run("INSERT INTO bodies (body) VALUES (?)", [body]) }
    var checked = 0
    for term in terms {
      guard let search = SearchTerm(term) else { continue }
      for row in try database.query(
        "SELECT body FROM bodies WHERE (body \(search.likeOperator)) <> 0", [search.like])
      {
        let body = try row.string("body")
        #expect(
          MessageArchive.gramsMask(body).covers(search.mask), "\(term) in \(body.debugDescription)")
        checked += 1
      }
    }
    #expect(checked > 5_000)
    // The ingest stores each body's mask, and the masks do tell messages apart.
    let archive = MessageArchive(store: test.store)
    try Self.ingest(bodies, into: archive, instance: "a", from: 1)
    for row in try database.query("SELECT body, grams_low, grams_high FROM messages") {
      let mask = MessageArchive.gramsMask(try row.string("body"))
      #expect(try row.int64("grams_low") == Int64(bitPattern: mask.low))
      #expect(try row.int64("grams_high") == Int64(bitPattern: mask.high))
    }
    let express = try #require(SearchTerm("快递"))
    let condition = try #require(MessageArchive.maskCondition(express))
    let passing =
      try database.queryOne(
        "SELECT count(*) AS n FROM messages m WHERE \(condition.sql)", condition.values)?
      .int("n") ?? 0
    #expect(try passing < archive.count() / 2)
    #expect(try passing >= archive.count(filter: MessageFilter(search: "快递")))
  }

  @Test("every way of searching gives LIKE's pages, with filters, cursors and waiting rows")
  func strategiesMatchBruteForce() throws {
    let test = try TestStore(modules: [Messages.schema])
    let archive = MessageArchive(store: test.store)
    try Self.ingestMixed(count: 500, seed: 41, into: archive, instance: "a")
    try Self.ingestMixed(count: 300, seed: 42, into: archive, instance: "b")
    // Masks as an archive upgraded from version 6 has them for its older rows: none.
    try test.store.database.run(
      "UPDATE messages SET grams_low = NULL, grams_high = NULL WHERE id % 5 = 0")
    // 400 indexed, 400 waiting above the watermark.
    var chunks = 0
    try archive.catchUpIndex(chunk: 400) { _ in
      chunks += 1
      return chunks == 1
    }
    #expect(try archive.waitingForIndex() == 400)
    let everything = try archive.list(limit: 100_000)
    #expect(everything.count == 800)
    let middle = everything[everything.count / 2].deviceAt
    let filters = [
      MessageFilter(), MessageFilter(direction: "outgoing"), MessageFilter(instanceID: "b"),
      MessageFilter(peerKey: "10693"), MessageFilter(since: middle),
      MessageFilter(direction: "incoming", instanceID: "a", until: middle),
    ]
    for other in filters {
      // Brute force: every message the other filters keep, newest first, then LIKE's test.
      let kept = try archive.list(filter: other, limit: 100_000)
      for term in ["验证", "快递", "码", "a", "TE", "ok", "%", "\\", "😀", "验证码", "Telegram", "zz"] {
        var filter = other
        filter.search = term
        let positions = kept.indices.filter { Self.likeContains(kept[$0].body, term) }
        let expected = positions.map { kept[$0].id }
        for limit in [1, 7, 50, 1_000] {
          // The walk's budget ending right before, at and after the page's last match, and
          // at the last message: a full page, one short, or the rest from the index.
          var budgets = [1, 3, 50, kept.count, kept.count + 1]
          if positions.count >= limit {
            budgets += [positions[limit - 1], positions[limit - 1] + 1, positions[limit - 1] + 2]
          }
          // The first walk ending before, at and after the page's last match too, and the
          // index asked (to count, then to answer or not) when that walk finds nothing.
          var firsts = [1, 3, 50]
          if positions.count >= limit {
            firsts += [positions[limit - 1], positions[limit - 1] + 1]
          }
          let strategies =
            MessageArchive.SearchStrategy.all
            + budgets.map { MessageArchive.SearchStrategy(budget: $0) }
            + budgets.flatMap { budget in
              firsts.flatMap { first in
                [0, 10, 1_000].map {
                  MessageArchive.SearchStrategy(indexBelow: $0, budget: budget, firstWalk: first)
                }
              }
            }
          for (number, strategy) in strategies.enumerated() {
            let found = try archive.list(
              filter: filter, after: nil, limit: limit, strategy: strategy
            ).map(\.id)
            #expect(
              found == Array(expected.prefix(limit)),
              "\(term) \(other) limit \(limit) strategy #\(number)")
          }
        }
        // Paging by cursor, 9 at a time, walking 10 messages per page then the index.
        for strategy in [
          MessageArchive.SearchStrategy(budget: 10), .standard,
          MessageArchive.SearchStrategy(indexBelow: 1_000, budget: 20, firstWalk: 4),
          MessageArchive.SearchStrategy(indexBelow: 10, budget: 20, firstWalk: 4),
        ] {
          var paged: [Int64] = []
          var cursor: MessageCursor?
          repeat {
            let page = try archive.list(
              filter: filter, after: cursor, limit: 9, strategy: strategy)
            paged += page.map(\.id)
            cursor = page.count == 9 ? page.last.map { MessageCursor(after: $0) } : nil
          } while cursor != nil
          #expect(paged == expected, "\(term) \(other) paged")
        }
      }
    }
    // A page of an export walks as far per message as a page of 50.
    let standard = MessageArchive.SearchStrategy.standard
    #expect(standard.budget(limit: 1) == 6_000)
    #expect(standard.budget(limit: 50) == 6_000)
    #expect(standard.budget(limit: 1_000) == 120_000)
    #expect(standard.budget(limit: .max) == .max)
  }

  @Test("deleted messages leave both indexes and their ids never return below the watermark")
  func deletionKeepsIndexesExact() throws {
    let test = try TestStore(modules: [Messages.schema])
    let archive = MessageArchive(store: test.store)
    try Self.ingest(Self.bodies(count: 200, seed: 8), into: archive, instance: "a", from: 1)
    try archive.catchUpIndex()
    let newest = try archive.list(limit: 1000).map(\.id)
    let highest = try #require(newest.max())
    // The highest id goes (SQLite would hand it out again), plus a few others.
    let gone = [highest] + Array(newest.filter { $0 != highest }.prefix(20))
    #expect(try archive.delete(ids: gone) == gone.count)
    try Self.expectExact(archive, "after deleting")
    for term in Self.terms where term.unicodeScalars.count <= 2 {
      #expect(try Self.indexed(term, archive) == Self.scanned(term, archive).count, "\(term)")
    }
    try Self.ingest(Self.bodies(count: 30, seed: 9), into: archive, instance: "b", from: 1)
    let added = try archive.list(filter: MessageFilter(instanceID: "b"), limit: 100).map(\.id)
    #expect(added.count == 30)
    #expect(added.allSatisfy { $0 > highest })
    #expect(try archive.waitingForIndex() == 30)
    try Self.expectExact(archive, "new rows after deleting")
    try archive.catchUpIndex()
    try Self.expectExact(archive, "indexed again")
    try Self.checkTrigramIndex(test.store)
  }

  /// Every term of the bigram index with how many messages hold it (FTS5's own vocabulary).
  static func gramsVocabulary(_ store: Store) throws -> [String: Int] {
    try store.database.execute(
      """
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.grams_vocabulary
        USING fts5vocab(main, messages_grams, 'row')
      """)
    var terms: [String: Int] = [:]
    for row in try store.database.query("SELECT term, doc FROM temp.grams_vocabulary") {
      terms[try row.string("term")] = try row.int("doc")
    }
    return terms
  }

  @Test("the bigram index written a row at a time equals the one INSERT … SELECT wrote")
  func gramsRowByRowEqualOneStatement() throws {
    let bodies = Self.bodies(count: 700, seed: 23)
    // The catch-up's path: one single-row statement per message, chunks of 300.
    let test = try TestStore(modules: [Messages.schema])
    let archive = MessageArchive(store: test.store)
    try Self.ingest(bodies, into: archive, instance: "a", from: 1)
    #expect(try archive.catchUpIndex(chunk: 300) == 700)
    // The former path: the same chunks staged in a table, moved with one statement each.
    let former = try TestStore(modules: [Messages.schema])
    try Self.ingest(bodies, into: MessageArchive(store: former.store), instance: "a", from: 1)
    let database = former.store.database
    try database.execute("CREATE TEMP TABLE staged (id INTEGER PRIMARY KEY, grams TEXT)")
    for start in stride(from: 0, to: 700, by: 300) {
      try database.transaction { database in
        for row in try database.query(
          "SELECT id, body FROM messages WHERE id > ? ORDER BY id LIMIT 300", [start])
        {
          try database.run(
            "INSERT INTO temp.staged (id, grams) VALUES (?, ?)",
            [try row.int64("id"), MessageArchive.grams(try row.string("body"))])
        }
        try database.run("INSERT INTO messages_grams(rowid, grams) SELECT id, grams FROM staged")
        try database.run("DELETE FROM temp.staged")
      }
    }
    // The same terms in the same messages, and as many segments: FTS5 kept each chunk's
    // terms until its transaction ended instead of writing a segment per statement.
    let vocabulary = try Self.gramsVocabulary(test.store)
    #expect(vocabulary.count > 50)
    #expect(vocabulary == (try Self.gramsVocabulary(former.store)))
    let segments = "SELECT count(*) AS n FROM messages_grams_data"
    #expect(
      try test.store.database.queryOne(segments)?.int("n")
        == database.queryOne(segments)?.int("n"))
    for term in Self.terms where term.unicodeScalars.count <= 2 {
      #expect(try Self.indexed(term, archive) == Self.scanned(term, archive).count, "\(term)")
    }
  }

  /// The bigram tokens as they were before each was kept once per message: every pair and
  /// the last character, repeats included (what archives indexed before hold).
  static func gramsWithRepeats(_ body: String) -> String {
    var tokens: [String] = []
    var previous: Unicode.Scalar?
    func hex(_ scalar: Unicode.Scalar) -> String {
      var bytes: [UInt8] = []
      MessageArchive.appendHex(scalar, to: &bytes)
      return String(decoding: bytes, as: UTF8.self)
    }
    for scalar in body.unicodeScalars {
      if let previous { tokens.append(hex(previous) + hex(scalar)) }
      previous = scalar
    }
    if let previous { tokens.append(hex(previous)) }
    return tokens.joined(separator: " ")
  }

  @Test("each bigram once per message: the same index as with repeats, and deletes agree")
  func gramsOncePerMessage() throws {
    // "abAB": ab, ba, ab (again, lowered), b alone.
    #expect(MessageArchive.grams("abAB") == "6162 6261 62")
    #expect(Self.gramsWithRepeats("abAB") == "6162 6261 6162 62")
    let bodies =
      Self.bodies(count: 600, seed: 29) + ["验证验证码验证", "aAaAa", "okOKok", "😀😀😀", "x"]
    // The index built with each token once (the archive's catch-up)…
    let test = try TestStore(modules: [Messages.schema])
    let archive = MessageArchive(store: test.store)
    try Self.ingest(bodies, into: archive, instance: "a", from: 1)
    #expect(try archive.catchUpIndex(chunk: 250) == bodies.count)
    // …and with the repeats, as archives indexed before hold it.
    let former = try TestStore(modules: [Messages.schema])
    let formerArchive = MessageArchive(store: former.store)
    try Self.ingest(bodies, into: formerArchive, instance: "a", from: 1)
    try former.store.database.transaction { database in
      for row in try database.query("SELECT id, body FROM messages ORDER BY id") {
        try database.run(
          "INSERT INTO messages_grams(rowid, grams) VALUES (?, ?)",
          [try row.int64("id"), Self.gramsWithRepeats(try row.string("body"))])
      }
      try database.run("INSERT INTO messages_fts(rowid, body) SELECT id, body FROM messages")
      try database.run(
        "UPDATE message_index_state SET watermark = (SELECT max(id) FROM messages) WHERE id = 1")
    }
    // The same terms in the same number of messages.
    let vocabulary = try Self.gramsVocabulary(test.store)
    #expect(vocabulary.count > 50)
    #expect(vocabulary == (try Self.gramsVocabulary(former.store)))
    // Deleting messages indexed with repeats (the delete gives each token once) leaves the
    // same index as deleting them from the index built without.
    let doomed = try former.store.database.query(
      "SELECT id FROM messages WHERE id % 3 = 0 OR body IN ('验证验证码验证', 'aAaAa', 'okOKok')"
    ).map { try $0.int64("id") }
    #expect(doomed.count > 200)
    #expect(try formerArchive.delete(ids: doomed) == doomed.count)
    #expect(try archive.delete(ids: doomed) == doomed.count)
    let remaining = try Self.gramsVocabulary(test.store)
    #expect(remaining != vocabulary)
    #expect(remaining == (try Self.gramsVocabulary(former.store)))
    for term in Self.terms where term.unicodeScalars.count <= 2 {
      #expect(
        try Self.indexed(term, formerArchive) == Self.scanned(term, formerArchive).count, "\(term)")
    }
  }

  @Test("new rows take consecutive ids above the largest id and the watermark, in page order")
  func newRowsTakeConsecutiveIDs() throws {
    let test = try TestStore(modules: [Messages.schema])
    let archive = MessageArchive(store: test.store)
    try Self.ingest(Self.bodies(count: 40, seed: 5), into: archive, instance: "a", from: 1)
    try archive.catchUpIndex()
    // The two highest go: the next ids start above the watermark (40), not at 39.
    let highest = try test.store.database.query("SELECT id FROM messages ORDER BY id DESC LIMIT 2")
      .map { try $0.int64("id") }
    #expect(highest == [40, 39])
    #expect(try archive.delete(ids: highest) == 2)
    // Two pages of two instances in one transaction.
    let date = Date(timeIntervalSince1970: 1_780_000_000)
    let pages = try ["b", "c"].map { instance in
      IngestPage(
        messages: try IngestTests.page([
          (id: 2, peer: "10086", body: "\(instance) two", at: "2026-03-01 10:00:02"),
          (id: 1, peer: "10086", body: "\(instance) one", at: "2026-03-01 10:00:01"),
        ]), instanceID: instance, instanceName: instance, syncedAt: date)
    }
    let results = try archive.ingest(pages)
    #expect(results.map(\.inserted) == [2, 2])
    let stored = try test.store.database.query(
      "SELECT id, body FROM messages WHERE id > 40 ORDER BY id"
    ).map { "\(try $0.int64("id")) \(try $0.string("body"))" }
    #expect(stored == ["41 b two", "42 b one", "43 c two", "44 c one"])
    #expect(try archive.waitingForIndex() == 4)
    try Self.expectExact(archive, "after the two pages")
  }

  @Test("an archive of schema version 3 upgrades: index emptied, searched exactly, rebuilt")
  func upgradesVersion3() throws {
    let directory = try TemporaryDirectory(prefix: "messages-v3")
    let clock = TestClock()
    let version3 = SchemaModule(
      name: "messages", migrations: Array(Messages.schema.migrations.prefix(3)))
    let bodies = Self.bodies(count: 120, seed: 3)
    do {
      // Rows as version 3 wrote them (its insert trigger fills the trigram index).
      let old = try Store.open(directory: directory.url, modules: [version3], clock: clock.clock)
      for (offset, body) in bodies.enumerated() {
        try old.database.run(
          """
          INSERT INTO messages (instance_id, instance_name, direction, peer_raw, peer_key, body,
            device_at, device_timestamp, status, upstream_id, marker, dedupe_key, synced_at)
          VALUES ('i1', 'A', 'incoming', '10690', '10690', ?, ?, ?, 'received', ?, NULL, ?, 0)
          """, [body, 1_780_000_000 + offset, "2026-03-01 10:00:\(offset)", offset, "k\(offset)"])
      }
      #expect(
        try old.database.queryOne("SELECT count(*) AS n FROM messages_fts")?.int("n") == 120)
    }
    let store = try Store.open(
      directory: directory.url, modules: [Messages.schema], clock: clock.clock)
    #expect(try store.schemaVersions()["messages"] == Messages.schema.latestVersion)
    let archive = MessageArchive(store: store)
    #expect(try archive.indexWatermark() == 0)
    #expect(try archive.waitingForIndex() == 120)
    // Rows archived before version 7 have no bigram mask: every search reads them.
    #expect(
      try store.database.queryOne(
        "SELECT count(*) AS n FROM messages WHERE grams_low IS NULL AND grams_high IS NULL")?
        .int("n") == 120)
    try Self.expectExact(archive, "upgraded, not indexed")
    #expect(try archive.catchUpIndex(chunk: 50) == 120)
    try Self.expectExact(archive, "upgraded and indexed")
    try Self.checkTrigramIndex(store)
    #expect(try store.database.integrityCheck().isEmpty)
  }

  /// A harness with one device holding 40 messages, speaking `language`.
  static func fortyMessages(_ language: AppLanguage) async throws -> FeatureHarness {
    try await FeatureHarness(
      .messages, devices: [DeviceProfile(name: "A", smsCount: 40, seed: 2)], language: language)
  }

  @Test(
    "a later sync leaves its new rows for the next one, which indexes them; stats say so",
    arguments: [AppLanguage.english, .simplifiedChinese])
  func laterSyncLeavesItsRowsWaiting(language: AppLanguage) async throws {
    let harness = try await Self.fortyMessages(language)
    // Stored by a sync that stopped before indexing (the syncer alone stores rows).
    _ = await harness.syncer(pageSize: 100).syncOne(harness.instances[0])
    #expect(try harness.archive.waitingForIndex() == 40)
    let english = language == .english
    let waiting = try await harness.run(["messages", "stats"])
    let text = TextRenderer.render(waiting.view, options: RenderOptions(width: 100))
    #expect(text.contains(english ? "Search index" : "搜索索引"), "\(text)")
    #expect(text.contains(english ? "indexing 40 messages" : "正在索引 40 条短信"), "\(text)")
    #expect((waiting.payload as? ArchiveStats)?.waitingForIndex == 40)
    // A later sync indexes the 40 that waited when it began (while its requests were out)
    // and leaves its own new row waiting: searches scan it, stats count it.
    harness.devices[0].receiveSMS(from: "95588", content: "【银行】验证码 123456")
    _ = try await harness.run(["messages", "sync"])
    #expect(try harness.archive.indexWatermark() == 40)
    #expect(try harness.archive.waitingForIndex() == 1)
    let indexedBefore = try SearchIndexTests.indexed("验证", harness.archive)
    try Self.expectExact(harness.archive, "a later sync's row waiting")
    let newest = try harness.archive.list(
      filter: MessageFilter(search: "验证码 123456"), after: nil, limit: 10)
    #expect(newest.map(\.body) == ["【银行】验证码 123456"])
    let one = try await harness.run(["messages", "stats"])
    let oneText = TextRenderer.render(one.view, options: RenderOptions(width: 100))
    #expect(oneText.contains(english ? "indexing 1 message" : "正在索引 1 条短信"), "\(oneText)")
    // The next sync, with nothing new, indexes it.
    _ = try await harness.run(["messages", "sync"])
    #expect(try harness.archive.waitingForIndex() == 0)
    let done = try await harness.run(["messages", "stats"])
    let after = TextRenderer.render(done.view, options: RenderOptions(width: 100))
    #expect(!after.contains(english ? "Search index" : "搜索索引"), "\(after)")
    #expect((done.payload as? ArchiveStats)?.waitingForIndex == 0)
    #expect(try SearchIndexTests.indexed("验证", harness.archive) == indexedBefore + 1)
    try Self.expectExact(harness.archive, "indexed by the next sync")
    try Self.checkTrigramIndex(harness.store)
    await harness.stop()
  }

  /// The count that sends a rare term to the index counts the waiting rows that hold the
  /// term, not every waiting row: with a later sync's rows waiting, 鲲鹏 (in none of them)
  /// must still count as rare (it counted them all, and every search of a rare term after a
  /// sync walked 6,000 messages: case 4's 鲲鹏 0.00× → 0.27× of `LIKE`).
  @Test("the index count counts only the waiting rows that hold the term")
  func indexCountOfWaitingRows() async throws {
    let harness = try await Self.fortyMessages(.english)
    _ = await harness.syncer(pageSize: 100).syncOne(harness.instances[0])
    #expect(try harness.archive.waitingForIndex() == 40)
    for text in ["鲲鹏", "验证", "Telegram", "a"] {
      let term = try #require(SearchTerm(text))
      let holding = try #require(
        try harness.store.database.queryOne(
          "SELECT count(*) AS n FROM messages WHERE body LIKE ?", ["%\(text)%"])?.int("n"))
      #expect(try harness.archive.indexMatches(term, below: 64) == holding, "\(text)")
      #expect(try harness.archive.indexMatches(term, below: 1) == min(holding, 1), "\(text)")
    }
    #expect(try harness.archive.indexMatches(try #require(SearchTerm("鲲鹏")), below: 64) == 0)
    await harness.stop()
  }

  @Test(
    "a first sync catches the index up before it ends and says so",
    arguments: [AppLanguage.english, .simplifiedChinese])
  func firstSyncCatchesUp(language: AppLanguage) async throws {
    let harness = try await Self.fortyMessages(language)
    _ = try await harness.run(["messages", "sync"])
    #expect(try harness.archive.waitingForIndex() == 0)
    let progress = harness.streams.error
    let english = language == .english
    #expect(progress.contains(english ? "indexing 40 messages" : "正在索引 40 条短信"), "\(progress)")
    try Self.expectExact(harness.archive, "after a first sync")
    await harness.stop()
  }

  @Test("a sync leaves rows waiting only after later syncs of every instance, up to the bound")
  func backlogRule() {
    func result(_ deep: String?) -> InstanceSyncResult {
      InstanceSyncResult(
        instanceID: "a", instanceName: "A", inserted: 1, read: 20, pages: 1, completed: true,
        failureKey: nil, failure: nil, deepRead: deep)
    }
    let bound = MessageSyncer.indexBacklog
    #expect(MessageSyncer.leavesIndexBacklog([result(nil), result(nil)], waiting: bound))
    #expect(!MessageSyncer.leavesIndexBacklog([result(nil)], waiting: bound + 1))
    #expect(!MessageSyncer.leavesIndexBacklog([result(nil), result("first")], waiting: 1))
    #expect(!MessageSyncer.leavesIndexBacklog([result("periodic")], waiting: 0))
  }
}

@Suite("Sync width")
struct SyncWidthTests {
  @Test("a first sync reads 8 devices at once, a later one the whole fleet")
  func widthSizedForTheFleet() async throws {
    let harness = try await FeatureHarness(
      .messages,
      devices: (0..<12).map { DeviceProfile(name: "D\($0)", smsCount: 3, seed: UInt64($0)) })
    let archive = harness.archive
    #expect(try MessagesCommands.syncWidth(harness.instances, archive, harness.environment) == 8)
    let result = try await harness.run(["messages", "sync"])
    #expect(result.exitCode == .success)
    #expect(try MessagesCommands.syncWidth(harness.instances, archive, harness.environment) == 12)
    // A new instance not read through yet: back to 8.
    let more = try await SimulatedFleet.start([DeviceProfile(name: "N", smsCount: 1)])
    let added = try harness.testStore.instances.add(
      name: "N", origin: InstanceOrigin(parsing: more.devices[0].origin.absoluteString))
    #expect(
      try MessagesCommands.syncWidth(harness.instances + [added], archive, harness.environment)
        == 8)
    await more.stop()
    await harness.stop()
  }
}

extension MessageArchive.SearchStrategy {
  /// Every way a search can go: through the index alone; newest first through every message;
  /// newest first through a few, then the index; the standard one.
  static let all: [Self] = [
    Self(budget: 0), Self(budget: 1_000_000), Self(budget: 1), Self(budget: 7), .standard,
  ]
}

@Suite("Search index: indexing while pages are read")
struct FollowingIndexTests {
  /// `count` pages of 100 messages of instance `a`, oldest page first (ids and times rise).
  static func pages(_ count: Int, seed: UInt64, at date: Date) throws -> [IngestPage] {
    let bodies = SearchIndexTests.bodies(count: count * 100, seed: seed)
    return try (0..<count).map { number in
      let rows = (0..<100).map { offset in
        let id = number * 100 + offset + 1
        return (
          id: id, peer: "1069\(id % 7)", body: bodies[id - 1],
          at: String(format: "2026-03-01 %02d:%02d:%02d", id / 3600, id / 60 % 60, id % 60)
        )
      }
      return IngestPage(
        messages: try IngestTests.page(rows.reversed()), instanceID: "a", instanceName: "A",
        syncedAt: date)
    }
  }

  @Test("the writer indexes between pages, a chunk at a time, and search stays exact")
  func writerIndexesBetweenPages() async throws {
    let test = try TestStore(modules: [Messages.schema])
    let archive = MessageArchive(store: test.store)
    let queue = IngestQueue(archive: archive, followingIndex: true, followChunk: 150)
    var watermarks: [Int64] = []
    for page in try Self.pages(6, seed: 23, at: test.clock.clock.now()) {
      #expect(try await queue.ingest(page).inserted == 100)
      watermarks.append(try archive.indexWatermark())
      try SearchIndexTests.expectExact(archive, "after page \(watermarks.count)")
    }
    // A step indexes 150 once 150 wait, after the page that brought them.
    #expect(watermarks == [0, 150, 300, 300, 450, 600])
    #expect(try archive.waitingForIndex() == 0)
    try SearchIndexTests.checkTrigramIndex(test.store)
    // Without following, nothing is indexed until the catch-up.
    let plain = try TestStore(modules: [Messages.schema])
    let unfollowed = MessageArchive(store: plain.store)
    let writer = IngestQueue(archive: unfollowed)
    for page in try Self.pages(3, seed: 23, at: plain.clock.clock.now()) {
      _ = try await writer.ingest(page)
    }
    #expect(try unfollowed.waitingForIndex() == 300)
  }

  @Test("a catch-up killed inside its transaction indexes nothing, and the next one resumes")
  func killedCatchUpResumes() async throws {
    let directory = try TemporaryDirectory(prefix: "messages-follow")
    let clock = TestClock()
    let pages = try Self.pages(5, seed: 29, at: clock.clock.now())
    do {
      let store = try Store.open(
        directory: directory.url, modules: [Messages.schema], clock: clock.clock)
      let archive = MessageArchive(store: store)
      let queue = IngestQueue(archive: archive, followingIndex: true, followChunk: 200)
      for page in pages.prefix(2) { _ = try await queue.ingest(page) }
      #expect(try archive.indexWatermark() == 200)
      // The next step dies after writing both indexes, before it moves the watermark: its
      // transaction is rolled back as SQLite rolls back one cut short by a kill.
      try store.database.execute(
        """
        CREATE TEMP TRIGGER die BEFORE UPDATE ON message_index_state
        BEGIN SELECT RAISE(ABORT, 'killed'); END
        """)
      for page in pages.dropFirst(2) {
        #expect(try await queue.ingest(page).inserted == 100)
        try SearchIndexTests.expectExact(archive, "with a failing index step")
      }
      #expect(try archive.indexWatermark() == 200)
      #expect(try archive.waitingForIndex() == 300)
      #expect(throws: SQLiteError.self) { try archive.catchUpIndex() }
      #expect(try archive.indexWatermark() == 200)
    }
    // Reopened (the temporary trigger died with the connection): the catch-up resumes from
    // the watermark and indexes every message once.
    let store = try Store.open(
      directory: directory.url, modules: [Messages.schema], clock: clock.clock)
    let archive = MessageArchive(store: store)
    #expect(try archive.catchUpIndex(chunk: 120) == 300)
    #expect(try archive.waitingForIndex() == 0)
    try SearchIndexTests.expectExact(archive, "resumed")
    try SearchIndexTests.checkTrigramIndex(store)
    #expect(
      try store.database.queryOne("SELECT count(*) AS n FROM messages_fts")?.int("n") == 500)
    // Each message's bigrams once: the last character of every body is one token of its own.
    for term in ["验", "a", "码"] {
      #expect(
        try SearchIndexTests.indexed(term, archive)
          == SearchIndexTests.scanned(term, archive).count, "\(term)")
    }
  }
}
