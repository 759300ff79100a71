import CommandLineKit
import Essentials
import Foundation
import FuzzDriver

/// The command-line parser on arbitrary words (the input split at NUL bytes) against a tree
/// shaped like msa's: global options, nested subcommands with aliases and a default, required,
/// repeating, restricted and value-optional options, short flags, optional and repeating
/// arguments. A refusal
/// must render as a report in both languages; a request for help must render the help.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLine(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  guard let start else { return 0 }
  let input = UnsafeRawBufferPointer(UnsafeBufferPointer(start: start, count: count))
  let words = input.split(separator: 0, omittingEmptySubsequences: false).map {
    String(decoding: $0, as: UTF8.self)
  }
  do {
    let parsed = try CommandParser().parse(words, root: root, globalOptions: globalOptions)
    if parsed.isHelpRequested || parsed.needsSubcommand {
      for language in AppLanguage.allCases {
        _ = HelpFormatter.help(
          for: parsed.path, root: root, globalOptions: globalOptions, language: language,
          width: 20 + count % 100)
      }
    }
  } catch {
    for language in AppLanguage.allCases {
      _ = HelpFormatter.errorReport(error, root: root, language: language)
    }
  }
  return 0
}

private let catalogue = StringCatalogue(
  entries: ["x": ["en": "Help {name}.", "zh-Hans": "帮助 {name}。"]], origin: "fuzz")
private let help = LocalizedString("x", in: catalogue, ["name": "n"])

private let globalOptions: [OptionSpec] = [
  .option("home", valueName: "DIR", help: help),
  .flag("json", help: help),
  .option("lang", valueName: "LANG", help: help, allowed: ["en", "zh-Hans"]),
  .option("width", valueName: "N", help: help),
  .flag("verbose", short: "v", help: help),
  .option("color", valueName: "WHEN", help: help, allowed: ["auto", "always", "never"]),
]

private let root = CommandSpec(
  "msa", abstract: help,
  subcommands: [
    CommandSpec(
      "fleet", abstract: help,
      subcommands: [
        CommandSpec(
          "list", aliases: ["ls"], abstract: help,
          options: [
            .option("tag", valueName: "TAG", help: help, repeating: true),
            .option("status", short: "s", valueName: "STATUS", help: help),
          ]),
        CommandSpec(
          "add", abstract: help,
          options: [
            .option("name", short: "n", valueName: "NAME", help: help, required: true),
            .option("url", valueName: "URL", help: help, required: true),
            .option("tag", valueName: "TAG", help: help, repeating: true),
            .flag("password-stdin", help: help),
          ]),
        CommandSpec(
          "remove", aliases: ["rm"], abstract: help,
          arguments: [ArgumentSpec("REF", help: help, repeating: true)],
          options: [.flag("yes", short: "y", help: help)]),
      ],
      defaultSubcommand: "list"),
    CommandSpec(
      "messages", aliases: ["sms"], abstract: help,
      subcommands: [
        CommandSpec(
          "show", abstract: help,
          arguments: [
            ArgumentSpec("ID", help: help), ArgumentSpec("MORE", help: help, optional: true),
          ],
          options: [.option("limit", valueName: "N", help: help, default: "50")]),
        CommandSpec(
          "export", abstract: help,
          options: [
            .option("output", short: "o", valueName: "PATH", help: help),
            .option("format", valueName: "FORMAT", help: help, allowed: ["csv", "jsonl"]),
            .flag("force", short: "f", help: help),
            OptionSpec(name: "fields", valueName: "LIST", help: help, isValueOptional: true),
          ],
          examples: ["msa messages export -o codes.csv --fields"]),
      ]),
    CommandSpec("ui", abstract: help, isHidden: true),
  ])

@_cdecl("FuzzCommandLine_main")
func fuzzCommandLineMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  msa_fuzz_run(argc, argv, fuzzCommandLine)
}
