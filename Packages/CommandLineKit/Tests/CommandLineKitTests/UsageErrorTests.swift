import CommandLineKit
import Essentials
import Testing

@Suite struct UsageErrorTests {
  @Test func unknownOptionSuggestsTheClosestName() throws {
    let error = try #require(SampleTree.error("fleet add --nmae N --url U"))
    #expect(error.kind == .unknownOption)
    #expect(error.path == ["fleet", "add"])
    #expect(error.suggestion == "--name")
    #expect(error.message(.english) == "Unknown option '--nmae'. Did you mean '--name'?")
    #expect(error.message(.simplifiedChinese) == "未知选项 '--nmae'。您是不是要输入 '--name'？")
  }

  @Test func unknownOptionSuggestsGlobalOptionsAndPrefixes() throws {
    let typo = try #require(SampleTree.error("fleet list --jsn"))
    #expect(typo.suggestion == "--json")
    let prefix = try #require(SampleTree.error("fleet add --password"))
    #expect(prefix.suggestion == "--password-stdin")
  }

  @Test func unknownOptionWithNothingCloseHasNoSuggestion() throws {
    let error = try #require(SampleTree.error("fleet list --zzzzzz"))
    #expect(error.kind == .unknownOption)
    #expect(error.suggestion == nil)
    #expect(error.message(.english) == "Unknown option '--zzzzzz'.")
  }

  @Test func unknownShortOption() throws {
    let error = try #require(SampleTree.error("fleet list -q"))
    #expect(error.kind == .unknownOption)
    #expect(error.message(.english) == "Unknown option '-q'.")
  }

  @Test(arguments: [("lst", "list"), ("ad", "add"), ("lsit", "list"), ("sh", "show")])
  func unknownSubcommandSuggests(typed: String, expected: String) throws {
    let error = try #require(SampleTree.error("fleet \(typed)"))
    #expect(error.kind == .unknownSubcommand)
    #expect(error.path == ["fleet"])
    #expect(error.suggestion == expected)
  }

  @Test func unknownSubcommandMessages() throws {
    let error = try #require(SampleTree.error("flet list"))
    #expect(error.path == [])
    #expect(error.message(.english) == "Unknown subcommand 'flet'. Did you mean 'fleet'?")
    #expect(error.message(.simplifiedChinese) == "未知子命令 'flet'。您是不是要输入 'fleet'？")
  }

  @Test func hiddenCommandsAreNeverSuggested() throws {
    let error = try #require(SampleTree.error("secrt"))
    #expect(error.kind == .unknownSubcommand)
    #expect(error.suggestion == nil)
  }

  @Test func missingValue() throws {
    let error = try #require(SampleTree.error("fleet add --url U --name"))
    #expect(error.kind == .missingValue)
    #expect(error.message(.english) == "Missing value for '--name <NAME>'.")
    #expect(error.message(.simplifiedChinese) == "'--name <NAME>' 缺少值。")
    let beforeOption = try #require(SampleTree.error("fleet add --name --url U"))
    #expect(beforeOption.kind == .missingValue)
    let short = try #require(SampleTree.error("fleet add --name N -u"))
    #expect(short.message(.english) == "Missing value for '--url <URL>'.")
  }

  @Test func unexpectedValueForAFlag() throws {
    let error = try #require(SampleTree.error("fleet list --json=yes"))
    #expect(error.kind == .unexpectedValue)
    #expect(error.message(.english) == "The flag '--json' does not take a value.")
  }

  @Test func missingArgument() throws {
    let error = try #require(SampleTree.error("fleet show"))
    #expect(error.kind == .missingArgument)
    #expect(error.message(.english) == "Missing expected argument '<ref>'.")
    #expect(error.message(.simplifiedChinese) == "缺少必需的参数 '<ref>'。")
    let repeating = try #require(SampleTree.error("fleet rm"))
    #expect(repeating.kind == .missingArgument)
  }

  @Test func unexpectedArgument() throws {
    let error = try #require(SampleTree.error("fleet show a b"))
    #expect(error.kind == .unexpectedArgument)
    #expect(error.value == "b")
    #expect(error.message(.english) == "Unexpected argument 'b'.")
    #expect(error.message(.simplifiedChinese) == "多余的参数 'b'。")
    let afterTerminator = try #require(SampleTree.error("fleet -- list"))
    #expect(afterTerminator.kind == .unexpectedArgument)
  }

  @Test func invalidValueNotAllowedSuggestsAndLists() throws {
    let error = try #require(SampleTree.error("fleet list --status ofline"))
    #expect(error.kind == .invalidValue)
    #expect(error.problem == .notAllowed(allowed: ["online", "offline", "unknown"]))
    #expect(
      error.message(.english)
        == "The value 'ofline' is invalid for '--status <STATUS>': use one of online, offline, "
        + "unknown. Did you mean 'offline'?")
    #expect(
      error.message(.simplifiedChinese)
        == "'--status <STATUS>' 的值 'ofline' 无效：可选值为 online, offline, unknown。"
        + "您是不是要输入 'offline'？")
  }

  @Test func invalidValueOfAGlobalOption() throws {
    let error = try #require(SampleTree.error("fleet list --lang fr"))
    #expect(error.kind == .invalidValue)
    #expect(error.path == ["fleet", "list"])
    #expect(error.subject == "--lang <LANG>")
  }

  @Test func invalidIntegers() throws {
    let parsed = try SampleTree.parse("fleet list --limit ten")
    #expect(throws: UsageError.self) { try parsed.int("limit") }
    do {
      _ = try parsed.int("limit")
    } catch {
      #expect(error.problem == .notAnInteger)
      #expect(
        error.message(.english)
          == "The value 'ten' is invalid for '--limit <N>': expected a whole number.")
    }
    let big = try SampleTree.parse("fleet list --limit 5000")
    #expect(try big.int("limit") == 5000)
    do {
      _ = try big.int("limit", range: 1...1000)
      Issue.record("5000 is outside 1...1000")
    } catch {
      #expect(error.kind == .invalidValue)
      #expect(
        error.message(.english)
          == "The value '5000' is invalid for '--limit <N>': expected a whole number from 1 to 1000."
      )
      #expect(error.message(.simplifiedChinese).contains("1 到 1000"))
    }
  }

  @Test func missingOption() throws {
    let error = try #require(SampleTree.error("fleet add --url U"))
    #expect(error.kind == .missingOption)
    #expect(error.message(.english) == "Missing required option '--name <NAME>'.")
    #expect(error.message(.simplifiedChinese) == "缺少必需的选项 '--name <NAME>'。")
  }

  @Test func accessorsThrowForMissingValues() throws {
    let parsed = try SampleTree.parse("fleet list")
    do {
      _ = try parsed.string("status")
      Issue.record("status was not given")
    } catch {
      #expect(error.kind == .missingOption)
      #expect(error.subject == "--status <STATUS>")
      #expect(error.path == ["fleet", "list"])
    }
    let show = try SampleTree.parse("fleet list")
    #expect(throws: UsageError.self) { try show.argument("REF") }
    #expect(try show.optionalInt("missing") == nil)
  }

  @Test func duplicateOption() throws {
    let error = try #require(SampleTree.error("fleet add --name a --name b --url U"))
    #expect(error.kind == .duplicateOption)
    #expect(error.message(.english) == "The option '--name <NAME>' was given more than once.")
  }

  @Test func everyKindHasMessagesInBothLanguages() {
    for kind in UsageError.Kind.allCases {
      let error = UsageError(kind, path: [], subject: "--x", value: "v")
      for language in AppLanguage.allCases {
        let message = error.message(language)
        #expect(!message.contains("error."), "\(kind) in \(language): \(message)")
        #expect(!message.contains("{"), "\(kind) in \(language): \(message)")
      }
      #expect(error.message(.english) != error.message(.simplifiedChinese))
    }
  }

  @Test func descriptionIsTheEnglishMessage() {
    let error = UsageError(.unknownOption, path: [], subject: "--x", suggestion: "--y")
    #expect(error.description == "Unknown option '--x'. Did you mean '--y'?")
  }
}
