/// A package's user-facing strings: the one convention every package follows.
///
/// Each package has one `enum <Package>Strings: PackageStrings` holding its embedded
/// catalogue, and reads it only through the two functions below: `text` for words needed now
/// (a view being built, a line being written) and `string` for words resolved later in the
/// reader's language (a command's title, a failure shown elsewhere). No package writes its own
/// wrappers or free functions around its catalogue; a type that carries the language (a
/// view's context) may bind it in a `text(_:_:)` of its own that calls ``text(_:_:_:)``.
public protocol PackageStrings {
  /// The package's catalogue (`Resources/Strings.json`, English and Simplified Chinese).
  static var catalogue: StringCatalogue { get }
}

extension PackageStrings {
  /// The text of `key` in `language`, its placeholders filled from `arguments`.
  public static func text(
    _ key: String, _ language: AppLanguage, _ arguments: [String: String] = [:]
  ) -> String {
    catalogue.text(key, language, arguments)
  }

  /// `key` with its `arguments`, put into words later in the reader's language.
  public static func string(_ key: String, _ arguments: [String: String] = [:])
    -> LocalizedString
  {
    LocalizedString(key, in: catalogue, arguments)
  }
}
