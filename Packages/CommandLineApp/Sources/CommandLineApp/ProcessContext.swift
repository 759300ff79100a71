import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import ViewKit

/// The outside world of one run of msa: environment variables, streams, terminal, clock.
///
/// `main` passes the real process; tests pass captured streams and a fixed clock.
public struct ProcessContext: Sendable {
  /// Environment variables (`MSA_HOME`, `LANG`, `NO_COLOR`, `TERM`, `COLUMNS`, …).
  public var environment: [String: String]
  /// Standard error and input.
  public var streams: StandardStreams
  /// Writes to standard output: the output layer's one door.
  public var writeOutput: @Sendable (String) -> Void
  /// Whether standard output is a terminal.
  public var outputIsTerminal: Bool
  /// The terminal's width in columns, when known.
  public var terminalWidth: Int?
  /// The clock.
  public var clock: AppClock
  /// The terminal's height in rows, when known (the pager is used only for taller output).
  public var terminalHeight: Int?

  /// A context from its parts.
  public init(
    environment: [String: String], streams: StandardStreams,
    writeOutput: @escaping @Sendable (String) -> Void, outputIsTerminal: Bool,
    terminalWidth: Int?, clock: AppClock, terminalHeight: Int? = nil
  ) {
    self.environment = environment
    self.streams = streams
    self.writeOutput = writeOutput
    self.outputIsTerminal = outputIsTerminal
    self.terminalWidth = terminalWidth
    self.clock = clock
    self.terminalHeight = terminalHeight
  }

  /// The real process.
  public static var current: ProcessContext {
    let isTerminal = TerminalInfo.isTerminal(fileDescriptor: 1)
    var streams = StandardStreams.process
    if TerminalInfo.isTerminal(fileDescriptor: 2) {
      // A status line in place: back to the line's start, the text cut to the terminal's
      // width (one column spare, so the cursor never wraps), the rest of the line erased.
      streams.writeStatus = { text in
        let width = TerminalInfo.width(fileDescriptor: 2) ?? 80
        let line = DisplayWidth.truncate(text, to: max(1, width - 1))
        ProcessOutput.writeError("\r" + line + "\u{1B}[K")
      }
    }
    return ProcessContext(
      environment: ProcessInfo.processInfo.environment,
      streams: streams,
      writeOutput: { ProcessOutput.writeOutput($0) },
      outputIsTerminal: isTerminal,
      terminalWidth: isTerminal ? TerminalInfo.width(fileDescriptor: 1) : nil,
      clock: .system,
      terminalHeight: isTerminal ? TerminalInfo.height(fileDescriptor: 1) : nil)
  }
}

extension ProcessContext {
  /// This context with everything written to standard output and standard error passed
  /// through ``UntrustedText/terminalSafe(_:)``: the last guard before the terminal, which lets
  /// through line feeds and the theme's colour codes and shows any other control by a visible
  /// stand-in (the renderer has neutralised content already; this also covers diagnostics,
  /// progress lines and raw exports). `--json` output is unchanged by it: its controls are
  /// `\uXXXX` escapes.
  public func guardingTerminal() -> ProcessContext {
    var guarded = self
    let output = writeOutput
    let streamOutput = streams.writeOutput
    let error = streams.writeError
    let export = streams.writeExport
    guarded.writeOutput = { output(UntrustedText.terminalSafe($0)) }
    guarded.streams.writeOutput = { streamOutput(UntrustedText.terminalSafe($0)) }
    guarded.streams.writeError = { error(UntrustedText.terminalSafe($0)) }
    // An export piped to a file or a program keeps its CR LF and quoted line breaks; the
    // export escaped every other control (StandardStreams.writeExport).
    if outputIsTerminal {
      guarded.streams.writeExport = { export(UntrustedText.terminalSafe($0)) }
    }
    // A status line is plain text: every control in it is shown by its stand-in before the
    // writer adds its own carriage return and erase.
    if let status = streams.writeStatus {
      guarded.streams.writeStatus = { @Sendable text in
        status(UntrustedText.neutralised(text, lineFeeds: .symbol))
      }
    }
    return guarded
  }
}
