import Essentials
import Foundation
import LocalStore

/// Why a log-center or local-data command refused or failed; each message names the problem
/// and the fix. Nothing was written when one of these is thrown (except where a case says so).
public enum LogCenterError: LocalizedFailure, Equatable, CustomStringConvertible {
  /// `--since` / `--until` is not a date.
  case invalidDate(option: String, value: String)
  /// Not an `r123` / `c45` id.
  case invalidRecordID(String)
  /// No record has this id.
  case recordNotFound(String)
  /// Both or neither of `--older-than` and `--keep`.
  case trimModeRequired
  /// A destructive command without `--yes`.
  case confirmationRequired(action: String, target: String, count: Int)
  /// The file cannot be written; nothing was left behind.
  case unwritable(path: String, reason: String)
  /// The destination exists and `--force` was not given.
  case destinationExists(path: String)
  /// The file cannot be read.
  case unreadable(path: String, reason: String)
  /// `msa data backup` of a database failing its quick check, without `--force`.
  case backupOfDamaged(path: String, problems: [String])
  /// The restore file does not start with the SQLite header.
  case notADatabase(path: String)
  /// The restore file is shorter than its header says.
  case truncated(path: String, expected: Int, actual: Int)
  /// `PRAGMA integrity_check` found problems in the restore file.
  case integrityFailed(path: String, problems: [String])
  /// The restore file has no `schema_versions` table: not an msa database.
  case missingSchemaVersions(path: String)
  /// The restore file is another program's SQLite database (``DatabaseOwner``).
  case foreignDatabase(path: String, tables: Int)
  /// The restore file holds a module newer than this msa knows.
  case newerSchema(path: String, module: String, found: Int, supported: Int)
  /// The restore file holds a module this msa does not know.
  case unknownModule(path: String, module: String)
  /// The swap failed; the current data is unchanged and the safety copy is at `safetyCopy`.
  case restoreFailed(reason: String, safetyCopy: String)
  /// The import file is not valid JSON.
  case malformedJSON(path: String, line: Int?, column: Int?, detail: String)
  /// The import file has problems; nothing was imported.
  case importRejected(path: String, problems: [String])

  /// The message in `language`.
  public func localizedMessage(_ language: AppLanguage) -> String {
    func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
      LogCenterStrings.text(key, language, arguments)
    }
    switch self {
    case .invalidDate(let option, let value):
      return text("error.invalidDate", ["option": option, "value": value])
    case .invalidRecordID(let value):
      return text("error.invalidRecordID", ["value": value])
    case .recordNotFound(let id):
      return text("error.recordNotFound", ["id": id])
    case .trimModeRequired:
      return text("error.trimModeRequired")
    case .confirmationRequired(let action, let target, let count):
      return text("error.confirm.\(action)", ["target": target, "count": String(count)])
    case .unwritable(let path, let reason):
      return text("error.unwritable", ["path": path, "reason": reason])
    case .destinationExists(let path):
      return text("error.destinationExists", ["path": path])
    case .unreadable(let path, let reason):
      return text("error.unreadable", ["path": path, "reason": reason])
    case .backupOfDamaged(let path, let problems):
      return text(
        "error.backupOfDamaged",
        ["path": path, "problems": problems.prefix(5).joined(separator: "; ")])
    case .notADatabase(let path):
      return text("error.notADatabase", ["path": path])
    case .truncated(let path, let expected, let actual):
      return text(
        "error.truncated", ["path": path, "expected": String(expected), "actual": String(actual)])
    case .integrityFailed(let path, let problems):
      return text(
        "error.integrityFailed",
        ["path": path, "problems": problems.prefix(5).joined(separator: "; ")])
    case .missingSchemaVersions(let path):
      return text("error.missingSchemaVersions", ["path": path])
    case .foreignDatabase(let path, let tables):
      return text("error.foreignDatabase", ["path": path, "count": String(tables)])
    case .newerSchema(let path, let module, let found, let supported):
      return text(
        "error.newerSchema",
        [
          "path": path, "module": module, "found": String(found), "supported": String(supported),
        ])
    case .unknownModule(let path, let module):
      return text("error.unknownModule", ["path": path, "module": module])
    case .restoreFailed(let reason, let safetyCopy):
      return text("error.restoreFailed", ["reason": reason, "backup": safetyCopy])
    case .malformedJSON(let path, let line, let column, let detail):
      if let line, let column {
        return text(
          "error.malformedJSON.at",
          ["path": path, "line": String(line), "column": String(column), "detail": detail])
      }
      return text("error.malformedJSON", ["path": path, "detail": detail])
    case .importRejected(let path, let problems):
      return text(
        "error.importRejected",
        ["path": path, "count": String(problems.count)]) + "\n"
        + problems.map { "  - \($0)" }.joined(separator: "\n")
    }
  }

  /// The case name: `recordNotFound`, `trimModeRequired` …
  public var failureCode: String {
    if case .trimModeRequired = self { return "trimModeRequired" }
    return FailureCode.caseName(of: self) ?? "failure"
  }

  /// The English message.
  public var description: String { localizedMessage(.english) }
}
