import Essentials
import Foundation

/// This package's string catalogue: help headings and usage-error messages.
public enum CommandLineKitStrings {
  /// Loaded once from the package's `Strings.json`.
  public static let catalogue = StringCatalogue.bundled(in: .module)

  static func text(
    _ key: String, _ language: AppLanguage, _ arguments: [String: String] = [:]
  ) -> String {
    catalogue.text(key, language, arguments)
  }
}
