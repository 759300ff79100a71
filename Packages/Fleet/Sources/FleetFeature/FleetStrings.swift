import Essentials
import Foundation

/// The Fleet feature's string catalogue (English and Simplified Chinese).
public enum FleetStrings {
  /// Decoded on first use from the package's `Strings.json`, compiled into the program.
  public static let catalogue = StringCatalogue.embedded(
    PackageResources.Strings_json, origin: "FleetFeature/Strings.json")

  /// The text of `key` in `language`.
  static func text(
    _ key: String, _ language: AppLanguage, _ arguments: [String: String] = [:]
  ) -> String {
    catalogue.text(key, language, arguments)
  }

  /// A catalogue key as a ``LocalizedString``.
  static func string(_ key: String, _ arguments: [String: String] = [:]) -> LocalizedString {
    LocalizedString(key, in: catalogue, arguments)
  }
}
