import Essentials
import Foundation
import LocalStore
import LocalStoreTesting
import Testing
import ViewKit

@testable import MessagesFeature

/// Issue 30: one search box finds the body, the sender's number or name and the instance.
@Suite("Search: by sender and by instance")
struct SenderSearchTests {
  /// Senders as devices write them: short codes, mobile numbers in their forms, names in
  /// their cases, foreign numbers, and many numbers sharing a start (more than the per-key
  /// queries take).
  static let senders =
    [
      "10086", "10086", "100860", "+86 138 0013 8000", "13800138000", "008613800138000",
      "Google", "GOOGLE", "google", "95588", "+447911123456", "1069123", "1069456", "中国移动",
    ] + (0..<12).map { "10655\($0)" }

  /// An archive of three instances: one registered ("Wuhan Hanging"), one removed that synced
  /// as "Old Shenzhen", one with neither, each with messages of every sender.
  static func archive() throws -> (TestStore, MessageArchive) {
    let test = try TestStore(modules: [Messages.schema])
    let archive = MessageArchive(store: test.store)
    try test.store.database.run(
      """
      INSERT INTO instances (id, name, origin, revision, created_at, updated_at)
      VALUES ('wuhan', 'Wuhan Hanging', 'http://10.0.0.1', 1, 0, 0)
      """)
    try archive.startNewEpoch(instanceID: "old", instanceName: "Old Shenzhen")
    let bodies = SearchIndexTests.bodies(count: 240, seed: 30)
    for (number, instance) in ["wuhan", "old", "plain"].enumerated() {
      let rows = (0..<80).map { offset in
        let id = offset + 1
        let second = number * 80 + offset
        return (
          id: id, peer: senders[(offset * 5 + number) % senders.count],
          body: bodies[number * 80 + offset] + (offset % 9 == 0 ? " 请致电10086" : ""),
          at: String(format: "2026-03-01 11:%02d:%02d", second / 2 / 60, second / 2 % 60)
        )
      }
      try archive.ingest(
        try IngestTests.page(rows.reversed()), instanceID: instance, instanceName: instance,
        syncedAt: Date(timeIntervalSince1970: 1_780_000_000))
    }
    return (test, archive)
  }

  static let terms = [
    "10086", "1008", "100860", "138 0013", "+86 138", "+8613800138000", "0086138", "goog",
    "Google", "GOOGLE", "wuhan", "Hanging", "old shen", "Shenzhen", "plain", "95", "44 79",
    "+44", "中国", "10655", "106", "验证", "a", "zz", "1",
  ]

  @Test("every search way finds the body, the sender's start and the instance, exactly")
  func exactInEveryWay() throws {
    let (_, archive) = try Self.archive()
    for indexed in [false, true] {
      if indexed { _ = try archive.catchUpIndex(chunk: 100) }
      for term in Self.terms {
        let expected = try SearchIndexTests.scanned(term, archive)
        for (number, strategy) in MessageArchive.SearchStrategy.all.enumerated() {
          let found = try archive.list(
            filter: MessageFilter(search: term), after: nil, limit: 100_000, strategy: strategy
          ).map(\.id)
          #expect(found == expected, "\(term) (strategy #\(number), indexed: \(indexed))")
          // Page by page through cursors: the same messages in the same order.
          var paged: [Int64] = []
          var cursor: MessageCursor?
          while true {
            let page = try archive.list(
              filter: MessageFilter(search: term), after: cursor, limit: 7, strategy: strategy)
            paged += page.map(\.id)
            guard page.count == 7, let last = page.last else { break }
            cursor = MessageCursor(after: last)
          }
          #expect(paged == expected, "\(term) paged (strategy #\(number))")
        }
        #expect(try archive.count(filter: MessageFilter(search: term)) == expected.count, "\(term)")
      }
    }
  }

  @Test("a number, a name and an instance find messages whose body does not hold them")
  func findsWhatBodiesDoNotHold() throws {
    let (_, archive) = try Self.archive()
    func peers(_ term: String) throws -> Set<String> {
      Set(try archive.list(filter: MessageFilter(search: term), limit: 1000).map(\.peer))
    }
    func instances(_ term: String) throws -> Set<String> {
      Set(try archive.list(filter: MessageFilter(search: term), limit: 1000).map(\.instanceName))
    }
    // Short code: its own messages (and bodies naming it).
    #expect(try peers("10086").isSuperset(of: ["10086", "100860"]))
    // A mobile number in any of its forms finds all of them.
    let mobile: Set = ["+86 138 0013 8000", "13800138000", "008613800138000"]
    for term in ["13800138000", "+86 138 0013 8000", "+8613800138000", "138-0013"] {
      #expect(try peers(term) == mobile, "\(term)")
    }
    // A name in any case.
    #expect(try peers("goog") == ["Google", "GOOGLE", "google"])
    #expect(try peers("中国移动") == ["中国移动"])
    // A foreign number without its +.
    #expect(try peers("44 7911") == ["+447911123456"])
    // The instance as shown: the registry's name, the name a removed instance synced under.
    #expect(try instances("hanging") == ["Wuhan Hanging"])
    #expect(try instances("Old Shenzhen") == ["Old Shenzhen"])
    // Nothing matches: nothing found.
    #expect(try archive.list(filter: MessageFilter(search: "zzzz"), limit: 10).isEmpty)
  }

  @Test("a prefix of thousands of senders is read newest first, exactly")
  func aCommonPrefixIsWalked() throws {
    let test = try TestStore(modules: [Messages.schema])
    let archive = MessageArchive(store: test.store)
    // 3,300 messages, two in three from a 1069 number of their own (as the benchmark's
    // service numbers are), the rest from 10086.
    let rows = (0..<3_300).map { offset in
      (
        id: offset + 1, peer: offset % 3 == 0 ? "10086" : "1069\(10_000 + offset)",
        body: "body \(offset % 11)",
        at: String(
          format: "2026-03-01 %02d:%02d:%02d", offset / 3600, offset / 60 % 60, offset % 60)
      )
    }
    try archive.ingest(
      try IngestTests.page(rows.reversed()), instanceID: "a", instanceName: "a",
      syncedAt: Date(timeIntervalSince1970: 1_780_000_000))
    let matches = try archive.senderMatches(try #require(SearchTerm("1069")))
    #expect(matches.peerRanges.count == 1)
    // 2,200 messages in the range: read newest first on the time index.
    let branch = try #require(matches.branches().first { $0.isRange })
    #expect(try archive.isCommon(branch))
    for term in ["1069", "10691", "1008"] {
      let expected = try SearchIndexTests.scanned(term, archive)
      for strategy in MessageArchive.SearchStrategy.all {
        var paged: [Int64] = []
        var cursor: MessageCursor?
        while paged.count < 400 {
          let page = try archive.list(
            filter: MessageFilter(search: term), after: cursor, limit: 50, strategy: strategy)
          paged += page.map(\.id)
          guard page.count == 50, let last = page.last else { break }
          cursor = MessageCursor(after: last)
        }
        #expect(paged == Array(expected.prefix(paged.count)), "\(term)")
        #expect(paged.count == min(400, expected.count), "\(term)")
      }
    }
  }

  @Test("the sender forms of a term")
  func senderForms() {
    // Exact keys (issue 36): the form as typed, then the mobile number's digits.
    #expect(
      SenderMatches.prefixes("+86 138-0013") == [
        "+86 138-0013", "1380013", "+861380013", "+1380013",
      ])
    #expect(SenderMatches.prefixes("138-0013") == ["138-0013", "1380013", "+1380013"])
    #expect(SenderMatches.prefixes("10086") == ["10086", "+10086"])
    #expect(SenderMatches.prefixes("Goog").contains("goog"))
    #expect(SenderMatches.prefixes("  ").isEmpty)
  }

  @Test("the empty page names the search in both languages; the archive's emptiness is another")
  func emptyStates() {
    var state = MessageListState(
      messages: [], showBodies: false, nextCursor: nil, timeZone: .gmt)
    state.search = "10086"
    state.isFiltered = true
    let english = TextRenderer.render(
      MessagesViews.list(state, language: .english), options: RenderOptions(width: 80))
    #expect(english.contains("Nothing matches “10086”"))
    #expect(english.contains("the sender's number or name"))
    #expect(!english.contains("msa messages sync"))
    let chinese = TextRenderer.render(
      MessagesViews.list(state, language: .simplifiedChinese), options: RenderOptions(width: 80))
    #expect(chinese.contains("没有与“10086”匹配的短信"))
    #expect(!chinese.contains("msa messages sync"))
    // No search, no filter, nothing archived: how to fill the archive.
    state.search = nil
    state.isFiltered = false
    let empty = TextRenderer.render(
      MessagesViews.list(state, language: .english), options: RenderOptions(width: 80))
    #expect(empty.contains("msa messages sync"))
  }
}
