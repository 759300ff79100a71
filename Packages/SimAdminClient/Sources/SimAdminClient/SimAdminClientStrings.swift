import Essentials
import Foundation

/// This package's string catalogue: error reasons and failure messages.
public enum SimAdminClientStrings: PackageStrings {
  /// Decoded on first use from the package's `Strings.json`, compiled into the program.
  public static let catalogue = StringCatalogue.embedded(
    PackageResources.Strings_json, origin: "SimAdminClient/Strings.json")
}
