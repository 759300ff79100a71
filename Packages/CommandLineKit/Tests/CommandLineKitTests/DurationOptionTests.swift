import CommandLineKit
import Essentials
import Testing

/// Issue 35 point 8: lengths of time and points in time are checked while parsing, so every
/// command refuses a bad one the same way — a usage error naming the option — before it runs
/// (a length too large for a date crashed the commands that turned it into milliseconds).
@Suite struct DurationOptionTests {
  static let root = CommandSpec(
    "msa", abstract: SampleTree.text("root"),
    subcommands: [
      CommandSpec(
        "wait", abstract: SampleTree.text("routes"),
        options: [
          .option("wait", valueName: "DURATION", help: SampleTree.text("opt.name"))
            .takingDuration(),
          .option("since", valueName: "TIME", help: SampleTree.text("opt.name")).takingTime(),
          .option("text", valueName: "T", help: SampleTree.text("opt.name")),
          .flag("all", short: "a", help: SampleTree.text("opt.name")),
        ])
    ])

  static func parse(_ words: [String]) throws(UsageError) -> ParsedCommand {
    try CommandParser().parse(["wait"] + words, root: root, globalOptions: [])
  }

  static func refusal(_ words: [String]) -> UsageError? {
    do {
      _ = try parse(words)
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: ["90", "90s", "30m", "12h", "7d", "2w", "1.5h", "36525d", "0"])
  func lengthsAreAccepted(value: String) throws {
    #expect(try Self.parse(["--wait", value]).string("wait") == value)
    #expect(try Self.parse(["--wait=\(value)"]).string("wait") == value)
  }

  @Test(arguments: [
    "7d", "12h", "2026-01-31", "2026-01-31T08:00:00Z", "2026-01-31T08:00:00.5+08:00",
  ])
  func timesAreAccepted(value: String) throws {
    #expect(try Self.parse(["--since", value]).string("since") == value)
  }

  @Test(arguments: [
    (["--wait", "999999999999999d"], UsageError.ValueProblem.duration(.tooLong)),
    (["--wait", "36526d"], .duration(.tooLong)),
    (["--wait", "-5m"], .duration(.negative)),
    (["--wait=-5m"], .duration(.negative)),
    (["--wait", "5 minutes"], .duration(.malformed)),
    (["--wait", "1e9d"], .duration(.malformed)),
    (["--since", "999999999999999d"], .time(.tooLong)),
    (["--since", "-5d"], .time(.negative)),
    (["--since", "2026-02-30"], .time(.malformed)),
    (["--since", "yesterday"], .time(.malformed)),
  ])
  func badValuesAreUsageErrorsNamingTheOption(words: [String], problem: UsageError.ValueProblem) {
    let error = Self.refusal(words)
    #expect(error?.kind == .invalidValue)
    #expect(error?.problem == problem)
    let option = words[0].split(separator: "=")[0]
    let value = words.count > 1 ? words[1] : String(words[0].split(separator: "=")[1])
    for language in [AppLanguage.english, .simplifiedChinese] {
      let message = error?.message(language) ?? ""
      #expect(message.contains(String(option)), "\(message)")
      #expect(message.contains(value), "\(message)")
      #expect(!message.contains("{"), "every placeholder filled: \(message)")
    }
  }

  @Test func eachProblemSaysWhatToWrite() {
    let negative = Self.refusal(["--since", "-5d"])?.message(.english) ?? ""
    #expect(negative.contains("positive"))
    #expect(negative.contains("write 5d"))
    let long = Self.refusal(["--wait", "999999999999999d"])?.message(.english) ?? ""
    #expect(long.contains("at most 36525d (100 years)"))
    let malformed = Self.refusal(["--wait", "soon"])?.message(.english) ?? ""
    #expect(malformed.contains("90s, 30m, 12h, 7d or 2w"))
  }

  /// `-5d` after an option is its value (refused above with its reason), not an unknown
  /// option or a missing value; a word of a dash and a digit is a value anywhere, as a
  /// negative number already was.
  @Test func aDashAndADigitIsAValue() throws {
    #expect(try Self.parse(["--text", "-5d"]).string("text") == "-5d")
    #expect(try Self.parse(["--text", "-1"]).string("text") == "-1")
    #expect(Self.refusal(["--since", "-5d"])?.kind == .invalidValue)
    #expect(Self.refusal(["--text", "-a"])?.kind == .missingValue, "a letter is still an option")
    #expect(try Self.parse(["-a"]).flag("all"))
  }
}
