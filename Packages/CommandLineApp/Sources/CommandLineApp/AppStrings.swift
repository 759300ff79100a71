import Essentials
import Foundation

/// The app's own string catalogue.
public enum AppStrings {
  /// Decoded on first use from `Strings.json`, compiled into the program.
  public static let catalogue = StringCatalogue.embedded(
    PackageResources.Strings_json, origin: "MSAApp/Strings.json")

  /// A localized string of the app's catalogue.
  static func string(_ key: String, _ arguments: [String: String] = [:]) -> LocalizedString {
    LocalizedString(key, in: catalogue, arguments)
  }
}
