import CommandLineKit
import Essentials

/// An error that knows how to explain itself to a person, in either language.
public protocol UserFacingError: Error, Sendable {
  /// What went wrong and how to fix it.
  func message(_ language: AppLanguage) -> String
  /// The exit status in command mode: 1 for failures, 64 for usage errors.
  var exitCode: ExitCode { get }
}

extension UserFacingError {
  /// Failures exit with status 1 unless they say otherwise.
  public var exitCode: ExitCode { .failure }
}

extension UsageError: UserFacingError {
  public var exitCode: ExitCode { .usage }
}

/// A failure a command reports in its own words.
public struct CommandFailure: UserFacingError {
  /// The explanation.
  public let text: LocalizedString
  /// The exit status.
  public let exitCode: ExitCode

  /// A failure with a catalogue message, exit status 1 unless given.
  public init(_ text: LocalizedString, exitCode: ExitCode = .failure) {
    self.text = text
    self.exitCode = exitCode
  }

  public func message(_ language: AppLanguage) -> String {
    text.resolve(language)
  }
}

/// Turns any error into the sentence a person reads.
public enum UserFacingMessage {
  /// The localized message of a ``UserFacingError``, else the error's description.
  public static func of(_ error: any Error, _ language: AppLanguage) -> String {
    if let error = error as? any UserFacingError {
      return error.message(language)
    }
    return Redactor.redact(text: String(describing: error))
  }

  /// The exit status for `error`.
  public static func exitCode(of error: any Error) -> ExitCode {
    (error as? any UserFacingError)?.exitCode ?? .failure
  }
}
