import Essentials
import Foundation

/// Where a phone screen goes next.
public enum PhoneNavigation: Sendable, Equatable {
  /// Opens the route at this path on top of the current screen.
  case open(String)
  /// Closes the current screen; the one below shows `notice`, if any.
  case close(notice: String?)
}

/// Everything a phone screen's model may use: the app's environment (store, device
/// connector, clock, language), the phone's time zone and Files folder, the command
/// dispatcher the console shares, and navigation.
public struct PhoneContext: Sendable {
  /// Runs a command line in-process (the app core's dispatcher), with `input` as its standard
  /// input (a password, never an argument), and returns its result or throws its error.
  public typealias Runner =
    @Sendable (_ arguments: [String], _ input: String?) async throws ->
    CommandResult

  /// The app's environment: services, clock, language.
  public let environment: AppEnvironment
  /// The phone's time zone: every time is shown in it.
  public let timeZone: TimeZone
  /// The folder the Files app shows as "On My iPhone › MultiSimAdmin" (the sandbox's
  /// Documents): backups and exports go there, never to a typed path.
  public let documents: URL
  private let runner: Runner
  private let navigator: @MainActor @Sendable (PhoneNavigation) -> Void
  private let routeExists: @Sendable (String) -> Bool

  /// A context.
  public init(
    environment: AppEnvironment, timeZone: TimeZone, documents: URL,
    run: @escaping Runner,
    navigate: @escaping @MainActor @Sendable (PhoneNavigation) -> Void,
    canOpen: @escaping @Sendable (String) -> Bool
  ) {
    self.environment = environment
    self.timeZone = timeZone
    self.documents = documents
    self.runner = run
    self.navigator = navigate
    self.routeExists = canOpen
  }

  /// The app's language.
  public var language: AppLanguage { environment.language }

  /// Now, from the app's clock.
  public var now: Date { environment.clock.now() }

  /// Runs `arguments` as a command line of the app's features.
  public func run(_ arguments: [String], input: String? = nil) async throws -> CommandResult {
    try await runner(arguments, input)
  }

  /// Opens `path` on top (a route of any feature, named without importing it).
  @MainActor
  public func open(_ path: String) {
    navigator(.open(path))
  }

  /// Closes the current screen, leaving `notice` to the one below.
  @MainActor
  public func close(notice: String? = nil) {
    navigator(.close(notice: notice))
  }

  /// Whether this build has a phone screen for `path` (a custom build may lack the feature).
  public func canOpen(_ path: String) -> Bool {
    routeExists(path)
  }

  /// A sentence of FeatureKit's phone catalogue in the app's language.
  public func common(_ key: String, _ arguments: [String: String] = [:]) -> String {
    FeatureKitStrings.text(key, language, arguments)
  }

  /// What went wrong with `error`, as a phone says it: the shared message in the app's
  /// language without the advice to run a command (``PhoneWording/plain(_:fallback:)``),
  /// "Failed" when nothing else is left.
  public func failure(_ error: any Error) -> String {
    PhoneWording.plain(UserFacingMessage.of(error, language), fallback: common("phone.failed"))
  }

  /// `date` in the phone's time zone: `HH:mm` today, `MM-dd HH:mm` this year, else
  /// `yyyy-MM-dd HH:mm`.
  public func time(_ date: Date) -> String {
    PhoneTime.short(date, now: now, timeZone: timeZone)
  }

  /// `date` in full in the phone's time zone: `yyyy-MM-dd HH:mm:ss`.
  public func fullTime(_ date: Date) -> String {
    PhoneTime.full(date, timeZone: timeZone)
  }

  /// A file name stamp of now in the phone's time zone: `20260102-083005`.
  public var fileStamp: String {
    PhoneTime.stamp(now, timeZone: timeZone)
  }

  /// A folder under ``documents`` (created when missing), e.g. `Exports`.
  public func documentsFolder(_ name: String) throws -> URL {
    let folder = documents.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// A new file's place in the folder `folder` of ``documents``: `name-<stamp>.ext`, or with
  /// `-2`, `-3` … when a file of that name exists (two backups in one second), so nothing is
  /// ever written over.
  public func newFile(in folder: String, named name: String, extension ext: String) throws
    -> URL
  {
    let directory = try documentsFolder(folder)
    let base = "\(name)-\(fileStamp)"
    var candidate = directory.appendingPathComponent("\(base).\(ext)")
    var number = 2
    while FileManager.default.fileExists(atPath: candidate.path) {
      candidate = directory.appendingPathComponent("\(base)-\(number).\(ext)")
      number += 1
    }
    return candidate
  }

  /// Where a file in ``documents`` shows in the Files app, in words: "Files › On My iPhone ›
  /// MultiSimAdmin › Exports › logs.csv".
  public func filesLocation(of file: URL) -> String {
    let base = documents.standardizedFileURL.path
    let path = file.standardizedFileURL.path
    let inside = path.hasPrefix(base) ? String(path.dropFirst(base.count)) : file.lastPathComponent
    let parts = inside.split(separator: "/").map(String.init)
    return ([common("phone.files.root")] + parts).joined(separator: " › ")
  }
}

/// Times as the phone shows them, in its time zone (integer civil time, no formatter).
public enum PhoneTime {
  /// `HH:mm` on the same day as `now`, `MM-dd HH:mm` in the same year, else
  /// `yyyy-MM-dd HH:mm`.
  public static func short(_ date: Date, now: Date, timeZone: TimeZone) -> String {
    let civil = CivilTime(date, offsetSeconds: timeZone.secondsFromGMT(for: date))
    let today = CivilTime(now, offsetSeconds: timeZone.secondsFromGMT(for: now))
    let text = civil.text(seconds: false)
    if civil.year == today.year && civil.month == today.month && civil.day == today.day {
      return String(text.suffix(5))
    }
    if civil.year == today.year { return String(text.dropFirst(5)) }
    return text
  }

  /// `yyyy-MM-dd HH:mm:ss` in `timeZone`.
  public static func full(_ date: Date, timeZone: TimeZone) -> String {
    CivilTime(date, offsetSeconds: timeZone.secondsFromGMT(for: date)).text()
  }

  /// `yyyyMMdd-HHmmss` in `timeZone`, for file names.
  public static func stamp(_ date: Date, timeZone: TimeZone) -> String {
    let text = full(date, timeZone: timeZone)
    return text.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
      .replacingOccurrences(of: " ", with: "-")
  }
}

extension PhoneContext {
  /// Runs `work` (a read of the local store) off the main actor and returns its value.
  public func offMain<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value)
    async throws -> Value
  {
    try await Task.detached(priority: .userInitiated) { try work() }.value
  }
}
