import Foundation

/// A screen's address pattern: slash-separated literals and `:parameters`, e.g. `device/:ref/sim`.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
  /// One part of a pattern.
  public enum Segment: Sendable, Hashable {
    /// Matches exactly this text.
    case literal(String)
    /// Matches any one non-empty segment and binds it to the name.
    case parameter(String)
  }

  /// The pattern's parts, in order.
  public let segments: [Segment]

  /// Parses `pattern`; leading and trailing slashes are ignored.
  public init(_ pattern: String) {
    segments = pattern.split(separator: "/").map { part in
      part.hasPrefix(":") ? .parameter(String(part.dropFirst())) : .literal(String(part))
    }
  }

  /// The pattern as written, e.g. `fleet/:id`.
  public var description: String {
    segments.map { segment in
      switch segment {
      case .literal(let text): text
      case .parameter(let name): ":" + name
      }
    }.joined(separator: "/")
  }

  /// The pattern with parameter names erased: `fleet/:id` and `fleet/:ref` share a shape, so
  /// they would match the same paths and cannot both be registered.
  public var shape: String {
    segments.map { segment in
      if case .literal(let text) = segment { text } else { ":" }
    }.joined(separator: "/")
  }

  /// The parameter values when `path` matches, else nil. Literals win over parameters only
  /// through registration order, which the registry keeps free of clashes.
  public func match(_ path: String) -> [String: String]? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    guard parts.count == segments.count else { return nil }
    var parameters: [String: String] = [:]
    for (segment, part) in zip(segments, parts) {
      switch segment {
      case .literal(let text):
        guard text == part else { return nil }
      case .parameter(let name):
        parameters[name] = String(part).removingPercentEncoding ?? String(part)
      }
    }
    return parameters
  }

  /// Fills the parameters in, percent-encoding each value as one path segment.
  public func path(_ parameters: [String: String]) -> String {
    segments.map { segment in
      switch segment {
      case .literal(let text): text
      case .parameter(let name):
        (parameters[name] ?? "")
          .addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
          ?? ""
      }
    }.joined(separator: "/")
  }
}
