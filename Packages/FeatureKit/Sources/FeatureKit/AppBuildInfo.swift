/// Facts about the running build that only the app knows; the app registers one in
/// `Services` so the settings page can show them (`.registering(AppBuildInfo(…))`).
public struct AppBuildInfo: Sendable, Equatable, Codable {
  /// The release version, e.g. `0.1.0`.
  public var version: String
  /// The platform, e.g. `linux-x86_64`.
  public var platform: String

  /// Build facts.
  public init(version: String, platform: String) {
    self.version = version
    self.platform = platform
  }
}
