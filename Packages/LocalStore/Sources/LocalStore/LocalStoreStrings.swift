import Essentials
import Foundation

/// This package's string catalogue (error messages and store issues).
public enum LocalStoreStrings: PackageStrings {
  /// Decoded on first use from the package's `Strings.json`, compiled into the program.
  public static let catalogue = StringCatalogue.embedded(
    PackageResources.Strings_json, origin: "LocalStore/Strings.json")
}

/// An error or issue that can be shown to the user in either language.
///
/// `description` is the English message, so logs and `String(describing:)` stay readable.
public protocol LocalizedStoreError: LocalizedFailure, CustomStringConvertible {
  /// The message in `language`.
  func localizedMessage(_ language: AppLanguage) -> String
}

extension LocalizedStoreError {
  /// The English message.
  public var description: String { localizedMessage(.english) }
}
