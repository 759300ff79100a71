import Foundation
import LocalStore

/// What a search term finds besides bodies (issue 30): the messages of the senders whose
/// number or name starts with it (`10086`, `1069…`, `+86 138…`, `goog…`, in the same normal
/// form the archive keeps: `+86 138-0013` finds `13800138000`) and of the instances whose name
/// contains it (as `LIKE` does: ASCII letters in either case).
///
/// A sender matches from its start, never in its middle: the senders' index
/// (`messages_by_peer`) finds every key with a prefix in a few steps, while a substring would
/// read every key of the archive at every search (a sync of random numbers makes one key for
/// two messages).
struct SenderMatches: Equatable {
  /// A range of sender keys, `lower` included, `upper` not.
  struct KeyRange: Equatable {
    var lower: String
    var upper: String
  }

  /// Sender keys that start with the term, each read through the senders' index.
  var peerKeys: [String] = []
  /// Prefixes with more keys than are worth a query each.
  var peerRanges: [KeyRange] = []
  /// Instances whose name contains the term.
  var instanceIDs: [String] = []

  var isEmpty: Bool { peerKeys.isEmpty && peerRanges.isEmpty && instanceIDs.isEmpty }

  /// How many keys of one prefix get a query each before the prefix is read as a range.
  static let keysPerPrefix = 8

  /// The ways the messages are found: one condition per key, range and instance (each
  /// served by an index in the archive's order), or, when there are many, all in one.
  func branches() -> [(sql: String, values: [any SQLiteBindable])] {
    var branches: [(sql: String, values: [any SQLiteBindable])] = []
    for key in peerKeys { branches.append(("m.peer_key = ?", [key])) }
    for range in peerRanges {
      branches.append(("(m.peer_key >= ? AND m.peer_key < ?)", [range.lower, range.upper]))
    }
    for id in instanceIDs { branches.append(("m.instance_id = ?", [id])) }
    guard branches.count > 2 * Self.keysPerPrefix else { return branches }
    return [condition()]
  }

  /// One condition for all of them.
  func condition() -> (sql: String, values: [any SQLiteBindable]) {
    var parts: [String] = []
    var values: [any SQLiteBindable] = []
    if !peerKeys.isEmpty {
      parts.append(
        "m.peer_key IN (" + Array(repeating: "?", count: peerKeys.count).joined(separator: ",")
          + ")")
      values += peerKeys as [any SQLiteBindable]
    }
    for range in peerRanges {
      parts.append("(m.peer_key >= ? AND m.peer_key < ?)")
      values += [range.lower, range.upper]
    }
    if !instanceIDs.isEmpty {
      parts.append(
        "m.instance_id IN ("
          + Array(repeating: "?", count: instanceIDs.count).joined(separator: ",") + ")")
      values += instanceIDs as [any SQLiteBindable]
    }
    return ("(" + parts.joined(separator: " OR ") + ")", values)
  }

  /// The sender keys a term may start: its normal form (``PeerNumber/key(_:)``) as typed and
  /// in the usual cases (a name may be kept as it came), without `+86`/`0086`, and with a `+`
  /// for digits (`44 7911` finds `+447911…`).
  static func prefixes(_ term: String) -> [String] {
    var forms = [term, term.lowercased(), term.uppercased(), term.capitalized].map(PeerNumber.key)
    for form in forms {
      for country in ["+86", "0086"] where form.hasPrefix(country) && form.count > country.count {
        forms.append(String(form.dropFirst(country.count)))
      }
      if !form.isEmpty, form.allSatisfy({ $0.isASCII && $0.isNumber }) {
        forms.append("+" + form)
      }
    }
    var seen: Set<String> = []
    return forms.filter { !$0.isEmpty && seen.insert($0).inserted }
  }
}

extension MessageArchive {
  /// The senders and instances `filter`'s search finds; nil without a search.
  func senderMatches(_ filter: MessageFilter) throws -> SenderMatches? {
    guard let term = SearchTerm(filter.search) else { return nil }
    return try senderMatches(term)
  }

  /// The senders and instances `term` finds (``SenderMatches``), from the senders' index and
  /// the instance tables: a few index steps, whatever the archive's size.
  func senderMatches(_ term: SearchTerm) throws -> SenderMatches {
    var matches = SenderMatches()
    for prefix in SenderMatches.prefixes(term.text) {
      // Past every key with this prefix in the index's (byte) order: no key holds U+10FFFF.
      let upper = prefix + "\u{10FFFF}"
      var keys: [String] = []
      var lower = prefix
      var comparison = ">="
      while keys.count <= SenderMatches.keysPerPrefix,
        let key = try database.queryOne(
          "SELECT min(peer_key) AS k FROM messages WHERE peer_key \(comparison) ? AND peer_key < ?",
          [lower, upper])?.optionalString("k")
      {
        keys.append(key)
        lower = key
        comparison = ">"
      }
      if keys.count > SenderMatches.keysPerPrefix {
        matches.peerRanges.append(.init(lower: prefix, upper: upper))
      } else {
        matches.peerKeys += keys.filter { !matches.peerKeys.contains($0) }
      }
    }
    // The name an instance is shown with: its registry name, else the last one it synced
    // under (a removed instance).
    matches.instanceIDs = try database.query(
      """
      SELECT id FROM instances WHERE (name \(term.likeOperator)) <> 0
      UNION SELECT instance_id FROM message_sync_state
        WHERE instance_id NOT IN (SELECT id FROM instances)
        AND (instance_name \(term.likeOperator)) <> 0
      ORDER BY 1
      """, [term.like, term.like]
    ).map { try $0.string("id") }
    return matches
  }

  /// The newest messages `others` keeps (after `cursor`) from the senders and instances of
  /// `matches`, at most `limit`: one query per sender key, range and instance, each read in
  /// the archive's order through its index, merged.
  func senderPage(
    _ matches: SenderMatches, _ others: MessageFilter, after cursor: MessageCursor?, limit: Int
  ) throws -> [ArchivedMessage] {
    var pages: [[ArchivedMessage]] = []
    for branch in matches.branches() {
      var (sql, values) = try conditions(others)
      Self.append(cursor, to: &sql, &values)
      sql.append(branch.sql)
      values += branch.values
      values.append(limit)
      pages.append(
        try database.query(
          Self.selectColumns + " WHERE " + sql.joined(separator: " AND ")
            + " ORDER BY m.device_at DESC, m.id DESC LIMIT ?", values
        ).map(Self.message))
    }
    return Self.merged(pages, limit: limit)
  }

  /// The newest `limit` of several pages in the archive's order (device instant, then id,
  /// both descending), each message once.
  static func merged(_ pages: [[ArchivedMessage]], limit: Int) -> [ArchivedMessage] {
    let nonEmpty = pages.filter { !$0.isEmpty }
    guard nonEmpty.count > 1 else { return Array((nonEmpty.first ?? []).prefix(limit)) }
    var seen: Set<Int64> = []
    let all = nonEmpty.joined().filter { seen.insert($0.id).inserted }
    return Array(
      all.sorted { a, b in
        let left = MessageCursor(after: a)
        let right = MessageCursor(after: b)
        return left.deviceAtMilliseconds != right.deviceAtMilliseconds
          ? left.deviceAtMilliseconds > right.deviceAtMilliseconds : left.id > right.id
      }.prefix(limit))
  }
}
