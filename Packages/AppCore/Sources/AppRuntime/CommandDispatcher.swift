import AppCore
import CommandLineKit
import FeatureKit
import Foundation
import ViewKit

/// Runs command lines inside a running app: the console's and the phone's actions are
/// command lines (a route action's arguments), run in-process against the app's environment,
/// sharing its store and device sessions.
public struct CommandDispatcher: Sendable {
  /// The features and built-ins.
  public let registry: FeatureRegistry
  /// The whole command tree.
  public let commandTree: CommandSpec
  /// The options every command takes.
  public let globalOptions: [OptionSpec]

  /// A dispatcher over `registry`'s commands.
  public init(registry: FeatureRegistry, commandTree: CommandSpec, globalOptions: [OptionSpec]) {
    self.registry = registry
    self.commandTree = commandTree
    self.globalOptions = globalOptions
  }

  /// `arguments` parsed against the command tree and the global options.
  public func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
    try CommandParser().parse(arguments, root: commandTree, globalOptions: globalOptions)
  }

  /// Runs a command line inside `environment` with `input` as standard input; returns the
  /// result or the error. Nothing is written to the app's standard error, and the result is
  /// never JSON (a shell reads its view).
  public func execute(_ arguments: [String], in environment: AppEnvironment, input: String? = nil)
    async throws -> CommandResult
  {
    let parsed = try parse(arguments)
    guard let command = registry.command(at: parsed.path), let run = command.run else {
      throw UsageError(.unknownSubcommand, path: parsed.path, subject: arguments.first ?? "")
    }
    var environment = environment
    environment.streams = StandardStreams(writeError: { _ in }, readInput: { input })
    environment.output.json = false
    return try await run(CommandInvocation(parsed: parsed, environment: environment))
  }

  /// How an action's command line ended: success, or the reason in the environment's
  /// language — the error's message, else what the command's view says went wrong.
  public func outcome(of arguments: [String], in environment: AppEnvironment) async
    -> ActionOutcome
  {
    do {
      let result = try await execute(arguments, in: environment)
      let succeeded = result.exitCode == .success
      return ActionOutcome(
        succeeded: succeeded,
        message: succeeded ? nil : ActionOutcome.failureText(in: result.view))
    } catch {
      return ActionOutcome(
        succeeded: false, message: UserFacingMessage.of(error, environment.language))
    }
  }
}
