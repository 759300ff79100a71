import CommandLineKit
import Essentials
import ViewKit

/// What a command's run function receives.
public struct CommandInvocation: Sendable {
  /// The parsed arguments, options and flags.
  public let parsed: ParsedCommand
  /// The app's environment.
  public let environment: AppEnvironment

  /// An invocation of `parsed` in `environment`.
  public init(parsed: ParsedCommand, environment: AppEnvironment) {
    self.parsed = parsed
    self.environment = environment
  }
}

/// A command's outcome: a view for text output, a payload for `--json`, an exit status.
public struct CommandResult: Sendable {
  /// What text mode renders.
  public let view: ViewNode
  /// What `--json` prints under `data`.
  public let payload: any Encodable & Sendable
  /// Whether the command already wrote its output while running (nothing more to print).
  public let isWritten: Bool
  /// 0 on success; 1 when part of the work failed (each failure is on its own row).
  public let exitCode: ExitCode

  /// A result shown as `view`, printed as `payload` in JSON mode.
  public init(view: ViewNode, payload: any Encodable & Sendable, exitCode: ExitCode = .success) {
    self.view = view
    self.payload = payload
    self.exitCode = exitCode
    self.isWritten = false
  }

  private init(exitCode: ExitCode) {
    self.view = .stack([])
    self.payload = [String]()
    self.exitCode = exitCode
    self.isWritten = true
  }

  /// A command that already wrote everything it had to say (through
  /// ``StandardStreams/writeOutput``, or a full-screen session).
  public static func written(exitCode: ExitCode = .success) -> CommandResult {
    CommandResult(exitCode: exitCode)
  }
}

/// A command a feature contributes: its declaration as data, its subcommands, and how it runs.
///
/// A command with subcommands and no run function is a group (`msa fleet`); one with both
/// runs itself when no subcommand is named, unless the spec names a default subcommand.
public struct FeatureCommand: Sendable {
  /// The declaration without subcommands: name, aliases, help, arguments, options.
  public let declaration: CommandSpec
  /// Nested commands.
  public let subcommands: [FeatureCommand]
  /// The work, if this command does any itself.
  public let run: (@Sendable (CommandInvocation) async throws -> CommandResult)?

  /// A command from its declaration, subcommands and run function.
  public init(
    _ declaration: CommandSpec,
    subcommands: [FeatureCommand] = [],
    run: (@Sendable (CommandInvocation) async throws -> CommandResult)? = nil
  ) {
    self.declaration = declaration
    self.subcommands = subcommands
    self.run = run
  }

  /// The command's name.
  public var name: String { declaration.name }

  /// The full declaration tree, for the parser and help.
  public func spec(group: LocalizedString?) -> CommandSpec {
    var spec = declaration
    spec.group = group
    spec.subcommands = subcommands.map { $0.spec(group: nil) }
    return spec
  }

  /// The command at `path` below this one (`[]` is this one).
  public func descendant(_ path: ArraySlice<String>) -> FeatureCommand? {
    guard let first = path.first else { return self }
    return subcommands.first { $0.name == first }?.descendant(path.dropFirst())
  }
}
