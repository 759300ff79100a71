/// A catalogue key that becomes text once the language is known.
///
/// Declarations (a module's name, a command's help) hold these, so one registry serves
/// every language.
public struct LocalizedString: Sendable {
  /// The key in ``catalogue``.
  public let key: String
  /// The catalogue that holds the key.
  public let catalogue: StringCatalogue
  /// Values for the text's `{placeholders}`.
  public let arguments: [String: String]

  /// A key of `catalogue`, with optional placeholder values.
  public init(_ key: String, in catalogue: StringCatalogue, _ arguments: [String: String] = [:]) {
    self.key = key
    self.catalogue = catalogue
    self.arguments = arguments
  }

  /// The text in `language`.
  public func resolve(_ language: AppLanguage) -> String {
    catalogue.text(key, language, arguments)
  }
}
