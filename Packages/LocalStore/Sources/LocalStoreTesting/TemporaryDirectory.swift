import Foundation

/// A fresh directory under the system's temporary folder, removed when the value goes away.
///
/// Tests use one per test so every SQLite file and credentials file is real and isolated.
public final class TemporaryDirectory: Sendable {
  /// The directory.
  public let url: URL

  /// Creates `…/tmp/<prefix>-<uuid>`.
  public init(prefix: String = "localstore") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// A path inside the directory.
  public func file(_ name: String) -> URL {
    url.appendingPathComponent(name)
  }
}
