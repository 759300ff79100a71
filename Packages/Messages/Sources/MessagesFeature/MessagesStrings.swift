import Essentials
import Foundation

/// This package's string catalogue.
public enum MessagesStrings {
  /// Loaded once from the package's `Strings.json`.
  public static let catalogue = StringCatalogue.bundled(in: .module)
}
