import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import LocalStore

/// The commands of command-line convention: `help`, `completion`, `manual`, and the hidden
/// `__complete` the completion scripts call.
enum ConventionCommands {
  static var all: [FeatureCommand] { [help, completion, manual, complete] }

  /// `msa help [command…]`: the same text as `--help`. ``MSAApplication`` answers it before a
  /// command runs (it needs no data directory), so this declaration is for the parser, help,
  /// completion and the manual.
  static let help = FeatureCommand(
    CommandSpec(
      "help", abstract: AppStrings.string("command.help"),
      arguments: [
        ArgumentSpec(
          "COMMAND", help: AppStrings.string("argument.command"), optional: true, repeating: true
        )
        .completing(CompletionEngine.commandPath)
      ]))

  static let completion = FeatureCommand(
    CommandSpec(
      "completion", abstract: AppStrings.string("command.completion"),
      discussion: AppStrings.string("command.completion.discussion"),
      arguments: [
        ArgumentSpec("SHELL", help: AppStrings.string("argument.shell"))
          .suggesting(CompletionScript.Shell.allCases.map(\.rawValue))
      ]
    ).withoutJSON()
  ) { invocation in
    let parsed = invocation.parsed
    let name = try parsed.argument("SHELL")
    guard let shell = CompletionScript.Shell(rawValue: name) else {
      let shells = CompletionScript.Shell.allCases.map(\.rawValue)
      throw UsageError(
        .invalidValue, path: parsed.path, subject: "<shell>", value: name,
        problem: .notAllowed(allowed: shells))
    }
    invocation.environment.streams.writeOutput(
      CompletionScript.script(for: shell, programName: MSAApplication.programName))
    return .written()
  }

  static let manual = FeatureCommand(
    CommandSpec("manual", abstract: AppStrings.string("command.manual")).withoutJSON()
  ) { invocation in
    let environment = invocation.environment
    let application = try environment.services.resolve(MSAApplication.self)
    environment.streams.writeOutput(application.manual(language: environment.language))
    return .written()
  }

  /// `msa __complete -- <words> <current>`; answered by ``MSAApplication`` before parsing.
  static let complete = FeatureCommand(
    CommandSpec(
      CompletionScript.entryName, abstract: AppStrings.string("command.complete"),
      arguments: [
        ArgumentSpec(
          "WORDS", help: AppStrings.string("argument.command"), optional: true, repeating: true)
      ], isHidden: true))

  /// The variables help's ENVIRONMENT section and the manual list.
  static let environmentVariables: [EnvironmentVariable] = [
    "MSA_HOME", "LANG", "MSA_PAGER", "PAGER", "NO_COLOR", "CLICOLOR_FORCE", "TERM", "COLORTERM",
    "COLUMNS",
  ].map { EnvironmentVariable($0, help: AppStrings.string("env.\($0)")) }

  /// Instance names and ids, group names and tags, read from the registry without opening a
  /// store (nothing is created or migrated).
  static let completers: [ValueCompleter] = [
    ValueCompleter(.instance) { directory, prefix in
      let instances = RegistryNames.instances(in: directory)
      var candidates = instances.map { CompletionCandidate($0.name, description: $0.origin) }
      let lowered = prefix.lowercased()
      if !lowered.isEmpty {
        candidates += instances.filter { $0.id.hasPrefix(lowered) }.map {
          CompletionCandidate($0.id, description: $0.name)
        }
      }
      return candidates
    },
    ValueCompleter(.group) { directory, _ in
      RegistryNames.groups(in: directory).map { CompletionCandidate($0) }
    },
    ValueCompleter(.tag) { directory, _ in
      RegistryNames.tags(in: directory).map { CompletionCandidate($0) }
    },
  ]
}

extension MSAApplication {
  /// The manual page in `language`, generated from the command tree.
  func manual(language: AppLanguage) -> String {
    ManualFormatter.manual(
      root: commandTree, globalOptions: GlobalOptions.specs, language: language,
      programName: Self.programName, version: AppInfo.version,
      environment: ConventionCommands.environmentVariables,
      sections: [
        ManualSection(
          title: AppStrings.string("manual.files.title"), body: AppStrings.string("manual.files")),
        ManualSection(
          title: AppStrings.string("manual.seeAlso.title"),
          body: AppStrings.string("manual.seeAlso")),
      ])
  }

  /// Answers `msa __complete [--] <words…> <current>` on standard output: reads the data
  /// directory (from `--home` on the line, else the environment) and never a device.
  func answerCompletion(_ arguments: [String], context: ProcessContext) -> Int32 {
    var words = arguments.first == "--" ? Array(arguments.dropFirst()) : arguments
    let current = words.popLast() ?? ""
    let language = Self.languageHint(words, context.environment)
    let answer = CompletionEngine.complete(
      words: words, current: current, root: commandTree, globalOptions: GlobalOptions.specs,
      language: language
    ) { kind, prefix, line in
      guard let completer = registry.completer(for: kind),
        let directory = try? DataDirectory.resolve(
          homeFlag: line.options["home"]?.last, environment: context.environment)
      else { return [] }
      return completer.values(directory, prefix)
    }
    context.writeOutput(answer.protocolText)
    return ExitCode.success.rawValue
  }
}
