import Essentials
import Foundation

/// What a view needs besides its state: the language, "now" for ages, the time zone for clock
/// times, and the instance reference used in links and commands.
public struct ViewContext: Sendable {
  /// The language of every label.
  public var language: AppLanguage
  /// "Now", for "fetched 12 s ago".
  public var now: Date
  /// The zone clock times are shown in.
  public var timeZone: TimeZone
  /// The reference the user typed (or the instance id), for links and retry commands.
  public var ref: String
  /// The console key that shows or masks SMS bodies; nil on the command line
  /// (`--show-bodies`).
  public var revealKey: Character?

  /// A context.
  public init(
    language: AppLanguage, now: Date, timeZone: TimeZone = .current, ref: String,
    revealKey: Character? = nil
  ) {
    self.language = language
    self.now = now
    self.timeZone = timeZone
    self.ref = ref
    self.revealKey = revealKey
  }

  /// A catalogue text in this context's language.
  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    DeviceModulesStrings.text(key, language, arguments)
  }
}
