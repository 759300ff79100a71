import Essentials
import Foundation

/// The console's string catalogue.
public enum ConsoleStrings {
  /// Loaded once from `Strings.json`.
  public static let catalogue = StringCatalogue.bundled(in: .module)
}
