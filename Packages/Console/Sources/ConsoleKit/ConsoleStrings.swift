import Essentials
import Foundation

/// The console's string catalogue.
public enum ConsoleStrings: PackageStrings {
  /// Loaded once from `Strings.json`.
  public static let catalogue = StringCatalogue.embedded(
    PackageResources.Strings_json, origin: "ConsoleKit/Strings.json")
}
