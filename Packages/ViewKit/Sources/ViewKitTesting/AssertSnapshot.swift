import Foundation
import Testing

/// Compares `text` with the golden file
/// `<test file's folder>/__Snapshots__/<TestFileName>/<name>.txt`.
///
/// A mismatch records an issue with a line diff. A missing snapshot is written and the test
/// **fails** (so a new snapshot never passes unseen); in record mode (`record: true`, or
/// `SNAPSHOT_RECORD=1`) the snapshot is rewritten and the test fails with a reminder to re-run.
public func assertSnapshot(
  of text: String, named name: String, record: Bool? = nil,
  fileID: String = #fileID, filePath: String = #filePath, function: String = #function,
  line: Int = #line, column: Int = #column
) {
  let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  let url = SnapshotFile.url(filePath: filePath, name: name)
  let recording = record ?? SnapshotRecordMode.isOn
  let existing = try? String(contentsOf: url, encoding: .utf8)
  if recording || existing == nil {
    do {
      try SnapshotFile.write(text, to: url)
    } catch {
      Issue.record("Could not write snapshot \(url.path): \(error)", sourceLocation: location)
      return
    }
    let reason =
      recording
      ? "Snapshot \(name) recorded, re-run without \(SnapshotRecordMode.environmentVariable)."
      : "No snapshot \(name) existed; recorded it at \(url.path). Check it, then re-run."
    Issue.record(Comment(rawValue: reason), sourceLocation: location)
    return
  }
  guard let existing else { return }
  let expected = SnapshotFile.stored(existing)
  guard expected != text else { return }
  let diff = LineDiff.render(expected: expected, actual: text)
  Issue.record(
    Comment(rawValue: "Snapshot \(name) does not match (− snapshot, + actual):\n\(diff)"),
    sourceLocation: location)
}

/// Where snapshots live and how they are stored.
public enum SnapshotFile {
  /// `<folder of filePath>/__Snapshots__/<file name without extension>/<name>.txt`.
  public static func url(filePath: String, name: String) -> URL {
    let file = URL(fileURLWithPath: filePath)
    return file.deletingLastPathComponent()
      .appendingPathComponent("__Snapshots__")
      .appendingPathComponent(file.deletingPathExtension().lastPathComponent)
      .appendingPathComponent(name + ".txt")
  }

  /// Writes `text` plus a final newline, creating folders as needed.
  public static func write(_ text: String, to url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data((text + "\n").utf8).write(to: url, options: .atomic)
  }

  /// The snapshot text of a file's contents (without the final newline ``write(_:to:)`` adds).
  public static func stored(_ contents: String) -> String {
    contents.hasSuffix("\n") ? String(contents.dropLast()) : contents
  }
}

/// A minimal line diff for snapshot failures.
public enum LineDiff {
  /// Lines prefixed `  ` (same), `− ` (only in the snapshot) or `+ ` (only in the actual text),
  /// from a longest-common-subsequence alignment.
  public static func render(expected: String, actual: String) -> String {
    let old = expected.components(separatedBy: "\n")
    let new = actual.components(separatedBy: "\n")
    var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
      for j in stride(from: new.count - 1, through: 0, by: -1) {
        common[i][j] =
          old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
      }
    }
    var lines: [String] = []
    var i = 0
    var j = 0
    while i < old.count || j < new.count {
      if i < old.count && j < new.count && old[i] == new[j] {
        lines.append("  " + old[i])
        i += 1
        j += 1
      } else if i < old.count && (j == new.count || common[i + 1][j] >= common[i][j + 1]) {
        lines.append("− " + old[i])
        i += 1
      } else {
        lines.append("+ " + new[j])
        j += 1
      }
    }
    return lines.joined(separator: "\n")
  }
}
