import Essentials
import Foundation
import ThemeKit
import ViewKit

/// How results are written: chosen once from global options and the terminal.
public struct OutputSettings: Sendable, Equatable {
  /// `--json`: machine output on stdout instead of text.
  public var json: Bool
  /// Colour for text output.
  public var colorMode: ColorMode
  /// Columns available for text output.
  public var width: Int
  /// `--verbose`: log records also go to stderr.
  public var verbose: Bool
  /// Whether stdout is a terminal (full-screen UI and prompts need one).
  public var isTerminal: Bool

  /// Output settings; the defaults suit tests and pipes.
  public init(
    json: Bool = false, colorMode: ColorMode = .off, width: Int = 80, verbose: Bool = false,
    isTerminal: Bool = false
  ) {
    self.json = json
    self.colorMode = colorMode
    self.width = width
    self.verbose = verbose
    self.isTerminal = isTerminal
  }
}

/// Standard streams as the program sees them; tests capture them instead.
public struct StandardStreams: Sendable {
  /// Writes to standard output at once, for the few commands whose output comes while they
  /// run (`msa simulate` prints its origins, then serves). Others return a ``CommandResult``.
  public var writeOutput: @Sendable (String) -> Void
  /// Writes diagnostics and progress (`[3/10] …`) to standard error.
  public var writeError: @Sendable (String) -> Void
  /// Reads all of standard input (for `--password-stdin`, `--text-stdin`), nil at once if none.
  public var readInput: @Sendable () -> String?
  /// Writes an export's lines to standard output as they are (`msa messages export -o -`,
  /// `msa logs export`): a CSV row ends in CR LF and a quoted cell may hold a tab or a line
  /// break, every other control being escaped by the export itself. The app's guard shows
  /// controls as stand-ins only on a terminal here, where ``writeOutput`` always does.
  public var writeExport: @Sendable (String) -> Void
  /// Asks for a password typed at the terminal with echo off, showing the prompt given, and
  /// returns the line (nil when input ended first): set only when standard input is a
  /// terminal. When nil, a password is read from ``readInput`` (piped).
  public var readSecret: (@Sendable (String) -> String?)?
  /// Shows a one-line status in place on standard error (a long read's progress, as
  /// `git clone` shows it): each call replaces the line, `""` clears it. Nil when standard
  /// error is not a terminal (a pipe, a file, the tests' captured streams): then nothing of
  /// the kind is shown. The text is plain (its controls are shown as stand-ins); the writer
  /// adds the carriage return and the erase, and cuts the line to the terminal's width.
  public var writeStatus: (@Sendable (String) -> Void)?

  /// Streams from closures; output is dropped unless given; an export goes to `writeOutput`
  /// unless `writeExport` is given.
  public init(
    writeOutput: @escaping @Sendable (String) -> Void = { _ in },
    writeError: @escaping @Sendable (String) -> Void,
    readInput: @escaping @Sendable () -> String?,
    writeStatus: (@Sendable (String) -> Void)? = nil,
    writeExport: (@Sendable (String) -> Void)? = nil,
    readSecret: (@Sendable (String) -> String?)? = nil
  ) {
    self.writeOutput = writeOutput
    self.writeError = writeError
    self.readInput = readInput
    self.writeStatus = writeStatus
    self.writeExport = writeExport ?? writeOutput
    self.readSecret = readSecret
  }

  /// The process's real standard streams.
  public static let process = StandardStreams(
    writeOutput: { ProcessOutput.writeOutput($0) },
    writeError: { ProcessOutput.writeError($0) },
    readInput: {
      // `try?`: standard input may be a directory or fail to read; that is "no input".
      guard let data = try? FileHandle.standardInput.readToEnd() else { return nil }
      return String(data: data, encoding: .utf8)
    },
    writeExport: { ProcessOutput.writeOutput($0) },
    readSecret: terminalPrompt)

  /// The terminal's password prompt, when standard input is a terminal.
  private static let terminalPrompt: (@Sendable (String) -> String?)? = {
    guard SecretInput.inputIsTerminal else { return nil }
    return { prompt in SecretInput.prompt(prompt) }
  }()
}

/// Everything a feature may use from the outside world, passed in rather than reached for.
public struct AppEnvironment: Sendable {
  /// The only source of "now".
  public var clock: AppClock
  /// The language of every user-facing string.
  public var language: AppLanguage
  /// How results are written.
  public var output: OutputSettings
  /// Where runtime events go (already redacting).
  public var logger: Logger
  /// Colours and dimensions.
  public var theme: Theme
  /// The data directory (`--home`, `MSA_HOME` or the platform's).
  public var dataDirectory: URL
  /// Standard error and input.
  public var streams: StandardStreams
  /// Shared services (store, device connector, …), created on first use.
  public var services: Services

  /// An environment from its parts.
  public init(
    clock: AppClock, language: AppLanguage, output: OutputSettings, logger: Logger, theme: Theme,
    dataDirectory: URL, streams: StandardStreams, services: Services
  ) {
    self.clock = clock
    self.language = language
    self.output = output
    self.logger = logger
    self.theme = theme
    self.dataDirectory = dataDirectory
    self.streams = streams
    self.services = services
  }

  /// Resolves a string of this environment's language.
  public func text(_ string: LocalizedString) -> String {
    string.resolve(language)
  }

  /// Reports progress of a long run on stderr as `[n/N] message`, in text and `--json` mode
  /// alike: stdout stays clean for the result. The message is one line whatever it holds: a
  /// device's text in it (an error message) has its controls shown as stand-ins, colour and
  /// conceal sequences included, like everywhere else.
  public func progress(_ completed: Int, of total: Int, _ message: String) {
    streams.writeError(
      "[\(completed)/\(total)] \(UntrustedText.neutralised(message, lineFeeds: .symbol))\n")
  }

  /// How many device tasks (each holding up to `descriptorsEach` open files) may run at
  /// once: `requested` for `total` tasks, or fewer when the open-file limit does not allow
  /// it, which is then said on stderr. A local limit must never turn into devices blamed
  /// for "Too many open files".
  public func cappedConcurrency(
    _ requested: Int, total: Int, descriptorsEach: Int, limit: Int = ProcessLimits.openFileLimit
  ) -> Int {
    let wanted = max(1, min(requested, total))
    let allowed = ProcessLimits.concurrency(wanted, descriptorsEach: descriptorsEach, limit: limit)
    if allowed < wanted {
      streams.writeError(
        FeatureKitStrings.text(
          "note.concurrencyCapped", language,
          [
            "allowed": String(allowed), "requested": String(wanted), "limit": String(limit),
          ]) + "\n")
    }
    return allowed
  }
}
