import Essentials
import Foundation
import SimAdminClient

/// The parts of one device read that keep it bounded whatever the device answers (issue 36):
/// what the read has seen in this pass, the page size the device answers within the response
/// limit, and one page as fetched.
extension MessageSyncer {
  /// A row of the device's order (timestamp, then id) that the next page must reach: the
  /// oldest row of the previous page that the next one re-reads.
  struct Anchor: Equatable, Sendable {
    var timestamp: String
    var id: Int64

    init(_ message: SmsMessage) {
      timestamp = message.timestamp
      id = message.id
    }

    init(timestamp: String, id: Int64) {
      self.timestamp = timestamp
      self.id = id
    }

    /// Whether `message` is older than the anchor in the device's order.
    func isNewer(than message: SmsMessage) -> Bool {
      (message.timestamp, message.id) < (timestamp, id)
    }
  }

  /// What one device read has seen in this sync, across its pages: which rows (id and
  /// content), which id came with which content, where unreadable entries were, and how many
  /// entries it read (what the per-device ceiling counts).
  struct Pass {
    struct Row: Hashable {
      var id: Int64
      var content: Int
    }

    /// Every row read in this pass.
    var rows = Set<Row>()
    /// The content each id was first read with.
    var contentOf: [Int64: Int] = [:]
    /// Whether the device's ids are not to be trusted: an id came with two contents in this
    /// pass (or an earlier sync found so).
    var repeatsIDs: Bool
    /// Whether this pass saw an id come with two contents.
    var sawRepeatedID = false
    /// The offsets (as read) of the unreadable entries: a page's overlap and a step back read
    /// some twice.
    var unreadableOffsets = Set<Int>()
    /// Entries read, rows and unreadable ones, overlaps included (in every pass of the sync:
    /// what the ceiling counts).
    var entries = 0
    /// The outgoing rows among ``rows``.
    var outgoingRows = 0

    init(repeatsIDs: Bool) {
      self.repeatsIDs = repeatsIDs
    }

    /// A new pass over the device in the same sync (a read of every row after the newest
    /// pages, or from the top again): nothing seen yet, the entries read so far still count
    /// towards the ceiling, and what is known of the device's ids stays.
    func restarted() -> Pass {
      var pass = Pass(repeatsIDs: repeatsIDs)
      pass.sawRepeatedID = sawRepeatedID
      pass.entries = entries
      return pass
    }

    var unreadable: Int { unreadableOffsets.count }

    /// A hash of a row's content (direction, number, text, timestamp, marker).
    static func content(_ message: SmsMessage) -> Int {
      var hasher = Hasher()
      hasher.combine(message.direction)
      hasher.combine(message.phoneNumber)
      hasher.combine(message.content)
      hasher.combine(message.timestamp)
      hasher.combine(message.pdu)
      return hasher.finalize()
    }

    /// Notes a fetched page read at `offset`; returns which of its messages (by index) are new
    /// in this pass.
    mutating func note(_ page: Fetched, offset: Int) -> [Int] {
      entries += page.entries
      for position in page.unreadablePositions { unreadableOffsets.insert(offset + position) }
      if page.skipped { unreadableOffsets.insert(offset) }
      var fresh: [Int] = []
      for (index, message) in page.messages.enumerated() {
        let content = Self.content(message)
        if let first = contentOf[message.id] {
          if first != content {
            repeatsIDs = true
            sawRepeatedID = true
          }
        } else {
          contentOf[message.id] = content
        }
        if rows.insert(Row(id: message.id, content: content)).inserted {
          fresh.append(index)
          if message.isOutgoing { outgoingRows += 1 }
        }
      }
      return fresh
    }
  }

  /// The page size a device answers within the response limit: halved while a page is too
  /// large, and remembered for the device. Shared by the requests of one instance's sync (the
  /// first page of a later sync is asked for concurrently with the counts).
  ///
  /// Halving stops at the first size that answers; the read goes on at that size. A halving
  /// that ends at a single row too large (skipped) was that row's doing, not the other rows':
  /// the read goes back to the size it started with and nothing is remembered of it. Only the
  /// smaller size of the rest (a device whose every row is long) is kept for the device.
  final class PageSizing: Sendable {
    private struct State {
      var start: Int
      var size: Int
      var earlier: Int?
      var found: Int?
    }

    private let state: Locked<State>

    /// Pages of `size`, or of the smaller `remembered` size that worked before.
    init(size: Int, remembered: Int?) {
      let start = remembered.map { min(size, max(1, $0)) } ?? size
      state = Locked(State(start: start, size: start, earlier: remembered))
    }

    /// The size to ask for now.
    var size: Int { state.withLock { $0.size } }

    /// The size to remember for the device (nil: the size asked for works).
    var remembered: Int? { state.withLock { $0.found ?? $0.earlier } }

    /// A page of `size` answered after larger ones were too large: the size from now on.
    func worked(_ size: Int) {
      state.withLock {
        $0.size = size
        $0.found = min($0.found ?? size, size)
      }
    }

    /// A single row too large was skipped: the halving was its doing.
    func skipped() {
      state.withLock {
        $0.size = $0.start
        $0.found = nil
      }
    }
  }

  /// One page as fetched: its messages, where it had unreadable entries, the limit that was
  /// asked (after any halving), and whether a single row over the response limit was skipped.
  struct Fetched: Sendable {
    var messages: [SmsMessage]
    var unreadablePositions: [Int] = []
    var limit: Int
    var skipped = false

    /// Entries as the device sent them (a skipped row counts as one).
    var entries: Int { messages.count + unreadablePositions.count + (skipped ? 1 : 0) }

    /// Unreadable entries, a skipped row included.
    var unreadable: Int { unreadablePositions.count + (skipped ? 1 : 0) }

    /// Whether the device has no row after this page.
    var isLast: Bool { entries < limit }

    /// The position in the page of message `index` (unreadable entries take positions too).
    func position(ofMessage index: Int) -> Int {
      var position = index
      for unreadable in unreadablePositions.sorted() where unreadable <= position {
        position += 1
      }
      return position
    }
  }

  /// Messages a page of `size` re-reads from the previous one: a tenth of it, at most 20;
  /// none for a page of one row (whose successor is then not checked for a gap).
  static func overlap(for size: Int) -> Int {
    size < 2 ? 0 : min(20, max(1, size / 10))
  }

  /// One page of at most `limit` rows at `offset`. A page too large for the response limit is
  /// asked again at half the size, down to a single row; a single row too large is skipped and
  /// counted unreadable (the size then stays what it was, for the rows after it). A size that
  /// worked after halving is kept in `sizing` for the rest of the read and for the device.
  static func fetch(
    _ session: SimAdminSession, limit: Int, offset: Int, sizing: PageSizing
  ) async throws -> Fetched {
    var asked = max(1, limit)
    var halved = false
    while true {
      try Task.checkCancellation()
      let answer: Result<SmsMessageList, SimAdminFailure>
      do {
        answer = .success(try await session.smsPage(limit: asked, offset: offset))
      } catch {
        answer = .failure(error)
      }
      switch answer {
      case .success(let page):
        if halved { sizing.worked(asked) }
        return Fetched(
          messages: page.messages, unreadablePositions: page.unreadablePositions, limit: asked)
      case .failure(let failure) where failure.error.isTooLarge:
        guard asked > 1 else {
          sizing.skipped()
          return Fetched(messages: [], limit: 1, skipped: true)
        }
        asked = max(1, asked / 2)
        halved = true
      case .failure(let failure):
        throw failure
      }
    }
  }
}

extension SimAdminError {
  /// Whether the answer was over the response size limit.
  var isTooLarge: Bool {
    if case .tooLarge = self { return true }
    return false
  }
}
