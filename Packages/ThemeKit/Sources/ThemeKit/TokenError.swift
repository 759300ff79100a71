import Essentials
import Foundation

/// Why a token file cannot become a ``Theme``. Every case names the token path at fault.
public enum TokenError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file is not JSON, or not an object at the top.
  case malformedDocument(detail: String)
  /// `path`'s value is an alias to `target`, which is not a token.
  case missingAliasTarget(path: String, target: String)
  /// Aliases lead back to where they started; the cycle lists each path once, then the first again.
  case aliasCycle([String])
  /// `path` names a `$type` the loader does not know.
  case unknownType(path: String, type: String)
  /// Neither `path` nor any group above it sets `$type`, and its value is not an alias.
  case missingType(path: String)
  /// `path` declares `expected` but its alias resolves to a token of type `found`.
  case typeMismatch(path: String, expected: String, found: String)
  /// `path`'s value cannot be read as its `$type`.
  case unparsableValue(path: String, type: String, detail: String)

  /// The token path the error is about (the first path of a cycle); `nil` for a malformed file.
  public var path: String? {
    switch self {
    case .malformedDocument: nil
    case .missingAliasTarget(let path, _), .unknownType(let path, _), .missingType(let path),
      .typeMismatch(let path, _, _), .unparsableValue(let path, _, _):
      path
    case .aliasCycle(let cycle): cycle.first
    }
  }

  /// The message in `language`.
  public func localizedMessage(_ language: AppLanguage) -> String {
    let catalogue = ThemeKitStrings.catalogue
    switch self {
    case .malformedDocument(let detail):
      return catalogue.text("token.malformedDocument", language, ["detail": detail])
    case .missingAliasTarget(let path, let target):
      return catalogue.text(
        "token.missingAliasTarget", language, ["path": path, "target": target])
    case .aliasCycle(let cycle):
      return catalogue.text(
        "token.aliasCycle", language, ["cycle": cycle.joined(separator: " → ")])
    case .unknownType(let path, let type):
      return catalogue.text("token.unknownType", language, ["path": path, "type": type])
    case .missingType(let path):
      return catalogue.text("token.missingType", language, ["path": path])
    case .typeMismatch(let path, let expected, let found):
      return catalogue.text(
        "token.typeMismatch", language, ["path": path, "expected": expected, "found": found])
    case .unparsableValue(let path, let type, let detail):
      return catalogue.text(
        "token.unparsableValue", language, ["path": path, "type": type, "detail": detail])
    }
  }

  /// The English message.
  public var description: String { localizedMessage(.english) }
}
