import Foundation

/// This package's string catalogue.
public enum EssentialsStrings: PackageStrings {
  /// Decoded on first use from the package's `Strings.json`, compiled into the program.
  public static let catalogue = StringCatalogue.embedded(
    PackageResources.Strings_json, origin: "Essentials/Strings.json")
}
