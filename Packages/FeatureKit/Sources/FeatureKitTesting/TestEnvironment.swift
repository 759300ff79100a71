import Essentials
import EssentialsTesting
import FeatureKit
import Foundation
import ThemeKit

/// Standard streams for a test: what was written is kept, input is given up front.
public final class CapturedStreams: Sendable {
  private let outputText = Locked("")
  private let errorText = Locked("")
  private let input: String?

  /// Streams whose standard input holds `input` (nil: no input).
  public init(input: String? = nil) {
    self.input = input
  }

  /// Everything written to standard output while commands ran (most commands return their
  /// output instead).
  public var output: String { outputText.current }

  /// Everything written to standard error so far.
  public var error: String { errorText.current }

  /// The streams to put into an environment.
  public var streams: StandardStreams {
    StandardStreams(
      writeOutput: { [outputText] text in outputText.withLock { $0 += text } },
      writeError: { [errorText] text in errorText.withLock { $0 += text } },
      readInput: { [input] in input })
  }
}

extension AppEnvironment {
  /// An environment for tests: fixed clock, English, 80 columns without colour, a disabled
  /// logger, the standard theme and the given data directory and services.
  public static func test(
    dataDirectory: URL = FileManager.default.temporaryDirectory,
    clock: AppClock = TestClock().clock,
    language: AppLanguage = .english,
    output: OutputSettings = OutputSettings(),
    streams: StandardStreams = CapturedStreams().streams,
    services: Services = Services()
  ) -> AppEnvironment {
    AppEnvironment(
      clock: clock, language: language, output: output, logger: .disabled, theme: .standard,
      dataDirectory: dataDirectory, streams: streams, services: services)
  }
}
