import AppRuntime
import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import LocalStore
import ThemeKit
import ViewKit

/// The composed program: the registry of compiled-in features plus the app's built-ins,
/// and the one function that turns a command line into output and an exit status.
public struct MSAApplication: Sendable {
  /// The features and built-ins, checked for conflicts.
  public let registry: FeatureRegistry
  /// The whole command tree.
  public let commandTree: CommandSpec
  /// Runs command lines in-process (the console's actions, the demo's set-up).
  public let dispatcher: CommandDispatcher
  /// The database schema the compiled-in features own (the core schema is always there).
  public let schemaModules: [SchemaModule]

  static let programName = "msa"

  /// Composes `modules` (whose database schema is `schemaModules`) with the built-ins and
  /// `appCommands`; fails when any names clash or, when `checkingRouteActions`, when a
  /// screen's key cannot work (``routeActionConflicts()``). The program itself composes
  /// without that check (`MSAMain.composed()`): it is a property of the build, run by the
  /// tests, not of each process start.
  public init(
    modules: [FeatureModule], schemaModules: [SchemaModule], appCommands: [FeatureCommand] = [],
    checkingRouteActions: Bool = true
  ) throws(RegistryConflicts) {
    self.schemaModules = schemaModules
    let root = Self.root
    registry = try FeatureRegistry(
      builtIns: BuiltIns.module(extraCommands: appCommands), modules: modules, root: root,
      globalOptions: GlobalOptions.specs, checkingRouteActions: checkingRouteActions)
    commandTree = registry.commandTree(root: root)
    dispatcher = CommandDispatcher(
      registry: registry, commandTree: commandTree, globalOptions: GlobalOptions.specs)
  }

  private static var root: CommandSpec {
    CommandSpec(
      programName, abstract: AppStrings.string("app.abstract"),
      discussion: AppStrings.string("app.discussion"))
  }

  /// The problems of the screens' keys in this composition: each route action's command line
  /// dry-parsed against the command tree, each key, opened route and parameter checked
  /// (empty when all is well).
  public func routeActionConflicts() -> [RegistryConflict] {
    registry.routeActionConflicts(root: Self.root, globalOptions: GlobalOptions.specs)
  }

  /// Runs one command line (without the program name) and returns the exit status.
  public func run(_ arguments: [String], context: ProcessContext) async -> Int32 {
    let context = context.guardingTerminal()
    if arguments.first == CompletionScript.entryName {
      return answerCompletion(Array(arguments.dropFirst()), context: context)
    }
    let fallbackLanguage = Self.languageHint(arguments, context.environment)
    let parsed: ParsedCommand
    do {
      parsed = try CommandParser().parse(
        arguments, root: commandTree, globalOptions: GlobalOptions.specs)
    } catch {
      return usageFailure(
        error, language: fallbackLanguage, json: Self.asksForJSON(arguments), context: context)
    }
    let json = parsed.flag("json")

    if parsed.flag("version") {
      context.writeOutput("msa \(AppInfo.version)\n")
      return ExitCode.success.rawValue
    }
    let language: AppLanguage
    let output: OutputSettings
    do {
      language = try GlobalOptions.language(parsed, context.environment)
      output = try GlobalOptions.output(parsed, context)
    } catch {
      return usageFailure(error, language: fallbackLanguage, json: json, context: context)
    }
    var helpPath = parsed.path
    if parsed.path == [ConventionCommands.help.name] && !parsed.isHelpRequested {
      do {
        helpPath = try commandTree.resolvedPath(parsed.argumentList("COMMAND"))
      } catch {
        return usageFailure(error, language: language, json: json, context: context)
      }
    }
    guard !parsed.isHelpRequested, helpPath == parsed.path,
      let command = registry.command(at: parsed.path), let run = command.run
    else {
      let help = HelpFormatter.help(
        for: helpPath, root: commandTree, globalOptions: GlobalOptions.specs,
        language: language, programName: Self.programName, width: output.width,
        environment: ConventionCommands.environmentVariables)
      emit(help + "\n", parsed: parsed, output: output, context: context)
      return ExitCode.success.rawValue
    }

    let fields: FieldSelection?
    do {
      fields = try FieldSelection.from(
        parsed, command: commandTree.command(at: parsed.path), json: output.json)
    } catch {
      return usageFailure(error, language: language, json: json, context: context)
    }
    if output.json, commandTree.command(at: parsed.path)?.printsNoJSON == true {
      return usageFailure(
        UsageError(.invalidValue, path: parsed.path, subject: "--json", problem: .noJSON),
        language: language, json: true, context: context)
    }
    if case .list(let rows) = fields {
      let commandName = parsed.path.joined(separator: " ")
      guard let text = try? FieldSelection.listing(rows, command: commandName, json: output.json)
      else { return ExitCode.failure.rawValue }
      context.writeOutput(text)
      return ExitCode.success.rawValue
    }
    let environment: AppEnvironment
    do {
      environment = try makeEnvironment(parsed, language: language, output: output, context)
    } catch {
      return failure(error, parsed: parsed, language: language, output: output, context: context)
    }
    // The command's large write-ahead log is checkpointed before the process ends, not left
    // for the next command's open to read (Store.finish).
    defer { environment.services.madeServices.lazy.compactMap { $0 as? Store }.first?.finish() }
    do {
      let result = try await run(CommandInvocation(parsed: parsed, environment: environment))
      if !result.isWritten {
        emit(
          try render(result, parsed: parsed, environment: environment, fields: fields),
          parsed: parsed, output: output, context: context)
      }
      return result.exitCode.rawValue
    } catch {
      return failure(error, parsed: parsed, language: language, output: output, context: context)
    }
  }

  // MARK: - In-process runs (the console's actions, the demo's set-up)

  /// Runs a command line inside an existing environment (sharing its store and device
  /// sessions), with `input` as standard input; returns the result or the error.
  public func execute(_ arguments: [String], in environment: AppEnvironment, input: String? = nil)
    async throws -> CommandResult
  {
    try await dispatcher.execute(arguments, in: environment, input: input)
  }

  /// `arguments` parsed against the command tree and the global options.
  public func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
    try dispatcher.parse(arguments)
  }

  /// Whether this build has the command at `path` (custom builds may lack features).
  public func hasCommand(_ path: [String]) -> Bool {
    registry.command(at: path)?.run != nil
  }

  // MARK: - Environment

  func makeEnvironment(
    _ parsed: ParsedCommand, language: AppLanguage, output: OutputSettings,
    _ context: ProcessContext
  ) throws -> AppEnvironment {
    let directory = try DataDirectory.resolve(
      homeFlag: parsed.optionalString("home"), environment: context.environment)
    let services = Composition.services(
      registry: registry, dataDirectory: directory, clock: context.clock,
      application: self, verbose: output.verbose)
    let logger = Composition.logger(services, verbose: output.verbose, clock: context.clock)
    return AppEnvironment(
      clock: context.clock, language: language, output: output, logger: logger,
      theme: .standard, dataDirectory: directory, streams: context.streams, services: services)
  }

  /// `base` moved to another data directory, with services of its own there.
  func environment(
    _ base: AppEnvironment, dataDirectory: URL, requestTimeout: TimeInterval
  ) -> AppEnvironment {
    var environment = base
    environment.dataDirectory = dataDirectory
    environment.services = Composition.services(
      registry: registry, dataDirectory: dataDirectory, clock: base.clock, application: self,
      requestTimeout: requestTimeout, verbose: base.output.verbose)
    var logger = base.logger
    logger.handler =
      Composition.logger(environment.services, verbose: base.output.verbose, clock: base.clock)
      .handler
    environment.logger = logger
    return environment
  }

  // MARK: - Output

  func render(
    _ result: CommandResult, parsed: ParsedCommand, environment: AppEnvironment,
    fields: FieldSelection? = nil
  ) throws -> String {
    if environment.output.json {
      let command = parsed.path.joined(separator: " ")
      if case .keep(let rows, let names) = fields {
        return try JSONOutput.render(
          command: command, data: result.payload, rows: rows, keeping: names,
          language: environment.language)
      }
      return try JSONOutput.render(
        command: command, data: result.payload, language: environment.language)
    }
    let text = TextRenderer.render(
      result.view,
      options: RenderOptions(
        width: environment.output.width, colorMode: environment.output.colorMode,
        language: environment.language, theme: environment.theme))
    return text.isEmpty ? "" : text + "\n"
  }

  /// Writes `text` to standard output, through the pager when it is text for a terminal
  /// taller than the terminal (not with `--json`, `--no-pager` or a follow command).
  func emit(_ text: String, parsed: ParsedCommand, output: OutputSettings, context: ProcessContext)
  {
    let rows = context.terminalHeight ?? context.environment["LINES"].flatMap(Int.init)
    // Lines are counted only for a terminal (walking the characters of 1,000 rows of
    // `--json` piped to a program was 5% of a cold `fleet list --json`).
    guard output.isTerminal, !output.json, !parsed.flag("no-pager"), !parsed.flag("follow"),
      Pager.shouldPage(
        lineCount: text.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }, terminalRows: rows),
      let pager = Pager.fromEnvironment(context.environment),
      pager.run(text, environment: context.environment)
    else {
      context.writeOutput(text)
      return
    }
  }

  /// Reports a usage error (exit 64) on stderr and, when `--json` was asked for, as the error
  /// envelope on stdout too: the envelope `--json` promises holds for an error found while the
  /// command line is read, before any command is understood (its `command` is then the part of
  /// the path that was read).
  func usageFailure(
    _ error: any Error, language: AppLanguage, json: Bool, context: ProcessContext
  ) -> Int32 {
    guard let usage = error as? UsageError else {
      let message = UserFacingMessage.of(error, language)
      context.streams.writeError(message + "\n")
      if json,
        let envelope = try? JSONOutput.renderError(
          command: "", message: message, code: UserFacingMessage.code(of: error))
      {
        context.writeOutput(envelope)
      }
      return ExitCode.failure.rawValue
    }
    if json,
      let envelope = try? JSONOutput.renderError(
        command: commandTree.canonicalPath(usage.path).joined(separator: " "), usageError: usage,
        language: language)
    {
      context.writeOutput(envelope)
    }
    context.streams.writeError(
      HelpFormatter.errorReport(
        usage, root: commandTree, language: language, programName: Self.programName) + "\n")
    return ExitCode.usage.rawValue
  }

  func failure(
    _ error: any Error, parsed: ParsedCommand, language: AppLanguage, output: OutputSettings,
    context: ProcessContext
  ) -> Int32 {
    if error is UsageError {
      return usageFailure(error, language: language, json: output.json, context: context)
    }
    let command = parsed.path.joined(separator: " ")
    let message = UserFacingMessage.of(error, language)
    let status = UserFacingMessage.exitCode(of: error)
    // The catalogue places the message: "Error: …", but "错误：…" (the full-width colon
    // carries its own space).
    context.streams.writeError(AppStrings.text("error.line", language, ["message": message]) + "\n")
    if output.json,
      let json = try? JSONOutput.renderError(
        command: command, message: message, code: UserFacingMessage.code(of: error))
    {
      context.writeOutput(json)
    }
    return status.rawValue
  }

  /// Whether the raw command line asks for `--json` (before a `--` that ends the options), for
  /// an error found before the line is understood.
  static func asksForJSON(_ arguments: [String]) -> Bool {
    arguments.prefix { $0 != "--" }.contains("--json")
  }

  /// The language to report a parse error in, before the command line is understood.
  static func languageHint(_ arguments: [String], _ environment: [String: String]) -> AppLanguage {
    for (index, argument) in arguments.enumerated() {
      if argument.hasPrefix("--lang="),
        let language = AppLanguage(flag: String(argument.dropFirst(7)))
      {
        return language
      }
      if argument == "--lang", index + 1 < arguments.count,
        let language = AppLanguage(flag: arguments[index + 1])
      {
        return language
      }
    }
    return .fromEnvironment(environment)
  }
}
