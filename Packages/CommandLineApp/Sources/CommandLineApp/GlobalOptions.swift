import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import ThemeKit
import ViewKit

/// The options every command accepts, anywhere on the command line.
enum GlobalOptions {
  static let specs: [OptionSpec] = [
    .option("home", valueName: "DIR", help: AppStrings.string("option.home"))
      .completing(.directory),
    .flag("json", help: AppStrings.string("option.json")),
    .option(
      "color", valueName: "WHEN", help: AppStrings.string("option.color"),
      allowed: ColorChoice.allCases.map(\.rawValue)),
    .flag("no-color", help: AppStrings.string("option.no-color")),
    .flag("no-pager", help: AppStrings.string("option.no-pager")),
    FieldSelection.option,
    .option("lang", valueName: "LANG", help: AppStrings.string("option.lang")),
    .option("width", valueName: "N", help: AppStrings.string("option.width")),
    .flag("verbose", short: "v", help: AppStrings.string("option.verbose")),
    .flag("version", help: AppStrings.string("option.version")),
    .flag("help", short: "h", help: AppStrings.string("option.help")),
  ]

  /// The language: `--lang`, else the environment's locale.
  static func language(_ parsed: ParsedCommand, _ environment: [String: String]) throws(UsageError)
    -> AppLanguage
  {
    guard let flag = parsed.optionalString("lang") else {
      return .fromEnvironment(environment)
    }
    guard let language = AppLanguage(flag: flag) else {
      throw UsageError(
        .invalidValue, path: parsed.path, subject: "--lang <LANG>", value: flag,
        problem: .notAllowed(allowed: AppLanguage.allCases.map(\.rawValue)))
    }
    return language
  }

  /// Output settings from the flags, the environment and the terminal.
  static func output(_ parsed: ParsedCommand, _ context: ProcessContext) throws(UsageError)
    -> OutputSettings
  {
    let columns = context.environment["COLUMNS"].flatMap(Int.init)
    let width =
      try parsed.optionalInt("width", range: 20...1000) ?? context.terminalWidth ?? columns ?? 80
    return OutputSettings(
      json: parsed.flag("json"),
      colorMode: ColorMode.detect(
        environment: context.environment, isTerminal: context.outputIsTerminal,
        choice: parsed.flag("no-color")
          ? .never : parsed.optionalString("color").flatMap(ColorChoice.init) ?? .auto),
      width: width,
      verbose: parsed.flag("verbose"),
      isTerminal: context.outputIsTerminal)
  }
}
