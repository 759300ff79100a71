import Essentials
import Foundation

/// The app's own string catalogue.
public enum AppStrings {
  /// Loaded once from `Strings.json`.
  public static let catalogue = StringCatalogue.bundled(in: .module)

  /// A localized string of the app's catalogue.
  static func string(_ key: String, _ arguments: [String: String] = [:]) -> LocalizedString {
    LocalizedString(key, in: catalogue, arguments)
  }
}
