import Essentials
import Foundation

/// The Fleet feature's string catalogue (English and Simplified Chinese).
public enum FleetStrings: PackageStrings {
  /// Decoded on first use from the package's `Strings.json`, compiled into the program.
  public static let catalogue = StringCatalogue.embedded(
    PackageResources.Strings_json, origin: "FleetFeature/Strings.json")
}
