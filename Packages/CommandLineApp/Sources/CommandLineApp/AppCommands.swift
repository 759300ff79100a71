import CommandLineKit
import ConsoleKit
import Dispatch
import Essentials
import FeatureKit
import Foundation
import SimAdminSimulator
import ViewKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Commands of the app itself rather than of one feature: the console, the demo and the
/// simulated fleet.
public enum AppCommands {
  /// `ui`, `demo` and `simulate`.
  public static var all: [FeatureCommand] { [ui, DemoCommand.command, simulate] }

  // MARK: - ui

  static let refreshOption = OptionSpec.option(
    "refresh", valueName: "SECONDS", help: AppStrings.string("option.refresh"))

  static let noClipboardOption = OptionSpec.flag(
    "no-clipboard", help: AppStrings.string("option.no-clipboard"))

  static let ui = FeatureCommand(
    CommandSpec(
      "ui", abstract: AppStrings.string("command.ui"), options: [refreshOption, noClipboardOption]
    ).withoutJSON()
  ) { invocation in
    let refresh = try invocation.parsed.optionalInt("refresh", range: 1...86_400)
    try await openConsole(
      invocation.environment, refresh: refresh,
      clipboard: !invocation.parsed.flag("no-clipboard"))
    return .written()
  }

  /// Runs the full-screen console in `environment` until the user quits; `clipboard` false
  /// turns off `c` (copying a code with OSC 52).
  static func openConsole(_ environment: AppEnvironment, refresh: Int?, clipboard: Bool = true)
    async throws
  {
    let terminal = TerminalSession()
    guard terminal.isInteractive else {
      throw CommandFailure(AppStrings.string("error.needs-terminal"))
    }
    let application = try environment.services.resolve(MSAApplication.self)
    let context = ConsoleContext(
      registry: application.registry, language: environment.language, clipboard: clipboard)
    // At most 16 commands at once, each holding up to 8 device connections; fewer when the
    // open-file limit does not allow it (the screen has no stderr line to say so).
    let runtime = ConsoleRuntime(
      context: context, environment: environment, refreshInterval: refresh.map(TimeInterval.init),
      maxConcurrentRuns: ProcessLimits.concurrency(16, descriptorsEach: 8)
    ) { arguments in
      await application.dispatcher.outcome(of: arguments, in: environment)
    }
    try await runtime.run(terminal: terminal)
  }

  // MARK: - simulate

  static let simulate = FeatureCommand(
    CommandSpec(
      "simulate", abstract: AppStrings.string("command.simulate"),
      discussion: AppStrings.string("command.simulate.discussion"),
      options: [
        .option("devices", valueName: "N", help: AppStrings.string("option.devices"), default: "6"),
        .option("base-port", valueName: "PORT", help: AppStrings.string("option.base-port")),
        .option("password", valueName: "PASSWORD", help: AppStrings.string("option.password")),
        .option("faults", valueName: "SPEC", help: AppStrings.string("option.faults")),
        .option("sms-cases", valueName: "SPEC", help: AppStrings.string("option.sms-cases")),
        .option("seed", valueName: "SEED", help: AppStrings.string("option.seed"), default: "1"),
        .option(
          "sms-per-device", valueName: "N", help: AppStrings.string("option.sms"), default: "40"),
        .option(
          "traffic", valueName: "PER_MINUTE", help: AppStrings.string("option.traffic"),
          default: "0"),
      ])
  ) { invocation in
    let parsed = invocation.parsed
    let environment = invocation.environment
    let count = try parsed.int("devices", range: 1...5_000)
    let basePort = try parsed.optionalInt("base-port", range: 1...65_535)
    if let basePort, basePort + count - 1 > 65_535 {
      throw UsageError(
        .invalidValue, path: parsed.path, subject: "--base-port <PORT>", value: "\(basePort)",
        problem: .outOfRange(lower: 1, upper: 65_536 - count))
    }
    let seed = try parsed.int("seed", range: 0...Int(Int32.max))
    let messages = try parsed.int("sms-per-device", range: 0...1_000_000)
    guard let traffic = Double(try parsed.string("traffic")), traffic >= 0, traffic <= 6_000 else {
      throw UsageError(
        .invalidValue, path: parsed.path, subject: "--traffic <PER_MINUTE>",
        value: parsed.optionalString("traffic"), problem: .outOfRange(lower: 0, upper: 6_000))
    }
    // A malformed spec is the command line's fault: exit 64, like any bad option value.
    let faults: [Int: [FaultRule]]
    let smsCases: [Int: [SMSCase]]
    do {
      faults =
        try parsed.optionalString("faults").map {
          try FaultSpec.parse($0, deviceCount: count)
        } ?? [:]
      smsCases =
        try parsed.optionalString("sms-cases").map {
          try SMSCaseSpec.parse($0, deviceCount: count)
        } ?? [:]
    } catch let failure as FaultSpecError {
      throw UsageFailure(failure)
    } catch let failure as SMSCaseSpecError {
      throw UsageFailure(failure)
    }
    let profiles = (1...count).map { index in
      DeviceProfile(
        name: "sim-\(index)", password: parsed.optionalString("password"),
        smsCount: messages, seed: UInt64(seed) &+ UInt64(index), faults: faults[index] ?? [],
        trafficPerMinute: traffic, smsCases: smsCases[index] ?? [])
    }
    let termination = Termination()
    let fleet = try await SimulatedFleet.start(
      profiles, basePort: basePort, clock: environment.clock)
    let listing = fleet.devices.enumerated().map { index, device in
      SimulatedOrigin(
        index: index + 1, name: device.profile.name, origin: device.origin.absoluteString,
        faults: device.profile.faults.map { "\($0.fault)" })
    }
    if environment.output.json {
      environment.streams.writeOutput(
        try JSONOutput.render(command: "simulate", data: ["devices": listing]))
    } else {
      environment.streams.writeOutput(listing.map(\.line).joined(separator: "\n") + "\n")
    }
    environment.streams.writeError(
      AppStrings.text(
        "simulate.serving", environment.language, ["count": "\(count)"]) + "\n")
    await termination.wait()
    await fleet.stop()
    return .written()
  }

  struct SimulatedOrigin: Sendable, Encodable {
    let index: Int
    let name: String
    let origin: String
    let faults: [String]

    var line: String {
      ([name, origin] + faults).joined(separator: "\t")
    }
  }
}

/// Ctrl-C, SIGTERM or SIGHUP, caught from the moment it is made: a command that tells its
/// caller it is ready (the simulator's listing) arms it first, so a signal sent as soon as the
/// caller reads that is not lost in between.
final class Termination: Sendable {
  private struct State {
    var arrived = false
    var waiter: CheckedContinuation<Void, Never>?
  }
  private let sources = Locked<[any DispatchSourceSignal]>([])
  private let state = Locked(State())

  init() {
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber)
      source.setEventHandler { [weak self] in self?.signalled() }
      source.resume()
      sources.withLock { $0.append(source) }
    }
  }

  private func signalled() {
    let waiter = state.withLock { state in
      defer { state.waiter = nil }
      state.arrived = true
      return state.waiter
    }
    waiter?.resume()
  }

  /// Returns once a signal arrived (at once if one already has).
  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let already = state.withLock { state in
        if !state.arrived { state.waiter = continuation }
        return state.arrived
      }
      if already { continuation.resume() }
    }
    sources.current.forEach { $0.cancel() }
  }
}
