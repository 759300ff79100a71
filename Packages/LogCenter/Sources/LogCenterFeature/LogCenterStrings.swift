import Essentials
import Foundation

/// This package's string catalogue (commands, views, errors of the log center and local data).
public enum LogCenterStrings: PackageStrings {
  /// Decoded on first use from the package's `Strings.json`, compiled into the program.
  public static let catalogue = StringCatalogue.embedded(
    PackageResources.Strings_json, origin: "LogCenterFeature/Strings.json")
}
