import CommandLineKit
import Essentials
import Testing

@Suite struct ParserTests {
  @Test func optionWithEqualsAndWithSpaceGiveTheSameValue() throws {
    let spaced = try SampleTree.parse("fleet add --name Office --url http://a")
    let joined = try SampleTree.parse("fleet add --name=Office --url=http://a")
    #expect(spaced.path == ["fleet", "add"])
    #expect(joined.path == ["fleet", "add"])
    #expect(try spaced.string("name") == "Office")
    #expect(try joined.string("name") == "Office")
    #expect(try joined.string("url") == "http://a")
  }

  @Test func equalsValueMayContainEqualsAndBeEmpty() throws {
    let parsed = try SampleTree.parse(["fleet", "add", "--name=a=b", "--url=", "--tag="])
    #expect(try parsed.string("name") == "a=b")
    #expect(try parsed.string("url") == "")
    #expect(parsed.strings("tag") == [""])
  }

  @Test func shortOptionTakesNextWordOrAttachedValue() throws {
    let spaced = try SampleTree.parse("fleet add --name N -u http://x")
    let attached = try SampleTree.parse("fleet add --name N -uhttp://x")
    #expect(try spaced.string("url") == "http://x")
    #expect(try attached.string("url") == "http://x")
  }

  @Test func groupedShortFlagsEndingInAnOption() throws {
    let parsed = try SampleTree.parse("fleet list -vn 7")
    #expect(parsed.flag("verbose"))
    #expect(try parsed.int("limit") == 7)
  }

  @Test func repeatedOptionsKeepEveryValueInOrder() throws {
    let parsed = try SampleTree.parse("fleet add --tag b --name N --tag=a --url U --tag c")
    #expect(parsed.strings("tag") == ["b", "a", "c"])
    #expect(parsed.strings("missing") == [])
  }

  @Test func flagsAreSetOnlyWhenGiven() throws {
    let with = try SampleTree.parse("fleet add --name N --url U --password-stdin")
    let without = try SampleTree.parse("fleet add --name N --url U")
    #expect(with.flag("password-stdin"))
    #expect(!without.flag("password-stdin"))
  }

  @Test func terminatorMakesEverythingAfterItPositional() throws {
    let parsed = try SampleTree.parse(["fleet", "rm", "a", "--", "--json", "-v", "--"])
    #expect(parsed.argumentList("REF") == ["a", "--json", "-v", "--"])
    #expect(!parsed.flag("json"))
    #expect(!parsed.flag("verbose"))
  }

  @Test func terminatorHidesHelpFromTheParser() throws {
    let parsed = try SampleTree.parse(["fleet", "show", "--", "--help"])
    #expect(!parsed.isHelpRequested)
    #expect(try parsed.argument("REF") == "--help")
  }

  @Test func optionValueMayNotBeTheTerminator() {
    let error = SampleTree.error("fleet add --url U --name --")
    #expect(error?.kind == .missingValue)
  }

  @Test func negativeNumbersAndDashAreValues() throws {
    let parsed = try SampleTree.parse(["fleet", "rm", "-5", "-"])
    #expect(parsed.argumentList("REF") == ["-5", "-"])
    let limit = try SampleTree.parse(["fleet", "list", "--limit", "-3"])
    #expect(try limit.int("limit") == -3)
  }

  @Test(arguments: [
    "--json fleet list", "fleet --json list", "fleet list --json", "fleet ls --json",
  ])
  func globalFlagsAnywhere(line: String) throws {
    let parsed = try SampleTree.parse(line)
    #expect(parsed.path == ["fleet", "list"])
    #expect(parsed.flag("json"))
  }

  @Test func globalOptionWithValueAfterSubcommands() throws {
    let parsed = try SampleTree.parse("fleet show office --home /tmp/x --lang zh-Hans")
    #expect(parsed.path == ["fleet", "show"])
    #expect(parsed.optionalString("home") == "/tmp/x")
    #expect(parsed.optionalString("lang") == "zh-Hans")
    #expect(try parsed.argument("REF") == "office")
  }

  @Test func aliasesResolveToCanonicalNames() throws {
    #expect(try SampleTree.parse("fleet ls").path == ["fleet", "list"])
    #expect(try SampleTree.parse("fleet rm a b").path == ["fleet", "remove"])
    #expect(try SampleTree.parse("fleet rm a b").argumentList("REF") == ["a", "b"])
  }

  @Test func defaultsFillOptionsNotGiven() throws {
    let parsed = try SampleTree.parse("fleet list")
    #expect(try parsed.int("limit") == 50)
    #expect(parsed.explicitOptions.isEmpty)
    #expect(parsed.optionalString("status") == nil)
    let given = try SampleTree.parse("fleet list --limit 5")
    #expect(try given.int("limit") == 5)
    #expect(given.explicitOptions == ["limit"])
  }

  @Test func defaultSubcommandRunsWhenNoneIsNamed() throws {
    #expect(try SampleTree.parse("messages").path == ["messages", "list"])
    #expect(try SampleTree.parse("messages --json").path == ["messages", "list"])
    let export = try SampleTree.parse("messages export out.csv --format jsonl")
    #expect(export.path == ["messages", "export"])
    #expect(export.optionalArgument("FILE") == "out.csv")
    #expect(try export.string("format") == "jsonl")
  }

  @Test func allowedValuesAreAccepted() throws {
    let parsed = try SampleTree.parse("fleet list --status offline")
    #expect(parsed.optionalString("status") == "offline")
  }

  @Test func commandWithSubcommandsButNoDefaultNeedsOne() throws {
    let fleet = try SampleTree.parse("fleet")
    #expect(fleet.path == ["fleet"])
    #expect(fleet.needsSubcommand)
    #expect(!fleet.isHelpRequested)
    let root = try SampleTree.parse(["--version"])
    #expect(root.path == [])
    #expect(root.flag("version"))
    #expect(root.needsSubcommand)
    #expect(!(try SampleTree.parse("fleet list").needsSubcommand))
  }

  @Test(arguments: [
    ("--help", [String]()), ("-h", []), ("fleet --help", ["fleet"]),
    ("fleet add --help", ["fleet", "add"]), ("fleet add -h --name", ["fleet", "add"]),
    ("--json fleet ls --bogus -h", ["fleet", "list"]),
    ("fleet --home /x add --help", ["fleet", "add"]),
    ("fleet nope --help", ["fleet"]), ("fleet show -h ignored-extra words", ["fleet", "show"]),
  ])
  func helpAnywhereReportsThePathInsteadOfFailing(line: String, path: [String]) throws {
    let parsed = try SampleTree.parse(line)
    #expect(parsed.isHelpRequested)
    #expect(parsed.path == path)
  }

  @Test func hiddenCommandsStillParse() throws {
    #expect(try SampleTree.parse("secret").path == ["secret"])
  }

  @Test func positionalsFillOptionalArgumentsOnlyWhenGiven() throws {
    let parsed = try SampleTree.parse("messages export")
    #expect(parsed.optionalArgument("FILE") == nil)
    #expect(parsed.arguments.isEmpty)
  }

  @Test func requiredBeforeOptionalArgumentsGetValuesFirst() throws {
    let root = CommandSpec(
      "p", abstract: SampleTree.text("root"),
      arguments: [
        ArgumentSpec("A", help: SampleTree.text("arg.ref"), optional: true),
        ArgumentSpec("B", help: SampleTree.text("arg.ref")),
        ArgumentSpec("C", help: SampleTree.text("arg.ref"), optional: true, repeating: true),
      ])
    let one = try CommandParser().parse(["x"], root: root, globalOptions: [])
    #expect(one.arguments == ["B": ["x"]])
    let four = try CommandParser().parse(["w", "x", "y", "z"], root: root, globalOptions: [])
    #expect(four.arguments == ["A": ["w"], "B": ["x"], "C": ["y", "z"]])
  }
}

@Suite struct HelpRequestTests {
  @Test func helpKeepsGlobalOptionsSoTheLanguageCanBeChosen() throws {
    let parsed = try SampleTree.parse("--lang zh-Hans fleet --json add --name x -h")
    #expect(parsed.isHelpRequested)
    #expect(parsed.path == ["fleet", "add"])
    #expect(parsed.optionalString("lang") == "zh-Hans")
    #expect(parsed.optionalString("name") == "x")
    #expect(parsed.flag("json"))
  }

  @Test func helpSkipsOptionValuesThatLookLikeCommands() throws {
    let parsed = try SampleTree.parse("--home fleet --help")
    #expect(parsed.path == [])
    #expect(parsed.optionalString("home") == "fleet")
    let inline = try SampleTree.parse("--lang=en fleet show --help")
    #expect(inline.path == ["fleet", "show"])
    #expect(inline.optionalString("lang") == "en")
  }
}
