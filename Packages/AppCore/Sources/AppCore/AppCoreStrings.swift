import Essentials

/// The app core's string catalogue: the sentences both shells show for actions (results,
/// notices, form problems).
public enum AppCoreStrings: PackageStrings {
  /// Loaded once from `Strings.json`.
  public static let catalogue = StringCatalogue.embedded(
    PackageResources.Strings_json, origin: "AppCore/Strings.json")
}
