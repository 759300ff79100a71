/// The HTTP methods SimAdmin routes use.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
  /// Reads.
  case get = "GET"
  /// Actions and writes.
  case post = "POST"
  /// Deletions.
  case delete = "DELETE"
}
