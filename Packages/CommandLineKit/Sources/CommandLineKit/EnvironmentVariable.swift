import Essentials

/// An environment variable the program reads, as help's `ENVIRONMENT:` section and the
/// manual's ENVIRONMENT list show it.
public struct EnvironmentVariable: Sendable {
  /// The variable's name, e.g. `MSA_HOME`.
  public var name: String
  /// What it does, one or two sentences.
  public var help: LocalizedString

  /// A variable and its help.
  public init(_ name: String, help: LocalizedString) {
    self.name = name
    self.help = help
  }
}
