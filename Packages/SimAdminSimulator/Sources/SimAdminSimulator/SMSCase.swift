import Essentials
import Foundation

/// What a real device's SMS store does that a naive archive gets wrong, produced on purpose by
/// a simulated device's live traffic (issue 14). Selected per device with ``SMSCaseSpec``
/// (`msa simulate --sms-cases`) or ``SimulatedDevice/setSMSCases(_:)``.
public enum SMSCase: Sendable, Hashable {
  /// Every third live message is one SimAdmin's periodic reconcile picked up late: it keeps
  /// the network's timestamp, `minutes` before now, so it sorts below newer messages while its
  /// id is the newest (SIMADMIN-API §6).
  case late(minutes: Int)
  /// The device's clock fell back to 2000-01-01 00:00:00 when the fleet started: live messages
  /// are stamped from there on.
  case clockReset
  /// Every fourth live tick also sends two identical outgoing "收到" to the same number in the
  /// same second: two rows on the device.
  case identical
  /// Every `every` live ticks the device's database is renumbered (ids restart at 1, every row
  /// kept), as after a re-flash and restore.
  case renumber(every: Int)
  /// Every `every` live ticks one random older message is deleted on the device (by its user,
  /// or from SimAdmin 1.2.1 by a hub, SIMADMIN-API §7).
  case deletes(every: Int)
  /// `count` new messages arrive with every `/api/sms/list` request past the first page, so
  /// they arrive while a sync pages.
  case burst(count: Int)
  /// Every fifth live message carries invalid UTF-8 bytes in its body.
  case invalidUTF8
  /// The device has no `/api/sms/stats` (the plain-text 404 of an unknown route, as on older
  /// versions).
  case noStats
  /// `/api/sms/list` ignores `offset`: every page is the first page (a broken proxy or
  /// firmware; issue 36). A sync that pages by offset never reaches a short page.
  case ignoresOffset
  /// Past its stored rows, `/api/sms/list` hands out invented rows forever, each page older
  /// than the one before (the rows at one position are the same at every request, so pages
  /// still overlap consistently). `/api/sms/stats` counts only the stored rows.
  case endless
  /// Every `every`-th stored row (by id) is listed in a form no client can read: in turn
  /// `null`, an id that is text, an id beyond Int64, an object without an id. Stats still
  /// count them.
  case unreadable(every: Int)
  /// The list shows ids modulo `modulus` (`((id - 1) % modulus) + 1`): the same id on rows
  /// of different content, across pages.
  case repeatedIDs(modulus: Int)
  /// Every listed body is padded to `characters` characters (`汉`, three bytes each), so a page
  /// of 200 such rows is over a client's 8 MiB response limit (issue 36 point 9).
  case hugeBodies(characters: Int)
  /// The device's clock is `minutes` off (negative: slow): live messages are stamped with it
  /// (SimAdmin never sets the clock, SIMADMIN-API §6; issue 29 point 7).
  case clockOffset(minutes: Int)
  /// Live messages carry timestamps that name no time, in turn: `""`, `0000-00-00 00:00:00`,
  /// `2026-02-30 10:00:00`, an epoch number, `9999-12-31 23:59:59` and one wrapped in terminal
  /// escapes (conceal, a window title, a bidi override) (issue 36 point 6).
  case badDates
  /// Every `every` live ticks the device restores a backup of every row in replace mode:
  /// each row comes back under a new, higher id (`backup.rs`; issue 29 point 5).
  case restore(every: Int)
  /// The device runs SimAdmin v1.0.0–1.0.5 for its first `ticks` live ticks (RFC 3339 UTC
  /// timestamps, `mm:` markers), then upgrades to v1.0.6, which rewrites those timestamps
  /// in the Beijing form (issue 29 point 6).
  case legacy(ticks: Int)
  /// Every `every` live ticks another SIM goes in, with a new number (issue 29 point 8).
  case simSwap(every: Int)
}

/// The `--sms-cases SPEC` syntax: comma-separated `INDEX=CASE[:ARG]`, `INDEX` 1-based or `*`.
/// Cases: `late[:MINUTES]` (default 90), `clock-reset`, `identical`, `renumber[:EVERY]`
/// (default 50), `deletes[:EVERY]` (default 5), `burst[:COUNT]` (default 3), `invalid-utf8`,
/// `no-stats`, `ignore-offset`, `endless`, `unreadable[:EVERY]` (default 7),
/// `repeated-ids[:MODULUS]` (default 100), `huge-bodies[:CHARACTERS]` (default 17,000),
/// `clock:MINUTES` (default -10; negative: slow), `bad-dates`, `restore[:EVERY]` (default 10),
/// `legacy[:TICKS]` (default 5) and `sim-swap[:EVERY]` (default 10).
/// Example: `"1=late,2=clock-reset,3=identical,*=burst:2"`.
public enum SMSCaseSpec {
  /// Parses `spec` for a fleet of `deviceCount` devices into cases per 1-based index.
  public static func parse(_ spec: String, deviceCount: Int) throws -> [Int: [SMSCase]] {
    var result: [Int: [SMSCase]] = [:]
    let trimmed = spec.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { return [:] }
    for rawItem in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
      let item = rawItem.trimmingCharacters(in: .whitespaces)
      guard let equals = item.firstIndex(of: "=") else { throw SMSCaseSpecError.badItem(item) }
      let indexText = item[..<equals].trimmingCharacters(in: .whitespaces)
      let indices: ClosedRange<Int>
      if indexText == "*", deviceCount > 0 {
        indices = 1...deviceCount
      } else if let index = Int(indexText), index >= 1, index <= deviceCount {
        indices = index...index
      } else {
        throw SMSCaseSpecError.badIndex(item: item, deviceCount: deviceCount)
      }
      let caseText = item[item.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      let smsCase = try parseCase(caseText, item: item)
      for index in indices { result[index, default: []].append(smsCase) }
    }
    return result
  }

  static func parseCase(_ text: String, item: String) throws -> SMSCase {
    let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
    let name = parts.first?.lowercased() ?? ""
    let argument = parts.count == 2 ? parts[1] : nil
    func number(default value: Int) throws -> Int {
      guard let argument else { return value }
      guard let number = Int(argument), number > 0 else {
        throw SMSCaseSpecError.badArgument(item: item, argument: argument)
      }
      return number
    }
    func none(_ smsCase: SMSCase) throws -> SMSCase {
      if let argument { throw SMSCaseSpecError.badArgument(item: item, argument: argument) }
      return smsCase
    }
    switch name {
    case "late": return .late(minutes: try number(default: 90))
    case "clock-reset", "clockreset": return try none(.clockReset)
    case "identical": return try none(.identical)
    case "renumber": return .renumber(every: try number(default: 50))
    case "deletes", "delete": return .deletes(every: try number(default: 5))
    case "burst": return .burst(count: try number(default: 3))
    case "invalid-utf8", "invalidutf8": return try none(.invalidUTF8)
    case "no-stats", "nostats": return try none(.noStats)
    case "ignore-offset", "ignores-offset": return try none(.ignoresOffset)
    case "endless": return try none(.endless)
    case "unreadable": return .unreadable(every: try number(default: 7))
    case "repeated-ids": return .repeatedIDs(modulus: try number(default: 100))
    case "huge-bodies": return .hugeBodies(characters: try number(default: 17_000))
    case "clock":
      // The only signed argument: a clock is slow or fast.
      guard let argument else { return .clockOffset(minutes: -10) }
      guard let minutes = Int(argument), minutes != 0, abs(minutes) <= 5_256_000 else {
        throw SMSCaseSpecError.badClock(item: item, argument: argument)
      }
      return .clockOffset(minutes: minutes)
    case "bad-dates", "baddates": return try none(.badDates)
    case "restore": return .restore(every: try number(default: 10))
    case "legacy": return .legacy(ticks: try number(default: 5))
    case "sim-swap", "simswap": return .simSwap(every: try number(default: 10))
    default: throw SMSCaseSpecError.unknownCase(item: item, name: name)
    }
  }
}

/// Why a `--sms-cases` spec was refused; every case names the offending item.
public enum SMSCaseSpecError: Error, Equatable, CustomStringConvertible {
  /// An item without `=`.
  case badItem(String)
  /// The part before `=` is neither a device number in range nor `*`.
  case badIndex(item: String, deviceCount: Int)
  /// The case name is unknown.
  case unknownCase(item: String, name: String)
  /// The argument is not a positive number, or the case takes none.
  case badArgument(item: String, argument: String)
  /// `clock`'s minutes are not a whole number other than 0 within ten years either way.
  case badClock(item: String, argument: String)

  /// The message in `language`.
  public func localizedMessage(_ language: AppLanguage) -> String {
    let catalogue = SimAdminSimulatorStrings.catalogue
    switch self {
    case .badItem(let item):
      return catalogue.text("smsCases.badItem", language, ["item": item])
    case .badIndex(let item, let count):
      return catalogue.text("smsCases.badIndex", language, ["item": item, "count": String(count)])
    case .unknownCase(let item, let name):
      return catalogue.text("smsCases.unknownCase", language, ["item": item, "name": name])
    case .badArgument(let item, let argument):
      return catalogue.text(
        "smsCases.badArgument", language, ["item": item, "argument": argument])
    case .badClock(let item, let argument):
      return catalogue.text("smsCases.badClock", language, ["item": item, "argument": argument])
    }
  }

  /// The English message.
  public var description: String { localizedMessage(.english) }
}

extension SMSCaseSpecError: LocalizedFailure {}
