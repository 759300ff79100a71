import CommandLineKit
import Essentials

/// A small command tree shaped like msa's, with its own two-language catalogue.
enum SampleTree {
  static let catalogue = StringCatalogue(
    entries: [
      "root": [
        "en": "One console for a fleet of SimAdmin devices.", "zh-Hans": "一个控制台管理所有 SimAdmin 设备。",
      ],
      "routes": ["en": "List every route.", "zh-Hans": "列出所有路由。"],
      "secret": ["en": "Hidden.", "zh-Hans": "隐藏。"],
      "group.fleet": ["en": "Fleet", "zh-Hans": "节点"],
      "group.messages": ["en": "Messages", "zh-Hans": "消息"],
      "fleet": ["en": "Manage instances.", "zh-Hans": "管理实例。"],
      "fleet.list": ["en": "List instances.", "zh-Hans": "列出实例。"],
      "fleet.add": ["en": "Add an instance.", "zh-Hans": "添加实例。"],
      "fleet.add.discussion": [
        "en":
          "Registers a device by the address of its SimAdmin service. The password is read from standard input.",
        "zh-Hans": "按 SimAdmin 服务地址登记设备。密码从标准输入读取。",
      ],
      "fleet.show": ["en": "Show one instance.", "zh-Hans": "显示一个实例。"],
      "fleet.remove": ["en": "Remove instances.", "zh-Hans": "删除实例。"],
      "messages": ["en": "Read and send SMS.", "zh-Hans": "收发短信。"],
      "messages.list": ["en": "List messages.", "zh-Hans": "列出短信。"],
      "messages.export": ["en": "Export the archive.", "zh-Hans": "导出存档。"],
      "arg.ref": ["en": "Instance name or id prefix.", "zh-Hans": "实例名称或 ID 前缀。"],
      "opt.name": ["en": "Display name, 1–200 characters.", "zh-Hans": "显示名称，1–200 个字符。"],
      "opt.url": [
        "en": "SimAdmin address, e.g. http://192.168.1.1:3000.",
        "zh-Hans": "SimAdmin 地址，例如 http://192.168.1.1:3000。",
      ],
      "opt.tag": ["en": "A tag; repeat for several.", "zh-Hans": "标签；可重复。"],
      "opt.password-stdin": [
        "en": "Read the password from standard input.", "zh-Hans": "从标准输入读取密码。",
      ],
      "opt.status": ["en": "Only instances with this status.", "zh-Hans": "只列出该状态的实例。"],
      "opt.limit": ["en": "At most this many rows.", "zh-Hans": "最多显示的行数。"],
      "opt.format": ["en": "File format.", "zh-Hans": "文件格式。"],
      "opt.json": ["en": "Print JSON.", "zh-Hans": "输出 JSON。"],
      "opt.home": ["en": "Data directory.", "zh-Hans": "数据目录。"],
      "opt.lang": ["en": "Language.", "zh-Hans": "语言。"],
      "opt.verbose": ["en": "Log to standard error.", "zh-Hans": "将日志写到标准错误。"],
      "opt.version": ["en": "Show the version.", "zh-Hans": "显示版本。"],
      "opt.help": ["en": "Show help information.", "zh-Hans": "显示帮助信息。"],
    ], origin: "SampleTree")

  static func text(_ key: String) -> LocalizedString {
    LocalizedString(key, in: catalogue)
  }

  static let globalOptions: [OptionSpec] = [
    .flag("json", help: text("opt.json")),
    .option("home", valueName: "DIR", help: text("opt.home")),
    .option("lang", valueName: "LANG", help: text("opt.lang"), allowed: ["en", "zh-Hans"]),
    .flag("verbose", short: "v", help: text("opt.verbose")),
    .flag("version", help: text("opt.version")),
    .flag("help", short: "h", help: text("opt.help")),
  ]

  static let fleet = CommandSpec(
    "fleet", abstract: text("fleet"),
    subcommands: [
      CommandSpec(
        "list", aliases: ["ls"], abstract: text("fleet.list"),
        options: [
          .option(
            "status", valueName: "STATUS", help: text("opt.status"),
            allowed: ["online", "offline", "unknown"]),
          .option("limit", short: "n", valueName: "N", help: text("opt.limit"), default: "50"),
        ]),
      CommandSpec(
        "add", abstract: text("fleet.add"), discussion: text("fleet.add.discussion"),
        options: [
          .option("name", valueName: "NAME", help: text("opt.name"), required: true),
          .option("url", short: "u", valueName: "URL", help: text("opt.url"), required: true),
          .option("tag", valueName: "TAG", help: text("opt.tag"), repeating: true),
          .flag("password-stdin", help: text("opt.password-stdin")),
        ]),
      CommandSpec(
        "show", abstract: text("fleet.show"),
        arguments: [ArgumentSpec("REF", help: text("arg.ref"))]),
      CommandSpec(
        "remove", aliases: ["rm"], abstract: text("fleet.remove"),
        arguments: [ArgumentSpec("REF", help: text("arg.ref"), repeating: true)]),
    ], group: text("group.fleet"))

  static let messages = CommandSpec(
    "messages", abstract: text("messages"),
    subcommands: [
      CommandSpec("list", abstract: text("messages.list")),
      CommandSpec(
        "export", abstract: text("messages.export"),
        arguments: [ArgumentSpec("FILE", help: text("arg.ref"), optional: true)],
        options: [
          .option(
            "format", valueName: "FORMAT", help: text("opt.format"), default: "csv",
            allowed: ["csv", "jsonl"])
        ]),
    ], defaultSubcommand: "list", group: text("group.messages"))

  static let root = CommandSpec(
    "msa", abstract: text("root"),
    subcommands: [
      CommandSpec("routes", abstract: text("routes")),
      CommandSpec("secret", abstract: text("secret"), isHidden: true),
      fleet,
      messages,
    ])

  static func parse(_ line: String) throws(UsageError) -> ParsedCommand {
    try parse(line.split(separator: " ").map(String.init))
  }

  static func parse(_ words: [String]) throws(UsageError) -> ParsedCommand {
    try CommandParser().parse(words, root: root, globalOptions: globalOptions)
  }

  /// The error `line` fails with; fails the test when it parses.
  static func error(_ line: String) -> UsageError? {
    do {
      _ = try parse(line)
      return nil
    } catch {
      return error
    }
  }
}
