import Essentials

/// One feature as the app sees it: who it is, its screens and its commands.
public struct FeatureModule: Sendable {
  /// A stable identifier, e.g. `fleet`.
  public let id: String
  /// The name people read (a console tab, a help heading), e.g. Nodes / 节点.
  public let name: LocalizedString
  /// One line on what the feature does.
  public let summary: LocalizedString
  /// Where the feature stands among tabs: lower comes first.
  public let order: Int
  /// The route the console opens for this feature's tab; nil for no tab.
  public let home: String?
  /// Its screens.
  public let routes: [FeatureRoute]
  /// Its top-level commands (each may have subcommands).
  public let commands: [FeatureCommand]
  /// Its strings, so the app can check every catalogue is complete.
  public let catalogue: StringCatalogue
  /// Example command lines by command path (`"fleet add"`), as typed in a shell; help and
  /// the manual end each command with them.
  public let examples: [String: [String]]
  /// Where Tab finds the values of the kinds it knows (a conversation peer …).
  public let completers: [ValueCompleter]
  /// Its iPhone screens, one per route (``PhoneScreen``): typed models with their SwiftUI
  /// views, composed by the phone app like the routes.
  public let phoneScreens: [PhoneScreen]

  /// A module from its declarations.
  public init(
    id: String, name: LocalizedString, summary: LocalizedString, order: Int, home: String?,
    routes: [FeatureRoute], commands: [FeatureCommand], catalogue: StringCatalogue,
    examples: [String: [String]] = [:], completers: [ValueCompleter] = [],
    phoneScreens: [PhoneScreen] = []
  ) {
    self.id = id
    self.name = name
    self.summary = summary
    self.order = order
    self.home = home
    self.routes = routes
    self.commands = commands
    self.catalogue = catalogue
    self.examples = examples
    self.completers = completers
    self.phoneScreens = phoneScreens
  }
}
