import CommandLineKit
import Essentials
import Foundation
import FuzzDriver

/// Lengths of time and points in time as every `--since`, `--until`, `--wait`, `--interval`
/// and `--expires-in` reads them (issue 35 point 8: `--since 999999999999999d` crashed with
/// SIGILL where the date became milliseconds). The input is one value: `TimeArgument` must
/// answer without trapping; a length it accepts is 0…100 years; a point in time it accepts
/// fits the stores' 64-bit milliseconds, also a century away from now; and the parser, given
/// the same value for an option of each kind, accepts exactly what `TimeArgument` accepts and
/// words every refusal in both languages.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDurations(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  guard let start else { return 0 }
  let value = String(
    decoding: UnsafeRawBufferPointer(UnsafeBufferPointer(start: start, count: count)),
    as: UTF8.self)
  let length = TimeArgument.duration(value)
  if case .success(let seconds) = length {
    precondition(seconds >= 0 && seconds <= TimeArgument.longest, "length out of bounds")
    // As a wait in nanoseconds (`Task.sleep`): traps if it does not fit.
    _ = UInt64(seconds * 1_000_000_000)
  }
  for now in [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 4_102_444_800)] {
    for endOfDay in [false, true] {
      if case .success(let date) = TimeArgument.pointInTime(value, now: now, endOfDay: endOfDay) {
        // What the stores do with a date (`Date.sqliteValue`): it must fit.
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        precondition(milliseconds.isFinite && abs(milliseconds) < 9.2e18, "date out of bounds")
        _ = Int64(milliseconds)
      }
    }
  }
  for (option, expected) in [
    ("wait", length.map { _ in () }),
    ("since", TimeArgument.pointInTime(value, now: Date(timeIntervalSince1970: 0)).map { _ in () }),
  ] {
    do {
      let parsed = try CommandParser().parse(
        ["run", "--\(option)=\(value)"], root: root, globalOptions: [])
      precondition((try? expected.get()) != nil, "the parser accepted what TimeArgument refuses")
      precondition(parsed.optionalString(option) == value)
    } catch {
      if case .success = expected, error.kind == .invalidValue {
        preconditionFailure("the parser refused what TimeArgument accepts")
      }
      for language in AppLanguage.allCases {
        let message = error.message(language)
        precondition(!message.contains("{value}") && !message.contains("{name}"))
        _ = HelpFormatter.errorReport(error, root: root, language: language)
      }
    }
  }
  return 0
}

private let catalogue = StringCatalogue(
  entries: ["x": ["en": "Help.", "zh-Hans": "帮助。"]], origin: "fuzz")
private let help = LocalizedString("x", in: catalogue)

private let root = CommandSpec(
  "msa", abstract: help,
  subcommands: [
    CommandSpec(
      "run", abstract: help,
      options: [
        .option("wait", valueName: "DURATION", help: help).takingDuration(),
        .option("since", valueName: "TIME", help: help).takingTime(),
      ])
  ])

@_cdecl("FuzzDurations_main")
func fuzzDurationsMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  msa_fuzz_run(argc, argv, fuzzDurations)
}
