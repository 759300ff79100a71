import Essentials
import Foundation

/// This package's string catalogue: error reasons and failure messages.
public enum SimAdminClientStrings {
  /// Loaded once from the package's `Strings.json`.
  public static let catalogue = StringCatalogue.bundled(in: .module)
}
