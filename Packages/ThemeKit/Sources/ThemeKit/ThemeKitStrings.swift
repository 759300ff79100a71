import Essentials
import Foundation

/// This package's string catalogue.
public enum ThemeKitStrings: PackageStrings {
  /// Decoded on first use from the package's `Strings.json`, compiled into the program.
  public static let catalogue = StringCatalogue.embedded(
    PackageResources.Strings_json, origin: "ThemeKit/Strings.json")
}
