import Foundation
import LocalStore

/// What a search term finds besides bodies (issue 30): the messages of the senders whose
/// number or name starts with it (`10086`, `1069…`, `+86 138…`, `goog…`; a mobile number in
/// the bare form the archive keys it by: `+86 138-0013` finds `13800138000`, see
/// ``prefixes(_:)``) and of the instances whose name contains it (as `LIKE` does: ASCII
/// letters in either case).
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

  /// One way the messages are found: its condition, and whether it is a range of keys.
  struct Branch {
    var sql: String
    var values: [any SQLiteBindable]
    var isRange = false
  }

  /// The ways the messages are found: one condition per key, range and instance (each
  /// served by an index in the archive's order), or, when there are many, all in one.
  func branches() -> [Branch] {
    var branches: [Branch] = []
    for key in peerKeys { branches.append(Branch(sql: "m.peer_key = ?", values: [key])) }
    for range in peerRanges {
      branches.append(
        Branch(
          sql: "(m.peer_key >= ? AND m.peer_key < ?)", values: [range.lower, range.upper],
          isRange: true))
    }
    for id in instanceIDs { branches.append(Branch(sql: "m.instance_id = ?", values: [id])) }
    guard branches.count > 2 * Self.keysPerPrefix else { return branches }
    let all = condition()
    return [Branch(sql: all.sql, values: all.values, isRange: true)]
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

  /// The sender keys a term may start. Keys are exact but for a mainland mobile number
  /// (``PeerNumber``, issue 36), so: the term as typed and in the usual cases (`goog` finds
  /// `Google`, `GOOGLE` and `google`, each its own sender); a typed number's digits without
  /// its spaces and dashes (`138-0013` and `+86 138-0013` find `13800138000`), without
  /// `+86`/`0086`, and with a `+` (`44 7911` finds `+447911…`). A search is a way to look, not
  /// a sender's identity: `100-86` also finds `10086`, which `msa code --from` never merges.
  static func prefixes(_ term: String) -> [String] {
    var forms = [term, term.lowercased(), term.uppercased(), term.capitalized].map(PeerNumber.key)
    forms.append(PeerNumber.keyPrefix(term))
    if let digits = digitGroups(term) { forms.append(digits) }
    for form in forms {
      for country in ["+86", "0086"] where form.hasPrefix(country) {
        let rest = form.dropFirst(country.count)
        if let first = rest.first, first.isNumber { forms.append(String(rest)) }
      }
      if !form.isEmpty, form.allSatisfy({ $0.isASCII && $0.isNumber }) {
        forms.append("+" + form)
      }
    }
    var seen: Set<String> = []
    return forms.filter {
      !$0.allSatisfy { $0 == " " || $0 == "-" } && seen.insert($0).inserted
    }
  }

  /// The digits of a number typed in groups (`+44 7911`, `138-0013`: an optional `+`, then
  /// ASCII digits with single spaces or dashes between them), with its `+`; nil for anything
  /// else, or a number typed without groups (already its own form).
  static func digitGroups(_ term: String) -> String? {
    var result = ""
    var previousWasDigit = false
    for (index, character) in term.enumerated() {
      if character.isASCII, character.isNumber {
        result.append(character)
        previousWasDigit = true
      } else if character == "+", index == 0 {
        result.append(character)
      } else if character == " " || character == "-", previousWasDigit {
        previousWasDigit = false
      } else {
        return nil
      }
    }
    guard previousWasDigit, result.count < term.count else { return nil }
    return result
  }
}

extension MessageArchive {
  /// The senders and instances `filter`'s search finds; nil without a search.
  func senderMatches(_ filter: MessageFilter) throws -> SenderMatches? {
    guard let term = SearchTerm(filter.search) else { return nil }
    return try senderMatches(term)
  }

  /// The senders and instances `term` finds (``SenderMatches``), from the senders' index and
  /// the instance tables: one statement (each prefix's first key, every matching instance)
  /// for a term that matches nothing, the usual case; a few index steps more for each prefix
  /// that does.
  func senderMatches(_ term: SearchTerm) throws -> SenderMatches {
    var matches = SenderMatches()
    let prefixes = SenderMatches.prefixes(term.text)
    // Past every key with a prefix in the index's (byte) order: no key holds U+10FFFF.
    let uppers = prefixes.map { $0 + "\u{10FFFF}" }
    var columns: [String] = []
    var values: [any SQLiteBindable] = []
    for (index, prefix) in prefixes.enumerated() {
      columns.append(
        "(SELECT min(peer_key) FROM messages WHERE peer_key >= ? AND peer_key < ?) AS k\(index)")
      values += [prefix, uppers[index]]
    }
    // The name an instance is shown with: its registry name, else the last one it synced
    // under (a removed instance).
    columns.append(
      """
      (SELECT group_concat(id, ',') FROM (SELECT id FROM instances
        WHERE (name \(term.likeOperator)) <> 0
        UNION SELECT instance_id FROM message_sync_state
        WHERE instance_id NOT IN (SELECT id FROM instances)
        AND (instance_name \(term.likeOperator)) <> 0 ORDER BY 1)) AS ids
      """)
    values += [term.like, term.like]
    guard let row = try database.queryOne("SELECT " + columns.joined(separator: ", "), values)
    else { return matches }
    matches.instanceIDs = (try row.optionalString("ids") ?? "").split(separator: ",").map(
      String.init)
    for (index, prefix) in prefixes.enumerated() {
      guard let first = try row.optionalString("k\(index)") else { continue }
      var keys = [first]
      while keys.count <= SenderMatches.keysPerPrefix, let last = keys.last,
        let key = try database.queryOne(
          "SELECT min(peer_key) AS k FROM messages WHERE peer_key > ? AND peer_key < ?",
          [last, uppers[index]])?.optionalString("k")
      {
        keys.append(key)
      }
      if keys.count > SenderMatches.keysPerPrefix {
        matches.peerRanges.append(.init(lower: prefix, upper: uppers[index]))
      } else {
        matches.peerKeys += keys.filter { !matches.peerKeys.contains($0) }
      }
    }
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
      // A condition with many matches (a range of senders such as 1069…, a thousand keys)
      // is read newest first on the time index, where its page comes after a few hundred
      // messages; one with few is read through its own index and sorted.
      let walks = try branch.isRange && isCommon(branch)
      let select =
        walks
        ? Self.selectColumns.replacingOccurrences(
          of: "FROM messages m ", with: "FROM messages m INDEXED BY messages_by_time ")
        : Self.selectColumns
      pages.append(
        try database.query(
          select + " WHERE " + sql.joined(separator: " AND ")
            + " ORDER BY m.device_at DESC, m.id DESC LIMIT ?", values
        ).map(Self.message))
    }
    return Self.merged(pages, limit: limit)
  }

  /// Whether a range of sender keys holds more messages than are worth sorting (2,000,
  /// counted on the senders' index alone).
  func isCommon(_ branch: SenderMatches.Branch) throws -> Bool {
    try database.queryOne(
      "SELECT count(*) AS n FROM (SELECT 1 FROM messages m WHERE \(branch.sql) LIMIT 2000)",
      branch.values)?.int("n") == 2000
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
