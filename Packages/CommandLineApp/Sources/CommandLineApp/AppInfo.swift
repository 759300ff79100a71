import Foundation

/// Facts about this build of msa.
public enum AppInfo {
  /// The release version, also sent as `User-Agent: MultiSimAdmin/<version>`.
  public static let version = "0.1.0"

  /// The platform the program runs on, e.g. `linux-x86_64`.
  public static var platform: String {
    #if os(Linux)
      let system = "linux"
    #elseif os(macOS)
      let system = "macos"
    #elseif os(iOS)
      let system = "ios"
    #else
      let system = "unknown"
    #endif
    #if arch(x86_64)
      return system + "-x86_64"
    #elseif arch(arm64)
      return system + "-arm64"
    #else
      return system
    #endif
  }
}
