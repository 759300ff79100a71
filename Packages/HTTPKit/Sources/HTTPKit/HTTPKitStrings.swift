import Essentials
import Foundation

/// This package's string catalogue: the reasons a transport gives inside
/// ``UnreachableReason/other(_:)`` and ``HTTPTransportError/localResource(_:)``.
public enum HTTPKitStrings: PackageStrings {
  /// Decoded on first use from the package's `Strings.json`, compiled into the program.
  public static let catalogue = StringCatalogue.embedded(
    PackageResources.Strings_json, origin: "HTTPKit/Strings.json")
}
