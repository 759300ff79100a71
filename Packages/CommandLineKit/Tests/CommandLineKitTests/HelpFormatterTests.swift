import CommandLineKit
import Essentials
import Testing

@Suite struct HelpFormatterTests {
  func help(_ path: [String], _ language: AppLanguage = .english, width: Int = 80) -> String {
    HelpFormatter.help(
      for: path, root: SampleTree.root, globalOptions: SampleTree.globalOptions,
      language: language, programName: "msa", width: width)
  }

  @Test func rootHelpInEnglishGroupsSubcommandsByFeature() {
    let expected = """
      OVERVIEW: One console for a fleet of SimAdmin devices.

      USAGE: msa <subcommand>

      OPTIONS:
        --json                  Print JSON.
        --home <DIR>            Data directory.
        --lang <LANG>           Language. (values: en, zh-Hans)
        -v, --verbose           Log to standard error.
        --version               Show the version.
        -h, --help              Show help information.

      SUBCOMMANDS:
        routes                  List every route.

      FLEET SUBCOMMANDS:
        fleet                   Manage instances.

      MESSAGES SUBCOMMANDS:
        messages                Read and send SMS.

        See 'msa <subcommand> --help' for detailed help.
      """
    #expect(help([]) == expected)
  }

  @Test func rootHelpInChinese() {
    let expected = """
      概述：一个控制台管理所有 SimAdmin 设备。

      用法：msa <subcommand>

      选项：
        --json                  输出 JSON。
        --home <DIR>            数据目录。
        --lang <LANG>           语言。（可选值：en, zh-Hans）
        -v, --verbose           将日志写到标准错误。
        --version               显示版本。
        -h, --help              显示帮助信息。

      子命令：
        routes                  列出所有路由。

      节点 子命令：
        fleet                   管理实例。

      消息 子命令：
        messages                收发短信。

        运行 'msa <subcommand> --help' 查看各子命令的详细帮助。
      """
    #expect(help([], .simplifiedChinese) == expected)
  }

  @Test func leafHelpWithDiscussionAndWrappedUsage() {
    let expected = """
      OVERVIEW: Add an instance.

      Registers a device by the address of its SimAdmin service. The password is read
      from standard input.

      USAGE: msa fleet add --name <NAME> --url <URL> [--tag <TAG> ...]
             [--password-stdin]

      OPTIONS:
        --name <NAME>           Display name, 1–200 characters.
        -u, --url <URL>         SimAdmin address, e.g. http://192.168.1.1:3000.
        --tag <TAG>             A tag; repeat for several.
        --password-stdin        Read the password from standard input.
        --json                  Print JSON.
        --home <DIR>            Data directory.
        --lang <LANG>           Language. (values: en, zh-Hans)
        -v, --verbose           Log to standard error.
        -h, --help              Show help information.
      """
    #expect(help(["fleet", "add"]) == expected)
  }

  @Test func leafHelpWithArgumentsInChinese() {
    let expected = """
      概述：显示一个实例。

      用法：msa fleet show <ref>

      参数：
        <ref>                   实例名称或 ID 前缀。

      选项：
        --json                  输出 JSON。
        --home <DIR>            数据目录。
        --lang <LANG>           语言。（可选值：en, zh-Hans）
        -v, --verbose           将日志写到标准错误。
        -h, --help              显示帮助信息。
      """
    #expect(help(["fleet", "show"], .simplifiedChinese) == expected)
  }

  @Test func subcommandListShowsAliasesDefaultAndNoHiddenCommands() {
    let fleet = help(["fleet"])
    #expect(fleet.contains("\n  list, ls                List instances.\n"))
    #expect(fleet.contains("\n  remove, rm              Remove instances.\n"))
    #expect(fleet.hasSuffix("\n\n  See 'msa fleet <subcommand> --help' for detailed help."))
    let messages = help(["messages"])
    #expect(messages.contains("\n  list (default)          List messages.\n"))
    #expect(!help([]).contains("secret"))
  }

  @Test func defaultsAndAllowedValuesAreListed() {
    let export = help(["messages", "export"])
    #expect(export.contains("USAGE: msa messages export [--format <FORMAT>] [<file>]\n"))
    #expect(
      export.contains(
        "\n  --format <FORMAT>       File format. (values: csv, jsonl) (default: csv)\n"))
    #expect(
      help(["messages", "export"], .simplifiedChinese).contains(
        "\n  --format <FORMAT>       文件格式。（可选值：csv, jsonl）（默认：csv）\n"))
  }

  @Test func aliasesInThePathFindTheCommand() {
    #expect(help(["fleet", "ls"]) == help(["fleet", "list"]))
    #expect(
      help(["fleet", "ls"]).contains("USAGE: msa fleet list [--status <STATUS>] [--limit <N>]"))
  }

  @Test func versionIsListedOnlyAtTheRoot() {
    #expect(help([]).contains("--version"))
    #expect(!help(["fleet"]).contains("--version"))
  }

  @Test func longHelpWrapsUnderTheHelpColumnInBothLanguages() {
    for language in AppLanguage.allCases {
      let text = help(["fleet", "add"], language, width: 50)
      for line in text.split(separator: "\n") {
        #expect(TextWidth.columns(line) <= 50, "\(language): \(line)")
        #expect(!line.hasSuffix(" "), "\(language): trailing space in \(line)")
      }
    }
    let narrow = help(["fleet", "add"], .english, width: 50)
    #expect(
      narrow.contains(
        "\n  -u, --url <URL>         SimAdmin address, e.g.\n"
          + "                          http://192.168.1.1:3000.\n"))
    let chinese = help(["fleet", "add"], .simplifiedChinese, width: 40)
    #expect(
      chinese.contains(
        "\n  --password-stdin        从标准输入读取\n                          密码。\n"))
  }

  @Test func aLabelReachingTheHelpColumnPutsHelpOnTheNextLine() {
    let root = CommandSpec(
      "tool", abstract: SampleTree.text("root"),
      options: [
        .option("a-very-long-option", valueName: "VALUE", help: SampleTree.text("opt.json"))
      ]
    )
    let text = HelpFormatter.help(
      for: [], root: root, globalOptions: [], language: .english, programName: "tool")
    #expect(
      text.contains(
        "\n  --a-very-long-option <VALUE>\n                          Print JSON.\n"))
  }

  @Test func errorReportInEnglish() throws {
    let error = try #require(SampleTree.error("fleet add --nme x"))
    let expected = """
      Error: Unknown option '--nme'. Did you mean '--name'?
      Usage: msa fleet add --name <NAME> --url <URL> [--tag <TAG> ...] [--password-stdin]
        See 'msa fleet add --help' for more information.
      """
    #expect(HelpFormatter.errorReport(error, root: SampleTree.root, language: .english) == expected)
  }

  @Test func errorReportInChineseAtTheRoot() throws {
    let error = try #require(SampleTree.error("flet"))
    let expected = """
      错误：未知子命令 'flet'。您是不是要输入 'fleet'？
      用法：msa <subcommand>
        运行 'msa --help' 查看更多信息。
      """
    #expect(
      HelpFormatter.errorReport(error, root: SampleTree.root, language: .simplifiedChinese)
        == expected)
  }

  @Test func usageLineForAliasPath() {
    #expect(
      HelpFormatter.usage(for: ["fleet", "rm"], root: SampleTree.root)
        == "msa fleet remove <ref> ...")
  }
}

@Suite struct HiddenOptionTests {
  @Test func hiddenOptionsParseButStayOutOfHelpAndSuggestions() throws {
    let root = CommandSpec(
      "tool", abstract: SampleTree.text("root"),
      options: [
        .flag("debug-dump", help: SampleTree.text("opt.json"), hidden: true),
        .flag("dry-run", help: SampleTree.text("opt.json")),
      ])
    let parsed = try CommandParser().parse(["--debug-dump"], root: root, globalOptions: [])
    #expect(parsed.flag("debug-dump"))
    let text = HelpFormatter.help(
      for: [], root: root, globalOptions: [], language: .english, programName: "tool")
    #expect(!text.contains("debug-dump"))
    #expect(text.contains("USAGE: tool [--dry-run]"))
    do {
      _ = try CommandParser().parse(["--debug-dum"], root: root, globalOptions: [])
      Issue.record("--debug-dum is unknown")
    } catch {
      #expect(error.kind == .unknownOption)
      #expect(error.suggestion == nil)
    }
  }
}
