import FeatureKit

/// Commands of the app itself that are not views of a feature: `simulate`, `demo`, `ui`.
enum AppCommands {
  static var all: [FeatureCommand] { [] }
}
