/// An error that explains itself to a person in either language: what went wrong and how to
/// fix it. Every package's errors adopt it, so the app shows any of them the same way.
public protocol LocalizedFailure: Error, Sendable {
  /// The explanation in `language`.
  func localizedMessage(_ language: AppLanguage) -> String
}
