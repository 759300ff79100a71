import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import LocalStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the real process sets up before running a command: the open-file limit, broken
/// pipes, failed writes to the standard streams, and temporary files on Ctrl-C / SIGTERM.
public enum ProcessSetup {
  /// Sets up the real process, composes the application with `compose` and runs `arguments`
  /// (without the program name); returns the exit status (70 when the composition fails).
  public static func run(
    _ arguments: [String], compose: () throws(RegistryConflicts) -> MSAApplication
  ) async -> Int32 {
    let context = ProcessContext.current
    prepare(environment: context.environment)
    do {
      let app = try compose()
      let parsed = try? CommandParser().parse(
        arguments, root: app.commandTree, globalOptions: GlobalOptions.specs)
      removeTemporaryFilesOnSignals(path: parsed?.path ?? [])
      return await app.run(arguments, context: context)
    } catch {
      let message = AppStrings.text(
        "error.registry", .fromEnvironment(context.environment), ["detail": "\(error)"])
      context.streams.writeError(message + "\n")
      return 70
    }
  }

  /// Commands that take SIGINT/SIGTERM/SIGHUP over themselves (the console, the simulator).
  static let signalOwningCommands: Set<String> = ["ui", "demo", "simulate"]

  private static let sources = Locked<[any DispatchSourceSignal]>([])

  /// Raises the open-file limit, makes a closed pipe an `EPIPE` (quiet exit 0) and a failed
  /// write to standard output one line on standard error (exit 1), both after removing this
  /// process's temporary files.
  static func prepare(environment: [String: String]) {
    ProcessLimits.raiseOpenFileLimit()
    ProcessOutput.ignoreBrokenPipeSignal()
    // A write past the file size limit (`ulimit -f`) fails with EFBIG, which SQLite and the
    // file writer report as a full disk, instead of SIGXFSZ ending the process half-way.
    signal(SIGXFSZ, SIG_IGN)
    ProcessOutput.beforeExit.withLock { $0 = { TemporaryFiles.removeAll() } }
    let language = AppLanguage.fromEnvironment(environment)
    ProcessOutput.failureLine.withLock {
      $0 = { reason in
        AppStrings.text("error.outputFailed", language, ["reason": reason])
      }
    }
  }

  /// Removes this process's temporary files when SIGINT, SIGTERM or SIGHUP ends it (status
  /// 128 + the signal), unless the command at `path` handles them itself.
  static func removeTemporaryFilesOnSignals(path: [String]) {
    if let first = path.first, signalOwningCommands.contains(first) { return }
    sources.withLock { sources in
      guard sources.isEmpty else { return }
      for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler {
          // A follow command that took Ctrl-C over ends its loop itself.
          if signalNumber == SIGINT, ProcessInterrupt.deliver() { return }
          // A password prompt reading with echo off gets the terminal back as it was.
          SecretInput.restoreTerminal()
          TemporaryFiles.removeAll()
          _exit(128 + signalNumber)
        }
        source.resume()
        sources.append(source)
      }
      ProcessInterrupt.isRouted.withLock { $0 = true }
    }
  }
}
