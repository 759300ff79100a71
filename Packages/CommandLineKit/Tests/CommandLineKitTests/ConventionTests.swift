import CommandLineKit
import Essentials
import Testing

/// `msa help …`, "did you mean" where a default subcommand would take the word, examples,
/// the environment section and options whose value may be left out.
@Suite struct ConventionTests {
  static let tree: CommandSpec = {
    var root = SampleTree.root
    root.subcommands = root.subcommands.map { command in
      var command = command
      if command.name == "fleet" {
        command.defaultSubcommand = "list"
        command.examples = [
          "msa fleet list --status offline", "msa fleet add --name Office --url U",
        ]
      }
      return command
    }
    root.subcommands.append(
      CommandSpec(
        "logs", abstract: SampleTree.text("routes"),
        subcommands: [
          CommandSpec("show", abstract: SampleTree.text("routes")),
          CommandSpec(
            "search", abstract: SampleTree.text("routes"),
            arguments: [ArgumentSpec("TEXT", help: SampleTree.text("arg.ref"), optional: true)],
            options: [
              OptionSpec(
                name: "fields", valueName: "LIST", help: SampleTree.text("opt.json"),
                isValueOptional: true)
            ]),
        ], defaultSubcommand: "search"))
    return root
  }()

  static func parse(_ line: String) throws(UsageError) -> ParsedCommand {
    try CommandParser().parse(
      line.split(separator: " ").map(String.init), root: tree,
      globalOptions: SampleTree.globalOptions)
  }

  static func error(_ line: String) -> UsageError? {
    do {
      _ = try parse(line)
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: [("fleet lst", "list"), ("fleet ad", "add"), ("fleet shwo", "show")])
  func aWordForADefaultSubcommandWithoutArgumentsIsAMistypedSubcommand(
    line: String, suggestion: String
  ) throws {
    let error = try #require(Self.error(line))
    #expect(error.kind == .unknownSubcommand)
    #expect(error.path == ["fleet"])
    #expect(error.suggestion == suggestion)
    let report = HelpFormatter.errorReport(error, root: Self.tree, language: .english)
    #expect(report.hasPrefix("Error: Unknown subcommand '\(line.split(separator: " ")[1])'."))
    #expect(report.contains("Did you mean '\(suggestion)'?"))
  }

  @Test func aWordFarFromEveryNameIsStillAnUnknownSubcommand() throws {
    let error = try #require(Self.error("fleet zzzzzz"))
    #expect(error.kind == .unknownSubcommand)
    #expect(error.suggestion == nil)
  }

  @Test func aNearMissIsRefusedEvenWhenTheDefaultTakesAnArgument() throws {
    let error = try #require(Self.error("logs shwo"))
    #expect(error.kind == .unknownSubcommand)
    #expect(error.suggestion == "show")
    // Anything else, and anything after `--`, goes to the default subcommand.
    let other = try Self.parse("logs modem")
    #expect(other.path == ["logs", "search"])
    #expect(other.optionalArgument("TEXT") == "modem")
    let forced = try Self.parse("logs -- shwo")
    #expect(forced.optionalArgument("TEXT") == "shwo")
  }

  @Test func helpPathsResolveAliasesAndSuggestNames() throws {
    #expect(try Self.tree.resolvedPath(["fleet", "rm"]) == ["fleet", "remove"])
    #expect(try Self.tree.resolvedPath([]) == [])
    #expect(throws: UsageError.self) { try Self.tree.resolvedPath(["flet"]) }
    do {
      _ = try Self.tree.resolvedPath(["fleet", "lst"])
    } catch {
      #expect(error.kind == .unknownSubcommand)
      #expect(error.path == ["fleet"])
      #expect(error.suggestion == "list")
    }
  }

  @Test func helpEndsWithTheCommandsExamples() {
    let help = HelpFormatter.help(
      for: ["fleet"], root: Self.tree, globalOptions: SampleTree.globalOptions,
      language: .english)
    let lines = help.components(separatedBy: "\n")
    #expect(
      Array(lines.suffix(3)) == [
        "EXAMPLES:", "  msa fleet list --status offline", "  msa fleet add --name Office --url U",
      ])
    let chinese = HelpFormatter.help(
      for: ["fleet"], root: Self.tree, globalOptions: SampleTree.globalOptions,
      language: .simplifiedChinese)
    #expect(chinese.contains("示例：\n  msa fleet list --status offline"))
  }

  @Test func rootHelpListsTheEnvironment() {
    let variables = [
      EnvironmentVariable("MSA_HOME", help: SampleTree.text("opt.home")),
      EnvironmentVariable("NO_COLOR", help: SampleTree.text("opt.json")),
    ]
    let root = HelpFormatter.help(
      for: [], root: Self.tree, globalOptions: SampleTree.globalOptions, language: .english,
      environment: variables)
    #expect(root.contains("ENVIRONMENT:\n  MSA_HOME                Data directory.\n  NO_COLOR"))
    let sub = HelpFormatter.help(
      for: ["fleet"], root: Self.tree, globalOptions: SampleTree.globalOptions,
      language: .english, environment: variables)
    #expect(!sub.contains("ENVIRONMENT:"))
  }

  @Test func anOptionalValueMayBeLeftOut() throws {
    #expect(try Self.parse("logs search --fields").options["fields"] == [""])
    #expect(try Self.parse("logs search --fields --json").options["fields"] == [""])
    #expect(try Self.parse("logs search --json --fields a,b").options["fields"] == ["a,b"])
    #expect(try Self.parse("logs search --fields=a").options["fields"] == ["a"])
  }

  @Test func descendantsSkipHiddenCommandsWhenAsked() {
    let visible = Self.tree.descendants(includingHidden: false).map {
      $0.path.joined(separator: " ")
    }
    #expect(visible.contains("fleet add"))
    #expect(!visible.contains("secret"))
    #expect(Self.tree.descendants().map(\.path).contains(["secret"]))
  }
}

@Suite struct FieldSelectionOutputTests {
  struct Row: Encodable {
    let id: Int64
    let name: String
    let note: String?
    let tags: [String]
  }

  struct Payload: Encodable {
    let rows: [Row]
    let nextCursor: String?
  }

  @Test func onlyTheChosenFieldsOfEachRowStay() throws {
    let payload = Payload(
      rows: [
        Row(id: 9_007_199_254_740_993, name: "Office", note: nil, tags: ["a"]),
        Row(id: 2, name: "Shop", note: "x/y", tags: []),
      ], nextCursor: "c2")
    let rows = JSONRows(key: "rows", fields: ["id", "name", "note", "tags"])
    let text = try JSONOutput.render(
      command: "fleet list", data: payload, rows: rows, keeping: ["name", "id"])
    #expect(
      text == """
        {
          "command" : "fleet list",
          "data" : {
            "nextCursor" : "c2",
            "rows" : [
              {
                "id" : 9007199254740993,
                "name" : "Office"
              },
              {
                "id" : 2,
                "name" : "Shop"
              }
            ]
          },
          "schemaVersion" : 1
        }

        """)
  }

  @Test func theNewProblemsHaveMessagesInBothLanguages() {
    let needs = UsageError(
      .invalidValue, path: ["fleet", "list"], subject: "--fields <FIELDS>", value: "a",
      problem: .needsOption("--json"))
    #expect(needs.message(.english) == "'--fields <FIELDS>' works only together with '--json'.")
    #expect(needs.message(.simplifiedChinese) == "'--fields <FIELDS>' 只能与 '--json' 一起使用。")
    let none = UsageError(
      .invalidValue, path: ["fleet", "add"], subject: "--fields <FIELDS>", problem: .noRows)
    #expect(
      none.message(.english)
        == "'msa fleet add' lists no rows, so '--fields <FIELDS>' has nothing to choose from.")
    #expect(!none.message(.simplifiedChinese).contains("{"))
  }

  @Test func listingDeclaresTheRows() {
    let spec = CommandSpec("list", abstract: SampleTree.text("fleet.list"))
      .listing("instances", fields: ["id", "name"])
    #expect(spec.jsonRows == JSONRows(key: "instances", fields: ["id", "name"]))
  }
}
