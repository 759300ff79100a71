import Essentials
import Foundation

/// The app's own string catalogue.
public enum AppStrings: PackageStrings {
  /// Decoded on first use from `Strings.json`, compiled into the program.
  public static let catalogue = StringCatalogue.embedded(
    PackageResources.Strings_json, origin: "MSAApp/Strings.json")
}
