import Essentials

/// A command line that does not fit its command's spec; the program exits with
/// ``ExitCode/usage`` after showing ``HelpFormatter/errorReport(_:root:language:programName:)``.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: String, Sendable, Equatable, CaseIterable {
    /// An option that the command and the global options do not declare.
    case unknownOption
    /// A word where a subcommand name was expected.
    case unknownSubcommand
    /// An option that takes a value given without one.
    case missingValue
    /// A flag given a value (`--json=yes`).
    case unexpectedValue
    /// A required positional argument left out.
    case missingArgument
    /// A positional value no argument takes.
    case unexpectedArgument
    /// A value that is not allowed or not of the expected form.
    case invalidValue
    /// A required option left out.
    case missingOption
    /// A non-repeating option given twice.
    case duplicateOption
  }

  /// Why a value was refused, for ``Kind/invalidValue``.
  public enum ValueProblem: Sendable, Equatable {
    /// The value is not one of `allowed`.
    case notAllowed(allowed: [String])
    /// The value is not a whole number.
    case notAnInteger
    /// The number is outside `lower...upper`.
    case outOfRange(lower: Int, upper: Int)
    /// The option works only together with `option` (`--fields` with `--json`).
    case needsOption(String)
    /// The command lists no rows for the option to work on (`--fields`).
    case noRows
    /// The command's output is never JSON (`--json` on `msa manual`).
    case noJSON
    /// Not a length of time, below zero, or longer than 100 years.
    case duration(TimeArgument.Problem)
    /// Not a point in time (or a length back from now that is below zero or too long).
    case time(TimeArgument.Problem)
  }

  /// What went wrong.
  public var kind: Kind
  /// The canonical command path it happened in (from the root's child down).
  public var path: [String]
  /// What the error is about: an option's synopsis (`--name <NAME>`), an argument's label
  /// (`<ref>`), or the word typed (`--nme`, `lst`).
  public var subject: String
  /// The offending value, for invalid values and unexpected arguments.
  public var value: String?
  /// Why the value was refused, for ``Kind/invalidValue``.
  public var problem: ValueProblem?
  /// A close name the user probably meant (`--name`, `list`).
  public var suggestion: String?

  /// An error; the parser and ``ParsedCommand``'s accessors build these.
  public init(
    _ kind: Kind, path: [String], subject: String, value: String? = nil,
    problem: ValueProblem? = nil, suggestion: String? = nil
  ) {
    self.kind = kind
    self.path = path
    self.subject = subject
    self.value = value
    self.problem = problem
    self.suggestion = suggestion
  }

  /// The one-sentence message in `language`, with the "did you mean" suggestion if any.
  public func message(_ language: AppLanguage) -> String {
    let base = baseMessage(language)
    guard let suggestion else { return base }
    let hint = CommandLineKitStrings.text("error.didYouMean", language, ["suggestion": suggestion])
    return CommandLineKitStrings.text(
      "error.withSuggestion", language, ["message": base, "suggestion": hint])
  }

  /// The English message.
  public var description: String { message(.english) }

  private func baseMessage(_ language: AppLanguage) -> String {
    let value = self.value ?? ""
    switch kind {
    case .unknownOption:
      return CommandLineKitStrings.text("error.unknownOption", language, ["name": subject])
    case .unknownSubcommand:
      return CommandLineKitStrings.text("error.unknownSubcommand", language, ["name": subject])
    case .missingValue:
      return CommandLineKitStrings.text("error.missingValue", language, ["name": subject])
    case .unexpectedValue:
      return CommandLineKitStrings.text("error.unexpectedValue", language, ["name": subject])
    case .missingArgument:
      return CommandLineKitStrings.text("error.missingArgument", language, ["name": subject])
    case .unexpectedArgument:
      return CommandLineKitStrings.text("error.unexpectedArgument", language, ["value": value])
    case .missingOption:
      return CommandLineKitStrings.text("error.missingOption", language, ["name": subject])
    case .duplicateOption:
      return CommandLineKitStrings.text("error.duplicateOption", language, ["name": subject])
    case .invalidValue:
      switch problem {
      case .notAllowed(let allowed):
        return CommandLineKitStrings.text(
          "error.notAllowed", language,
          ["name": subject, "value": value, "allowed": allowed.joined(separator: ", ")])
      case .outOfRange(let lower, let upper):
        return CommandLineKitStrings.text(
          "error.outOfRange", language,
          ["name": subject, "value": value, "lower": String(lower), "upper": String(upper)])
      case .needsOption(let other):
        return CommandLineKitStrings.text(
          "error.needsOption", language, ["name": subject, "other": other])
      case .noRows:
        let command = (["msa"] + path).joined(separator: " ")
        return CommandLineKitStrings.text(
          "error.noRows", language, ["name": subject, "command": command])
      case .noJSON:
        let command = (["msa"] + path).joined(separator: " ")
        return CommandLineKitStrings.text(
          "error.noJSON", language, ["name": subject, "command": command])
      case .duration(let problem), .time(let problem):
        let kind = if case .duration = self.problem { "duration" } else { "time" }
        let key =
          problem == .tooLong ? "error.length.tooLong" : "error.\(kind).\(problem.rawValue)"
        return CommandLineKitStrings.text(
          key, language,
          [
            "name": subject, "value": value, "longest": TimeArgument.longestText,
            "positive": String(value.drop { $0 == "-" || $0 == " " }),
          ])
      case .notAnInteger, nil:
        return CommandLineKitStrings.text(
          "error.notAnInteger", language, ["name": subject, "value": value])
      }
    }
  }
}

extension UsageError: LocalizedFailure {
  /// The message in `language`, as ``message(_:)``.
  public func localizedMessage(_ language: AppLanguage) -> String {
    message(language)
  }

  /// The kind: `unknownOption`, `invalidValue` …
  public var failureCode: String { kind.rawValue }
}
