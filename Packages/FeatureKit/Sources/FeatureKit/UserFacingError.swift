import CommandLineKit
import Essentials

/// A failure a command reports in its own words, with its exit status.
public struct CommandFailure: LocalizedFailure {
  /// The explanation.
  public let text: LocalizedString
  /// The exit status.
  public let exitCode: ExitCode

  /// A failure with a catalogue message, exit status 1 unless given.
  public init(_ text: LocalizedString, exitCode: ExitCode = .failure) {
    self.text = text
    self.exitCode = exitCode
  }

  public func localizedMessage(_ language: AppLanguage) -> String {
    text.resolve(language)
  }

  /// The last part of the message's catalogue key.
  public var failureCode: String { FailureCode.of(key: text.key) }
}

/// Any failure that means the command line itself is wrong (conflicting options, a malformed
/// value): reported in the failure's own words with exit status 64, like a ``UsageError``.
public struct UsageFailure: LocalizedFailure {
  /// The explanation.
  public let failure: any LocalizedFailure

  /// Wraps `failure` as a usage error.
  public init(_ failure: any LocalizedFailure) {
    self.failure = failure
  }

  public func localizedMessage(_ language: AppLanguage) -> String {
    failure.localizedMessage(language)
  }

  /// The wrapped failure's code.
  public var failureCode: String { failure.failureCode }
}

/// Turns any error into the sentence a person reads and the exit status a script sees.
public enum UserFacingMessage {
  /// The localized message of a ``LocalizedFailure``, else the error's description with
  /// anything secret-looking masked.
  public static func of(_ error: any Error, _ language: AppLanguage) -> String {
    if let error = error as? any LocalizedFailure {
      return error.localizedMessage(language)
    }
    return Redactor.redact(text: String(describing: error))
  }

  /// The stable machine code of `error` (``LocalizedFailure/failureCode``), `failure` for an
  /// error that is not one.
  public static func code(of error: any Error) -> String {
    (error as? any LocalizedFailure)?.failureCode ?? "failure"
  }

  /// 64 for usage errors (``UsageError``, ``UsageFailure``), a ``CommandFailure``'s own
  /// status, else 1.
  public static func exitCode(of error: any Error) -> ExitCode {
    switch error {
    case is UsageError, is UsageFailure: .usage
    case let failure as CommandFailure: failure.exitCode
    default: .failure
    }
  }
}
