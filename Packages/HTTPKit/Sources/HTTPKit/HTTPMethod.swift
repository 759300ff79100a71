/// The HTTP methods the project sends (SimAdmin's routes use these three).
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
  /// Reads.
  case get = "GET"
  /// Actions and writes.
  case post = "POST"
  /// Deletions.
  case delete = "DELETE"
}
