import Foundation

/// Whether snapshots are being re-recorded: the environment variable `SNAPSHOT_RECORD=1`.
public enum SnapshotRecordMode {
  /// The variable that switches record mode on.
  public static let environmentVariable = "SNAPSHOT_RECORD"

  /// `true` when `SNAPSHOT_RECORD` is `1`, `true` or `yes`.
  public static var isOn: Bool {
    isOn(environment: ProcessInfo.processInfo.environment)
  }

  /// Whether `environment` switches record mode on.
  public static func isOn(environment: [String: String]) -> Bool {
    guard let value = environment[environmentVariable]?.lowercased() else { return false }
    return ["1", "true", "yes"].contains(value)
  }
}
