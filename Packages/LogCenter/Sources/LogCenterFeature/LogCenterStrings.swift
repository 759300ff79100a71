import Essentials
import Foundation

/// This package's string catalogue (commands, views, errors of the log center and local data).
public enum LogCenterStrings {
  /// Decoded on first use from the package's `Strings.json`, compiled into the program.
  public static let catalogue = StringCatalogue.embedded(
    PackageResources.Strings_json, origin: "LogCenterFeature/Strings.json")

  /// The text of `key` in `language`.
  static func text(
    _ key: String, _ language: AppLanguage, _ arguments: [String: String] = [:]
  ) -> String {
    catalogue.text(key, language, arguments)
  }

  /// A catalogue key for declarations resolved later.
  static func string(_ key: String, _ arguments: [String: String] = [:]) -> LocalizedString {
    LocalizedString(key, in: catalogue, arguments)
  }
}
